#pragma once
// Which CPU runtime call launched each GPU event. Kineto links a launch (cudaLaunchKernel,
// cudaMemcpyAsync, hipLaunchKernel, ...) to its kernel by the correlation id, written as an
// "ac2g" flow: 's' at the runtime call's start on the CPU thread, 'f' at the kernel's start
// on its stream. The importer keeps those flows (TraceStore::flowLinks); this resolves both
// ends to events. A GPU event without a flow is matched by its correlation id instead
// (sampled or filtered traces keep args.correlation on both ends but drop the flows); one
// with neither (generated traces) stays unmatched.
#include "import/trace_store.h"

#include <cstdint>
#include <vector>

namespace wb {

inline constexpr std::uint32_t kNoLaunch = 0xffffffffu;

// For every event index of `store`: the index of the runtime event that launched it, or
// kNoLaunch (also for every event that is not GPU activity).
std::vector<std::uint32_t> launchOfEvents(const TraceStore& store);

} // namespace wb
