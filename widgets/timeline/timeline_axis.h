#pragma once
// The time ↔ pixel mapping of the timeline: a window [startNs, endNs) of integer nanoseconds
// drawn across `widthPx` pixels, zoomed about a point, panned and clamped to the trace's
// limits, with a 1/2/5 × 10^k tick step. No Qt: the maths is tested on its own.
//
// Times stay int64: Kineto clocks are ~1.7e18 ns, where a double resolves only ~256 ns, so
// pixels are computed from the offset to the window start, never from absolute times.
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

class TimelineAxis {
public:
    // The narrowest window zooming reaches: below ~1 ns per 10 pixels nothing new shows.
    static constexpr std::int64_t kMinSpanNs = 100;

    TimelineAxis() = default;
    // Limits are the whole trace; the window starts as all of it.
    TimelineAxis(std::int64_t limitStartNs, std::int64_t limitEndNs, double widthPx);

    void setWidth(double widthPx) { m_widthPx = widthPx > 1.0 ? widthPx : 1.0; }
    double width() const { return m_widthPx; }
    std::int64_t startNs() const { return m_startNs; }
    std::int64_t endNs() const { return m_endNs; }
    std::int64_t spanNs() const { return m_endNs - m_startNs; }
    std::int64_t limitStartNs() const { return m_limitStartNs; }
    std::int64_t limitEndNs() const { return m_limitEndNs; }
    double pxPerNs() const { return m_widthPx / static_cast<double>(spanNs()); }

    // Pixel (from the window's left edge) of a time, and back; toNs rounds to the nearest ns.
    double toPx(std::int64_t ns) const;
    std::int64_t toNs(double px) const;

    // Shows [startNs, endNs), clamped into the limits; a window narrower than kMinSpanNs
    // (or inverted) widens about its centre.
    void setWindow(std::int64_t startNs, std::int64_t endNs);
    void fitAll() { setWindow(m_limitStartNs, m_limitEndNs); }
    // factor > 1 zooms in; the time under `px` stays under `px` (unless a limit clamps).
    void zoomAbout(double px, double factor);
    // Moves the window by `px` pixels (positive: later times come into view), clamped.
    void pan(double px);

    // A tick step of 1, 2 or 5 × 10^k ns leaving at least `minPxBetween` pixels between ticks.
    std::int64_t tickStepNs(double minPxBetween) const;
    // The first multiple of `stepNs` (counted from the limit start) at or after the window.
    std::int64_t firstTickNs(std::int64_t stepNs) const;
    // Every tick inside the window at tickStepNs(minPxBetween).
    std::vector<std::int64_t> ticks(double minPxBetween) const;
    // A tick's label: `offsetNs` from the trace start, with as many decimals as `stepNs`
    // needs ("1.25 ms", "40 µs"), in decimal SI units.
    static std::string tickLabel(std::int64_t offsetNs, std::int64_t stepNs);

private:
    std::int64_t m_limitStartNs = 0;
    std::int64_t m_limitEndNs = 1;
    std::int64_t m_startNs = 0;
    std::int64_t m_endNs = 1;
    double m_widthPx = 1.0;
};

} // namespace wb
