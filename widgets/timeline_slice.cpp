#include "timeline_slice.h"

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

void visibleSlice(const TraceStore& store, std::uint32_t track, std::int64_t t0, std::int64_t t1,
                  double widthPx, std::vector<SliceRect>& out) {
    if (t1 <= t0 || widthPx <= 0.0 || track >= store.tracks().size())
        return;
    const auto [first, last] = store.overlapping(track, t0, t1);
    const std::vector<StoredEvent>& events = store.events();
    const double k = widthPx / static_cast<double>(t1 - t0);
    const std::size_t rowBegin = out.size();
    // The open (still growing) merged rectangle of each colour; count 0 = none open.
    std::array<SliceRect, kTimelineColours> open{};
    for (std::uint32_t i = first; i < last; ++i) {
        const StoredEvent& e = events[i];
        if (!overlapsWindow(e, t0, t1))
            continue; // ends before the window: the running max of ends let it into the range
        // Offsets from t0, not absolute times, keep the doubles exact.
        const double x0 = std::max(0.0, static_cast<double>(e.startNs - t0) * k);
        const double x1 = std::min(widthPx, static_cast<double>(e.endNs() - t0) * k);
        const TimelineColour colour = timelineColourOf(e.kind);
        if (x1 - x0 >= 1.0) {
            out.push_back({x0, x1, i, 1, colour});
            continue;
        }
        // Narrow: one pixel wide, kept inside the row's right edge.
        const double nx0 = std::max(0.0, std::min(x0, widthPx - 1.0));
        const double nx1 = std::max(x1, nx0 + 1.0);
        SliceRect& run = open[static_cast<std::size_t>(colour)];
        if (run.count > 0 && nx0 < run.x1) {
            run.x1 = std::max(run.x1, nx1);
            ++run.count;
            continue;
        }
        if (run.count > 0)
            out.push_back(run);
        run = {nx0, nx1, i, 1, colour};
    }
    for (const SliceRect& run : open) {
        if (run.count > 0)
            out.push_back(run);
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
