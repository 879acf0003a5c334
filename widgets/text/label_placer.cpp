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

} // namespace

LabelPlacer::LabelPlacer(const QRectF& area)
    : m_area(area) {}

void LabelPlacer::addObstacle(const QRectF& box) {
    if (box.isValid())
        m_obstacles.push_back(box);
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
    for (std::size_t ring = 0; ring < distances.size(); ++ring) {
        for (const auto& side : kSides) {
            const QRectF box = boxBeside(mark, size, side[0], side[1], distances[ring]);
            if (isFree(box)) {
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
