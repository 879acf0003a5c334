#pragma once
// What one timeline row draws for a time window: the events of a track that overlap the
// window, found by binary search (TraceStore::overlapping), turned into pixel rectangles, with
// sub-pixel neighbours merged the way Qt Creator's tracing does (neighbours closer than a
// pixel become one rectangle), so a row never draws more than about one rectangle per pixel
// column per colour however many events it holds. No Qt: tested as plain maths.
#include "import/trace_store.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace wb {

// The colours the timeline tells apart; several EventKinds share one.
enum class TimelineColour : std::uint8_t {
    Compute, // Kernel
    Comm,    // CommKernel (NCCL/RCCL)
    Memory,  // Memcpy, Memset
    Host,    // Runtime, CpuOp, Annotation, Other: muted
};
constexpr int kTimelineColours = 4;
TimelineColour timelineColourOf(EventKind kind);
// A GPU stream holds device work; everything else is a CPU thread.
bool isDeviceKind(EventKind kind);

// Whether `e` overlaps [t0, t1): a slice must end after t0 (touching t0 is not overlapping);
// an instant (durNs 0) must lie in [t0, t1).
inline bool overlapsWindow(const StoredEvent& e, std::int64_t t0, std::int64_t t1) {
    if (e.startNs >= t1)
        return false;
    return e.durNs > 0 ? e.endNs() > t0 : e.startNs >= t0;
}

struct SliceRect {
    double x0 = 0.0;         // pixels from the window's left edge, clipped to [0, width]
    double x1 = 0.0;         // at least 1 px right of x0 (narrow events widen to one pixel)
    std::uint32_t event = 0; // the first event merged into it (index into events())
    std::uint32_t count = 0; // events merged into it
    TimelineColour colour = TimelineColour::Compute;
    bool operator==(const SliceRect&) const = default;
};

// Appends to `out` the rectangles for `track`'s events overlapping [t0, t1) drawn over
// `widthPx` pixels, ordered by x0 (ties: in the order found, so parents before children).
// An event at least one pixel wide gets its own rectangle; narrower ones widen to one pixel
// and merge with the open rectangle of their colour when they start before it ends.
void visibleSlice(const TraceStore& store, std::uint32_t track, std::int64_t t0, std::int64_t t1,
                  double widthPx, std::vector<SliceRect>& out);

// The event of `track` under time `t`, within `toleranceNs` either side: the latest-starting
// event containing t (the innermost when nested), else the nearest one; nullopt if none.
std::optional<std::uint32_t> eventNear(const TraceStore& store, std::uint32_t track, std::int64_t t,
                                       std::int64_t toleranceNs);

} // namespace wb
