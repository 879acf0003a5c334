#include "timeline/timeline_slice.h"

#include <algorithm>
#include <array>

namespace wb {

TimelineColour timelineColourOf(EventKind kind) {
    switch (kind) {
    case EventKind::Kernel:
        return TimelineColour::Compute;
    case EventKind::CommKernel:
        return TimelineColour::Comm;
    case EventKind::Memcpy:
    case EventKind::Memset:
        return TimelineColour::Memory;
    case EventKind::Runtime:
    case EventKind::CpuOp:
    case EventKind::Annotation:
    case EventKind::Other:
        break;
    }
    return TimelineColour::Host;
}

bool isDeviceKind(EventKind kind) {
    return kind == EventKind::Kernel || kind == EventKind::CommKernel ||
           kind == EventKind::Memcpy || kind == EventKind::Memset;
}

namespace {

// timelineColourOf as a table: the slicing loop meets kinds in random order, and a switch
// compiled to a jump table mispredicts on nearly every event.
constexpr std::array<TimelineColour, 256> kColourOfKind = [] {
    std::array<TimelineColour, 256> table{};
    table.fill(TimelineColour::Host);
    table[static_cast<std::size_t>(EventKind::Kernel)] = TimelineColour::Compute;
    table[static_cast<std::size_t>(EventKind::CommKernel)] = TimelineColour::Comm;
    table[static_cast<std::size_t>(EventKind::Memcpy)] = TimelineColour::Memory;
    table[static_cast<std::size_t>(EventKind::Memset)] = TimelineColour::Memory;
    return table;
}();

} // namespace

void visibleSlice(const TraceStore& store, std::uint32_t track, std::int64_t t0, std::int64_t t1,
                  double widthPx, std::vector<SliceRect>& out) {
    if (t1 <= t0 || widthPx <= 0.0 || track >= store.tracks().size())
        return;
    const auto [first, last] = store.overlapping(track, t0, t1);
    const StoredEvent* events = store.events().data();
    const double k = widthPx / static_cast<double>(t1 - t0);
    const double lastColumn = std::max(0.0, widthPx - 1.0);
    const std::size_t rowBegin = out.size();
    // The open (still growing) merged run of each colour, kept in plain locals so the hot
    // loop (a million events when zoomed out) stays in registers: its left edge, right edge,
    // first event and count (0 = none open).
    std::array<double, kTimelineColours> runX0{};
    std::array<double, kTimelineColours> runX1{};
    std::array<std::uint32_t, kTimelineColours> runFirst{};
    std::array<std::uint32_t, kTimelineColours> runCount{};
    for (std::uint32_t i = first; i < last; ++i) {
        const StoredEvent& e = events[i];
        // Offsets from t0, not absolute times, keep the doubles exact. Every event of the
        // range starts before t1; overlapsWindow's other half: a slice must end after t0,
        // an instant must not start before it (the running max of ends let these in).
        const std::int64_t rs = e.startNs - t0;
        const std::int64_t re = rs + e.durNs;
        if (e.durNs > 0 ? re <= 0 : rs < 0)
            continue;
        const double x0 = rs > 0 ? static_cast<double>(rs) * k : 0.0;
        const double x1 = std::min(widthPx, static_cast<double>(re) * k);
        const TimelineColour colour = kColourOfKind[static_cast<std::size_t>(e.kind)];
        if (x1 - x0 >= 1.0) {
            out.push_back({x0, x1, i, 1, colour});
            continue;
        }
        // Narrow: one pixel wide, kept inside the row's right edge.
        const double nx0 = std::min(x0, lastColumn);
        const double nx1 = std::max(x1, nx0 + 1.0);
        const auto c = static_cast<std::size_t>(colour);
        if (runCount[c] > 0 && nx0 < runX1[c]) {
            runX1[c] = std::max(runX1[c], nx1);
            ++runCount[c];
            continue;
        }
        if (runCount[c] > 0)
            out.push_back({runX0[c], runX1[c], runFirst[c], runCount[c], colour});
        runX0[c] = nx0;
        runX1[c] = nx1;
        runFirst[c] = i;
        runCount[c] = 1;
    }
    for (std::size_t c = 0; c < runCount.size(); ++c) {
        if (runCount[c] > 0)
            out.push_back(
                {runX0[c], runX1[c], runFirst[c], runCount[c], static_cast<TimelineColour>(c)});
    }
    // Narrow runs were appended when they closed, after wide events that started later.
    std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(rowBegin), out.end(),
                     [](const SliceRect& a, const SliceRect& b) {
                         return a.x0 < b.x0 || (a.x0 == b.x0 && a.event < b.event);
                     });
}

std::optional<std::uint32_t> eventNear(const TraceStore& store, std::uint32_t track, std::int64_t t,
                                       std::int64_t toleranceNs) {
    if (track >= store.tracks().size())
        return std::nullopt;
    const auto [first, last] = store.overlapping(track, t - toleranceNs, t + toleranceNs + 1);
    std::optional<std::uint32_t> containing;
    std::optional<std::uint32_t> nearest;
    std::int64_t nearestGap = 0;
    for (std::uint32_t i = first; i < last; ++i) {
        const StoredEvent& e = store.events()[i];
        if (e.startNs <= t && t < std::max(e.endNs(), e.startNs + 1)) {
            containing = i; // later starts are nested deeper
            continue;
        }
        const std::int64_t gap = e.startNs > t ? e.startNs - t : t - e.endNs();
        if (gap <= toleranceNs && (!nearest || gap < nearestGap)) {
            nearest = i;
            nearestGap = gap;
        }
    }
    return containing ? containing : nearest;
}

} // namespace wb
