#include "topology/chunk_cell.h"

#include <QPainterPath>
#include <algorithm>
#include <bit>

namespace wb {

namespace {

constexpr int kMaxRanks = 64;

void paintComplete(QPainter& painter, const QRectF& rect, const Theme& theme) {
    const double radius = rect.width() * 0.18;
    // Neutral, not a hue: rank colours cover the whole colour wheel, so any hue here would be
    // confused with some rank's data. Solid foreground with a check stands apart from all.
    painter.setPen(Qt::NoPen);
    painter.setBrush(theme.foreground);
    painter.drawRoundedRect(rect, radius, radius);
    // A check mark says "done" without relying on colour alone.
    QPainterPath check;
    check.moveTo(rect.left() + rect.width() * 0.24, rect.top() + rect.height() * 0.54);
    check.lineTo(rect.left() + rect.width() * 0.43, rect.top() + rect.height() * 0.72);
    check.lineTo(rect.left() + rect.width() * 0.77, rect.top() + rect.height() * 0.30);
    QPen tick(theme.background, std::max(1.5, rect.width() * 0.14), Qt::SolidLine, Qt::RoundCap,
              Qt::RoundJoin);
    painter.setPen(tick);
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(check);
}

void paintStripes(QPainter& painter, const QRectF& rect, ContributorMask mask, int ranks,
                  const Theme& theme) {
    const double radius = rect.width() * 0.18;
    QPainterPath shape;
    shape.addRoundedRect(rect, radius, radius);
    painter.save();
    painter.setClipPath(shape, Qt::IntersectClip);
    painter.fillRect(rect, theme.background);
    const int count = std::popcount(mask);
    const double stripe = rect.width() / std::max(count, 1);
    int drawn = 0;
    for (int r = 0; r < std::min(ranks, kMaxRanks); ++r) {
        if ((mask >> r) & 1U) {
            // Stripes overlap by a pixel so no background hairline shows between them.
            const QRectF s(rect.left() + drawn * stripe, rect.top(), stripe + 1.0, rect.height());
            painter.fillRect(s, theme.rankColor(r, ranks));
            ++drawn;
        }
    }
    painter.restore();
    QPen outline(theme.grid, theme.lineWidth(1.0));
    if (mask == 0) {
        outline.setStyle(Qt::DashLine); // nothing held yet: an empty slot
        outline.setColor(theme.muted);
    }
    painter.setPen(outline);
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(rect, radius, radius);
}

} // namespace

ContributorMask fullMask(int ranks) {
    if (ranks <= 0) {
        return 0;
    }
    if (ranks >= kMaxRanks) {
        return ~ContributorMask{0};
    }
    return (ContributorMask{1} << ranks) - 1;
}

bool isComplete(ContributorMask mask, int ranks) {
    return ranks > 0 && (mask & fullMask(ranks)) == fullMask(ranks);
}

void paintChunkCell(QPainter& painter, const QRectF& rect, ContributorMask mask, int ranks,
                    const Theme& theme) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    if (isComplete(mask, ranks)) {
        paintComplete(painter, rect, theme);
    } else {
        paintStripes(painter, rect, mask, ranks, theme);
    }
    painter.restore();
}

} // namespace wb
