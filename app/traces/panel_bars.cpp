#include "traces/panel_bars.h"

#include "engine/number_format.h"
#include "text/legend_layout.h"

#include <QFontMetricsF>
#include <algorithm>
#include <numeric>

namespace wb {

std::vector<QRectF> drawStackedBars(PanelCanvas& canvas, const StackedBars& bars,
                                    std::size_t maxRows) {
    QPainter& p = canvas.painter();
    const Theme& theme = canvas.theme();
    const QFont font = canvas.font(TextRole::Label);
    const QFontMetricsF fm(font);
    std::vector<LegendEntry> legend;
    for (std::size_t s = 0; s < bars.series.size(); ++s)
        legend.push_back({QBrush(bars.colours[s]), Qt::NoPen, bars.series[s]});
    const LegendLayout layout = layoutLegend(legend, font, canvas.width());
    drawLegend(p, QPointF(canvas.left(), canvas.y()), layout, legend, theme.foreground);
    canvas.setY(canvas.y() + layout.height + 0.5 * canvas.em());

    const double line = fm.lineSpacing();
    const double gap = 0.8 * line;
    const double minBar = 8.0 * line;
    double labelW = 0.0, noteW = 0.0;
    for (const StackedRow& row : bars.rows) {
        labelW = std::max(labelW, fm.horizontalAdvance(row.label));
        noteW = std::max(noteW, fm.horizontalAdvance(row.note));
    }
    // A page too narrow for label · bar · note puts each note under its bar instead.
    const bool noteBelow = labelW + minBar + noteW + 2 * gap > canvas.width();
    const double rowH = (noteBelow ? 2.7 : 1.5) * line;
    std::size_t shown = std::min(bars.rows.size(), maxRows);
    if (canvas.bounded()) {
        const double room = canvas.remaining() - (shown < bars.rowCount() ? 2 * line : 0.0);
        shown = std::min(shown, static_cast<std::size_t>(std::max(0.0, room / rowH)));
        if (shown < bars.rowCount()) // the "more" line needs its room too
            shown = std::min(shown, static_cast<std::size_t>(
                                        std::max(0.0, (canvas.remaining() - 2 * line) / rowH)));
    }
    // The narrowest layout (note under the bar), whatever this page's width: a dock sized to
    // it can still shrink back to it.
    canvas.needWidth(labelW + gap + std::max(minBar, noteW));
    const double barX = canvas.left() + labelW + gap;
    const double barW = noteBelow ? std::max(minBar, canvas.width() - labelW - gap)
                                  : std::max(minBar, canvas.width() - labelW - noteW - 2 * gap);
    std::vector<QRectF> lanes;
    double y = canvas.y();
    for (std::size_t r = 0; r < shown; ++r) {
        const StackedRow& row = bars.rows[r];
        const double barH = 1.5 * line;
        p.setFont(font);
        p.setPen(theme.foreground);
        p.drawText(QRectF(canvas.left(), y, labelW + 1, barH), Qt::AlignLeft | Qt::AlignVCenter,
                   row.label);
        const QRectF lane(barX, y + 0.2 * line, barW, barH - 0.4 * line);
        const double total = std::accumulate(row.values.begin(), row.values.end(), 0.0);
        const double full = bars.scaleMax > 0.0 ? bars.scaleMax : total;
        p.fillRect(lane, mixColors(theme.background, theme.foreground, 0.06));
        double x = lane.left();
        for (std::size_t s = 0; s < row.values.size() && full > 0.0; ++s) {
            const double w = lane.width() * std::max(0.0, row.values[s]) / full;
            p.fillRect(QRectF(x, lane.top(), w, lane.height()), bars.colours[s]);
            x += w;
        }
        p.setPen(theme.foreground);
        const QRectF noteBox = noteBelow ? QRectF(barX, y + barH, noteW + 1, line)
                                         : QRectF(lane.right() + gap, y, noteW + 1, barH);
        p.drawText(noteBox, Qt::AlignLeft | Qt::AlignVCenter, row.note);
        if (row.rank >= 0)
            canvas.addHit(PanelHit::onRank(
                QRectF(canvas.left(), y, lane.right() - canvas.left(), barH), row.rank));
        lanes.push_back(lane);
        y += rowH;
    }
    canvas.setY(y + 0.3 * line);
    if (shown < bars.rowCount())
        canvas.paragraph(
            QString::fromStdString(formatCount(static_cast<long long>(bars.rowCount() - shown),
                                               "more row", "more rows")) +
                bars.more,
            TextRole::Label, true);
    else
        canvas.space(0.4);
    return lanes;
}

} // namespace wb
