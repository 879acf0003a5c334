#pragma once
// What `warpboard analyze` looks at: each rank as the triage takes it (RankInput: the store
// and the rank; the analyses set its scope themselves) and an optional time window (--range,
// in each trace's own clock). Every analysis clips GPU intervals to the window, so a kernel
// that straddles an edge counts only for its part inside.
#include "import/trace_store.h"
#include "triage/rank_analysis.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace wb {

struct AnalysisRange {
    std::int64_t fromNs = std::numeric_limits<std::int64_t>::min();
    std::int64_t toNs = std::numeric_limits<std::int64_t>::max();
    bool bounded() const {
        return fromNs != std::numeric_limits<std::int64_t>::min() ||
               toNs != std::numeric_limits<std::int64_t>::max();
    }
};

// GPU work, as the triage counts it: kernels (compute and NCCL), memcpy and memset.
inline bool isGpuActivity(EventKind k) {
    return k == EventKind::Kernel || k == EventKind::CommKernel || k == EventKind::Memcpy ||
           k == EventKind::Memset;
}

// The part of `e` inside `range`: false when nothing of it is (a zero-length event counts
// when its instant lies inside).
inline bool clipToRange(const StoredEvent& e, const AnalysisRange& range, std::int64_t& startNs,
                        std::int64_t& endNs) {
    if (e.endNs() < range.fromNs || e.startNs >= range.toNs)
        return false;
    startNs = std::max(e.startNs, range.fromNs);
    endNs = std::min(e.endNs(), range.toNs);
    return true;
}

} // namespace wb
