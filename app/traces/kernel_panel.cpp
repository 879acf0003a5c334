#include "traces/kernel_panel.h"

#include "analysis/trace_analysis.h"
#include "engine/number_format.h"
#include "traces/panel_bars.h"
#include "traces/panel_table.h"

namespace wb {

void KernelPanel::drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const {
    const KernelBreakdown& k = analysis.kernels;
    // One bar of the three types' shares, coloured as the timeline colours kernels.
    StackedBars bars;
    StackedRow all;
    all.label = tr("all ranks");
    QString note;
    for (const KernelTypeTime& t : k.byType) {
        const int series = t.type == "communication" ? 1 : (t.type == "memory" ? 2 : 0);
        bars.series.push_back(QString::fromStdString(t.type));
        bars.colours.push_back(canvas.theme().seriesColor(series));
        all.values.push_back(t.totalUs);
        note += (note.isEmpty() ? QString() : QStringLiteral(" · ")) +
                QString::fromStdString(t.type + " " + formatPercent(t.pct));
    }
    all.note = note;
    bars.rows.push_back(all);
    drawStackedBars(canvas, bars, 1);
    const std::vector<AnalysisTable>& t = shownTables();
    drawPanelTable(canvas, panelTable(t[0]));
    const auto rows = drawPanelTable(canvas, panelTable(t[1]));
    for (std::size_t r = 0; r < rows.size(); ++r)
        canvas.addHit(PanelHit::onKernel(rows[r], QString::fromStdString(k.top[r].name)));
}

} // namespace wb
