#pragma once
// Why each GPU stream sat idle (HTA's idle-time breakdown). On one stream (a GPU track),
// between the first and last GPU event in the range, every gap between the end of the work
// so far and the next event's start is one idle interval, classified by when the next
// event was launched (gpu_launches.h):
//   kernel wait  the launch started before the gap began: the work was already queued, so
//                the stream waited on something on the GPU (a stream or event wait on another
//                stream's kernel, or the launch overhead between queued kernels)
//   host wait    the launch started at or after the gap began: the GPU waited for the CPU
//   other        no launch matched (no flow in the trace): the cause cannot be told
// The whole gap goes to one category. HTA's documentation describes kernel wait as the short
// overhead between consecutive kernels and uses a consecutive-kernel delay threshold; here
// only the launch time decides, with no threshold, and gaps are exact nanoseconds.
#include "analysis/analysis_scope.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct StreamIdle {
    long rank = 0;
    std::string stream; // the track's name ("stream 7"), else its pid/tid
    double spanUs = 0.0, busyUs = 0.0, idleUs = 0.0;
    double hostWaitUs = 0.0, kernelWaitUs = 0.0, otherUs = 0.0;
    int gaps = 0;
};

std::vector<StreamIdle> idleBreakdown(const RankInput& rank,
                                      const std::vector<std::uint32_t>& launches,
                                      const AnalysisRange& range);

} // namespace wb
