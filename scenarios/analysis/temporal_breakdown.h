#pragma once
// HTA's temporal breakdown of one rank, from the triage's figures over the range:
//   window       first to last GPU activity (kernels, memcpy, memset)
//   idle         window − |union of all GPU activity|
//   compute      |union of compute kernels|
//   non-compute  |union of all GPU activity| − compute: communication and memory copies
//                and sets that nothing computing hid
// Percentages are of the window, so the three add to 100 %. HTA computes the same split
// from whole-µs timestamps and without the last ProfilerStep; here the nanoseconds are
// exact and every step counts.
#include "triage/rank_analysis.h"

namespace wb {

struct TemporalBreakdown {
    long rank = 0;
    double windowUs = 0.0, idleUs = 0.0, computeUs = 0.0, nonComputeUs = 0.0;
    double idlePct = 0.0, computePct = 0.0, nonComputePct = 0.0;
};

TemporalBreakdown temporalBreakdown(const RankFigures& f);

} // namespace wb
