#pragma once
// Reads a recorded slide the way a viewer would and names what cannot be read: text cut with
// an ellipsis, text under the slide's floor size, text outside the slide or its view's clip,
// text boxes on top of each other, and text straddling the edge of a filled shape (a bar, a
// node) so part of it sits on the shape and part off it. Drawing order counts for the last
// one: a shape under the text's own backdrop (a plate, a card) is hidden by it and ignored.
#include "lint/paint_recorder.h"

#include <QRectF>
#include <QString>
#include <vector>

namespace wb {

enum class LintKind { Elided, BelowFloor, Outside, Overlap, Crosses };

// "elided", "below_floor", "outside", "overlap", "crosses": the JSON names.
const char* lintKindName(LintKind kind);

struct LintFinding {
    LintKind kind;
    QString text;
    QRectF box;
};

// The findings for one recorded slide of `slide` bounds whose smallest allowed text is
// `floorPx` pixels. Each text gives at most one finding of each kind; an overlap is reported
// once, on the text drawn later.
std::vector<LintFinding> lintLayout(const PaintRecord& record, const QRectF& slide, double floorPx);

} // namespace wb
