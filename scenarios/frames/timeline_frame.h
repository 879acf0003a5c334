#pragma once
// Per-rank timelines of kernels, drawn from the compact TraceStore the importer (or the
// slowdown generator, through the same importer) produced. A frame names the stores it
// shows, one per rank, top to bottom; the view zooms, pans and selects inside it.
#include "import/trace_store.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace wb {

struct TimelineLane {
    std::shared_ptr<const TraceStore> store; // shared: frames are copied, traces are not
    std::string label;                       // "rank 3", "rank 3 (straggler)"
    bool emphasis = false;                   // drawn with the accent colour
    // The same trace (the same object, or equal content: a rebuilt lesson regenerates its
    // traces), the same label.
    bool operator==(const TimelineLane& o) const {
        const bool sameStore = store == o.store || (store && o.store && *store == *o.store);
        return sameStore && label == o.label && emphasis == o.emphasis;
    }
};

struct TimelineFrame {
    std::string title;
    std::vector<TimelineLane> lanes;
    // The window shown first, in the stores' clock; an empty window (start ≥ end) = all.
    std::int64_t viewStartNs = 0;
    std::int64_t viewEndNs = 0;
    // Lesson traces show GPU streams only; imported ones start with CPU threads collapsed.
    bool gpuOnly = false;
    std::string caption; // one line under the title (the verdict, a summary)
    // Events are drawn only before this instant, in the stores' clock: a step that reveals
    // its trace as it plays. 0: all of them.
    std::int64_t revealEndNs = 0;
    bool operator==(const TimelineFrame&) const = default;
};

// The earliest and latest instants over a frame's traces; {0, 0} when they hold none.
inline std::pair<std::int64_t, std::int64_t> timeSpan(const TimelineFrame& f) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (const TimelineLane& lane : f.lanes)
        if (lane.store && lane.store->hasTime()) {
            lo = std::min(lo, lane.store->minNs());
            hi = std::max(hi, lane.store->maxNs());
        }
    if (lo > hi)
        return {0, 0};
    return {lo, hi};
}

} // namespace wb
