#include "timeline/timeline_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb {

TimelineAxis::TimelineAxis(std::int64_t limitStartNs, std::int64_t limitEndNs, double widthPx) {
    m_limitStartNs = limitStartNs;
    // A trace of one instant still needs a window to draw it in.
    m_limitEndNs = std::max(limitEndNs, limitStartNs + kMinSpanNs);
    setWidth(widthPx);
    fitAll();
}

double TimelineAxis::toPx(std::int64_t ns) const {
    return static_cast<double>(ns - m_startNs) * pxPerNs();
}

std::int64_t TimelineAxis::toNs(double px) const {
    return m_startNs + std::llround(px / pxPerNs());
}

void TimelineAxis::setWindow(std::int64_t startNs, std::int64_t endNs) {
    const std::int64_t limitSpan = m_limitEndNs - m_limitStartNs;
    std::int64_t span = std::clamp(endNs - startNs, std::min(kMinSpanNs, limitSpan), limitSpan);
    if (endNs - startNs < span) {
        // Too narrow (or inverted): widen about the requested centre.
        startNs = startNs + (endNs - startNs) / 2 - span / 2;
    }
    startNs = std::clamp(startNs, m_limitStartNs, m_limitEndNs - span);
    m_startNs = startNs;
    m_endNs = startNs + span;
}

void TimelineAxis::zoomAbout(double px, double factor) {
    if (!(factor > 0.0) || !std::isfinite(factor))
        return;
    const double span = static_cast<double>(spanNs());
    const std::int64_t limitSpan = m_limitEndNs - m_limitStartNs;
    const std::int64_t newSpan = std::clamp<std::int64_t>(
        std::llround(span / factor), std::min(kMinSpanNs, limitSpan), limitSpan);
    // Offsets from the window start stay small enough for doubles to be exact to the ns.
    const double anchor = std::clamp(px, 0.0, m_widthPx) / m_widthPx;
    const std::int64_t anchorNs = m_startNs + std::llround(anchor * span);
    const std::int64_t start = anchorNs - std::llround(anchor * static_cast<double>(newSpan));
    setWindow(start, start + newSpan);
}

void TimelineAxis::pan(double px) {
    const std::int64_t shift = std::llround(px / pxPerNs());
    const std::int64_t span = spanNs();
    const std::int64_t start = std::clamp(m_startNs + shift, m_limitStartNs, m_limitEndNs - span);
    m_startNs = start;
    m_endNs = start + span;
}

std::int64_t TimelineAxis::tickStepNs(double minPxBetween) const {
    const double raw = std::max(1.0, minPxBetween / pxPerNs());
    double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (;;) {
        for (const double m : {1.0, 2.0, 5.0}) {
            if (m * power >= raw)
                return std::max<std::int64_t>(1, std::llround(m * power));
        }
        power *= 10.0;
    }
}

std::int64_t TimelineAxis::firstTickNs(std::int64_t stepNs) const {
    const std::int64_t offset = m_startNs - m_limitStartNs;
    // Ceiling division for a non-negative offset (the window never starts before the limit).
    const std::int64_t k = (offset + stepNs - 1) / stepNs;
    return m_limitStartNs + k * stepNs;
}

std::vector<std::int64_t> TimelineAxis::ticks(double minPxBetween) const {
    std::vector<std::int64_t> out;
    const std::int64_t step = tickStepNs(minPxBetween);
    for (std::int64_t t = firstTickNs(step); t <= m_endNs; t += step)
        out.push_back(t);
    return out;
}

std::string TimelineAxis::tickLabel(std::int64_t offsetNs, std::int64_t stepNs) {
    // The unit is the largest whose size is at most 1000 steps (a 20 µs step labels in ms
    // with two decimals), and the decimals are those the step needs, so neighbouring labels
    // always differ.
    struct Unit {
        std::int64_t ns;
        const char* name;
    };
    static constexpr Unit kUnits[] = {
        {1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "µs"}, {1, "ns"}};
    const std::int64_t step = std::max<std::int64_t>(1, stepNs);
    Unit unit = kUnits[3];
    for (const Unit& u : kUnits) {
        if (u.ns <= step * 1000) {
            unit = u;
            break;
        }
    }
    int decimals = 0;
    for (std::int64_t scale = unit.ns; scale > step && decimals < 9; scale /= 10)
        ++decimals;
    const double value = static_cast<double>(offsetNs) / static_cast<double>(unit.ns);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string out(buf);
    out += ' ';
    out += unit.name;
    return out;
}

} // namespace wb
