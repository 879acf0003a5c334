#include "text/legend_layout.h"

#include <QFontMetricsF>
#include <algorithm>

namespace wb {

LegendLayout layoutLegend(const std::vector<LegendEntry>& entries, const QFont& font,
                          double width) {
    LegendLayout out;
    const QFontMetricsF fm(font);
    const double em = fm.height();
    const double box = em * 0.7;
    const double textGap = em * 0.3;
    const double entryGap = em * 0.9;
    double x = 0, y = 0, rowH = 0;
    for (const LegendEntry& e : entries) {
        const double swatch = e.line.style() == Qt::NoPen ? box : em * 1.6;
        const double textRoom = std::max(em, width - swatch - textGap);
        WrappedText block = wrapText(font, e.text, textRoom);
        const double w = swatch + textGap + block.width();
        if (x > 0 && x + w > width) {
            x = 0;
            y += rowH + em * 0.25;
            rowH = 0;
        }
        const double h = std::max(block.height(), box);
        out.swatches.emplace_back(x, y + (fm.height() - box) / 2.0, swatch, box);
        out.texts.emplace_back(x + swatch + textGap, y, block.width(), block.height());
        out.blocks.push_back(std::move(block));
        rowH = std::max(rowH, h);
        x += w + entryGap;
    }
    out.height = entries.empty() ? 0 : y + rowH;
    return out;
}

void drawLegend(QPainter& painter, const QPointF& origin, const LegendLayout& layout,
                const std::vector<LegendEntry>& entries, const QColor& textColour) {
    const std::size_t n = std::min(entries.size(), layout.blocks.size());
    for (std::size_t i = 0; i < n; ++i) {
        const QRectF sw = layout.swatches[i].translated(origin);
        if (entries[i].line.style() == Qt::NoPen) {
            painter.fillRect(sw, entries[i].swatch);
        } else {
            painter.setPen(entries[i].line);
            painter.drawLine(QPointF(sw.left(), sw.center().y()),
                             QPointF(sw.right(), sw.center().y()));
        }
        drawWrapped(painter, layout.texts[i].translated(origin), layout.blocks[i], textColour);
    }
}

} // namespace wb
