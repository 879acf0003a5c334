#pragma once
// Legends that wrap: entries flow left to right and start a new row when the next one does not
// fit; an entry wider than the whole legend wraps its own text. No entry is ever dropped or cut,
// so the caller reserves height() before laying out the plot.
#include "text/text_layout.h"

#include <QBrush>
#include <QFont>
#include <QPainter>
#include <QPen>
#include <QRectF>
#include <QString>
#include <vector>

namespace wb {

struct LegendEntry {
    QBrush swatch;         // a colour, or a pattern (a hatched bubble)
    QPen line = Qt::NoPen; // a chart series: its pen drawn as a short line instead
    QString text;
};

struct LegendLayout {
    std::vector<QRectF> swatches; // relative to the legend's top-left
    std::vector<QRectF> texts;
    std::vector<WrappedText> blocks;
    double height = 0;
};

// Lays out `entries` in `font` within `width` pixels.
LegendLayout layoutLegend(const std::vector<LegendEntry>& entries, const QFont& font, double width);

// Draws a layout made by layoutLegend with its top-left at `origin`.
void drawLegend(QPainter& painter, const QPointF& origin, const LegendLayout& layout,
                const std::vector<LegendEntry>& entries, const QColor& textColour);

} // namespace wb
