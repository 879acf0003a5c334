#include "analysis/temporal_breakdown.h"

#include <algorithm>

namespace wb {

TemporalBreakdown temporalBreakdown(const RankFigures& f) {
    TemporalBreakdown t;
    t.rank = f.rank;
    t.windowUs = f.windowUs;
    t.idleUs = f.idleUs;
    t.computeUs = f.computeUs;
    // busy = window − idle; what of it is not compute (rounding can leave −0.000…)
    t.nonComputeUs = std::max(0.0, f.windowUs - f.idleUs - f.computeUs);
    if (f.windowUs > 0.0) {
        t.idlePct = 100.0 * t.idleUs / f.windowUs;
        t.computePct = 100.0 * t.computeUs / f.windowUs;
        t.nonComputePct = 100.0 * t.nonComputeUs / f.windowUs;
    }
    return t;
}

} // namespace wb
