#include "text/label_placer.h"

#include <QFontMetricsF>
#include <algorithm>
#include <array>
#include <cmath>

namespace wb {

namespace {

// A box of `size` on side (dx, dy) of `mark` at distance `gap`: dx, dy in {-1, 0, 1}, where 0
// centres the box on the mark along that axis.
QRectF boxBeside(const QRectF& mark, const QSizeF& size, int dx, int dy, double gap) {
    double x = mark.center().x() - size.width() / 2.0;
    double y = mark.center().y() - size.height() / 2.0;
    if (dx > 0)
        x = mark.right() + gap;
    else if (dx < 0)
        x = mark.left() - gap - size.width();
    if (dy > 0)
        y = mark.bottom() + gap;
    else if (dy < 0)
        y = mark.top() - gap - size.height();
    return QRectF(QPointF(x, y), size);
}

QPointF nearestPoint(const QRectF& box, const QPointF& p) {
    return {std::clamp(p.x(), box.left(), box.right()), std::clamp(p.y(), box.top(), box.bottom())};
}

double distance(const QRectF& a, const QRectF& b) {
    const double dx = std::max({0.0, a.left() - b.right(), b.left() - a.right()});
    const double dy = std::max({0.0, a.top() - b.bottom(), b.top() - a.bottom()});
    return std::hypot(dx, dy);
}

} // namespace

LabelPlacer::LabelPlacer(const QRectF& area)
    : m_area(area) {}

void LabelPlacer::addObstacle(const QRectF& box) {
    if (box.isValid())
        m_obstacles.push_back(box);
}

void LabelPlacer::addMark(const QRectF& box) {
    if (!box.isValid())
        return;
    m_obstacles.push_back(box);
    m_marks.push_back(box);
}

// How far a reader would place a label from a mark: the gap between them, plus half the
// distance between their centres (a label centred over another mark reads as that one's, even
// when its edge is as close to its own).
double LabelPlacer::readingDistance(const QRectF& box, const QRectF& mark) {
    const QPointF d = box.center() - mark.center();
    return distance(box, mark) + 0.5 * std::hypot(d.x(), d.y());
}

bool LabelPlacer::nearerAnotherMark(const QRectF& box, const QRectF& own) const {
    const double mine = readingDistance(box, own);
    return std::any_of(m_marks.begin(), m_marks.end(), [&](const QRectF& m) {
        return m != own && readingDistance(box, m) <= mine + 0.5;
    });
}

bool LabelPlacer::isFree(const QRectF& box) const {
    // A hair of tolerance so labels that merely touch the area's edge still count as inside.
    if (!m_area.adjusted(-0.5, -0.5, 0.5, 0.5).contains(box))
        return false;
    return std::none_of(m_obstacles.begin(), m_obstacles.end(),
                        [&](const QRectF& o) { return o.intersects(box); });
}

LabelPlacement LabelPlacer::place(const QSizeF& size, const QRectF& mark, double gap) {
    // Right and above first (how charts are read), then the other sides, then the corners.
    static constexpr std::array<std::array<int, 2>, 8> kSides{
        {{1, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, -1}, {-1, 1}}};
    LabelPlacement out;
    out.anchor = mark.center();
    const double g = std::max(0.0, gap);
    // Beside the mark, then two rings farther out with a leader line back to it.
    const std::array<double, 3> distances{g, g + size.height() * 1.5, g + size.height() * 3.0};
    // A box that pokes out of the area slides back in along the side it sits on (a label
    // above a mark at the plot's right edge ends at the edge), unless that covers the mark.
    const auto candidate = [&](std::size_t ring, const std::array<int, 2>& side) {
        QRectF box = boxBeside(mark, size, side[0], side[1], distances[ring]);
        if (side[1] != 0 && side[0] == 0 && box.width() <= m_area.width())
            box.moveLeft(std::clamp(box.left(), m_area.left(), m_area.right() - box.width()));
        if (side[0] != 0 && side[1] == 0 && box.height() <= m_area.height())
            box.moveTop(std::clamp(box.top(), m_area.top(), m_area.bottom() - box.height()));
        return box.intersects(mark) || box.contains(mark.center()) ? QRectF() : box;
    };
    // First only where the label is unmistakably its mark's; failing that, anywhere free, the
    // leader line saying which mark it names, and beside the mark only as the last resort.
    constexpr std::array<std::size_t, 3> kStrictRings{0, 1, 2};
    constexpr std::array<std::size_t, 3> kLooseRings{1, 2, 0};
    for (const bool strict : {true, false}) {
        for (const std::size_t ring : strict ? kStrictRings : kLooseRings) {
            for (const auto& side : kSides) {
                const QRectF box = candidate(ring, side);
                if (box.isNull() || !isFree(box) || (strict && nearerAnotherMark(box, mark)))
                    continue;
                out.box = box;
                out.placed = true;
                out.leader = ring > 0;
                m_obstacles.push_back(box);
                return out;
            }
        }
    }
    return out;
}

void drawPlacedLabel(QPainter& painter, const LabelPlacement& placement, const QFont& font,
                     const QColor& textColour, const QColor& leaderColour, const QString& text) {
    if (!placement.placed)
        return;
    painter.save();
    if (placement.leader) {
        painter.setPen(QPen(leaderColour, 1.0));
        painter.drawLine(placement.anchor, nearestPoint(placement.box, placement.anchor));
    }
    painter.setFont(font);
    painter.setPen(textColour);
    const QFontMetricsF fm(font);
    painter.drawText(QPointF(placement.box.left(), placement.box.top() + fm.ascent()), text);
    painter.restore();
}

} // namespace wb
