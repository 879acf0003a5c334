#include "lint/layout_lint.h"

#include <algorithm>

namespace wb {

namespace {

// Rounding in layouts and antialiasing make boxes that touch look like they overlap by a
// fraction of a pixel; below these a contact is not a defect.
constexpr double kTolerancePx = 1.0;
constexpr double kMinOverlapPx = 2.0;

// The part of a text box that holds ink: the line box less the empty band above capitals and
// the descender room, so stacked lines and text set tight in a box do not count as collisions.
QRectF inkBox(const QRectF& box) {
    const double trimY = box.height() * 0.2;
    return box.adjusted(kTolerancePx, trimY, -kTolerancePx, -trimY);
}

bool collide(const QRectF& a, const QRectF& b) {
    const QRectF i = a.intersected(b);
    return i.width() >= kMinOverlapPx && i.height() >= kMinOverlapPx;
}

bool inside(const QRectF& inner, const QRectF& outer) {
    return outer.adjusted(-kTolerancePx, -kTolerancePx, kTolerancePx, kTolerancePx).contains(inner);
}

} // namespace

const char* lintKindName(LintKind kind) {
    switch (kind) {
    case LintKind::Elided:
        return "elided";
    case LintKind::BelowFloor:
        return "below_floor";
    case LintKind::Outside:
        return "outside";
    case LintKind::Overlap:
        return "overlap";
    case LintKind::Crosses:
        return "crosses";
    }
    return "unknown";
}

std::vector<LintFinding> lintLayout(const PaintRecord& record, const QRectF& slide,
                                    double floorPx) {
    std::vector<LintFinding> out;
    const auto& texts = record.texts;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const RecordedText& t = texts[i];
        const auto report = [&](LintKind kind) { out.push_back({kind, t.text, t.box}); };
        if (t.text.contains(QChar(0x2026)))
            report(LintKind::Elided);
        if (t.px < floorPx - 0.25)
            report(LintKind::BelowFloor);
        const bool outside = !inside(t.box, slide) || (!t.clip.isNull() && !inside(t.box, t.clip));
        if (outside)
            report(LintKind::Outside);
        const QRectF ink = inkBox(t.box);
        for (std::size_t j = 0; j < i; ++j) {
            const RecordedText& o = texts[j];
            if (o.text == t.text && o.box == t.box)
                continue; // the same run drawn twice (an outline, a repaint)
            if (collide(ink, inkBox(o.box))) {
                report(LintKind::Overlap);
                break;
            }
        }
        if (outside)
            continue; // its view's background would count as crossed too
        // The text's backdrop is the last shape drawn before it that holds all of it (a card,
        // a plate, the view's background); shapes drawn before the backdrop are under it and
        // cannot be seen, so only the backdrop's and later ones count.
        int backdrop = -1;
        for (const RecordedShape& s : record.shapes)
            if (s.order < t.order && s.order > backdrop && inside(ink, s.box))
                backdrop = s.order;
        for (const RecordedShape& s : record.shapes) {
            if (s.order > backdrop && collide(ink, s.box) && !inside(ink, s.box)) {
                report(LintKind::Crosses);
                break;
            }
        }
    }
    return out;
}

} // namespace wb
