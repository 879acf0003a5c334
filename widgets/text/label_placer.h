#pragma once
// Places labels next to the marks they name without covering each other, other marks or the
// plot edge. Each label tries the positions around its mark, then positions farther out joined
// by a leader line; if none is free it is not drawn and the caller keeps its text in the hover
// tip. Labels are never shrunk: the font is the caller's, from the type scale.
#include <QColor>
#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <vector>

namespace wb {

struct LabelPlacement {
    QRectF box;     // where the text goes (valid only when placed)
    QPointF anchor; // the point of the mark the leader line starts from
    bool placed = false;
    bool leader = false; // drawn away from the mark, joined to it by a line
};

class LabelPlacer {
public:
    // Labels stay inside `area` (the plot, the view).
    explicit LabelPlacer(const QRectF& area);

    // Something labels must not cover: a bar, a node, a title already drawn.
    void addObstacle(const QRectF& box);

    // A mark that gets a label (a marker dot): an obstacle, and a label set right beside
    // another mark is refused as ambiguous (the reader would pin it on the nearer mark).
    void addMark(const QRectF& box);

    // A label of `size` for the mark covering `mark` (a point is an empty rect), `gap` pixels
    // from it. Earlier labels win: place the important ones first. A placed label becomes an
    // obstacle for the next.
    LabelPlacement place(const QSizeF& size, const QRectF& mark, double gap);

    const std::vector<QRectF>& obstacles() const { return m_obstacles; }

private:
    bool isFree(const QRectF& box) const;
    static double readingDistance(const QRectF& box, const QRectF& mark);
    bool nearerAnotherMark(const QRectF& box, const QRectF& own) const;

    QRectF m_area;
    std::vector<QRectF> m_obstacles;
    std::vector<QRectF> m_marks;
};

// Draws a placed label: its text in `font` and, for a leader placement, a thin line from the
// mark to the nearest point of the box. Draws nothing for a label that was not placed.
void drawPlacedLabel(QPainter& painter, const LabelPlacement& placement, const QFont& font,
                     const QColor& textColour, const QColor& leaderColour, const QString& text);

} // namespace wb
