#pragma once
// The pointer-chase latency staircase as a recording (the Trace format live runs write), so
// the memory-hierarchy scenario replays a recording today — one computed from the memory
// ladder model, marked "modeled" — and a measured one replaces it without view changes.
#include "gpu/memory_ladder.h"
#include "trace/trace.h"

#include <optional>
#include <string>

namespace wb {

inline constexpr const char* kPointerChaseKind = "pointer-chase-latency";

// The recording file name in resources/traces for a GPU: "pointer-chase-h100-sxm.json".
std::string pointerChaseFileName(const std::string& gpuId);

// What the model predicts a pointer chase records: load latency (cycles) for working sets
// from 4 KiB to 4 × L2, with provenance "modeled" (never "measured").
Trace modeledPointerChase(const MemoryLadder& ladder);

// The recording shipped for this GPU (parsed from the embedded resources), or nullopt.
std::optional<Trace> shippedPointerChase(const std::string& gpuId);

} // namespace wb
