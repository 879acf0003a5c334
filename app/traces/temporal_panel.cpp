#include "traces/temporal_panel.h"

#include "analysis/trace_analysis.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "traces/panel_bars.h"
#include "traces/panel_table.h"

namespace wb {

void TemporalPanel::drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const {
    canvas.paragraph(tr("Shares of each rank's GPU window (first to last GPU activity); "
                        "non-compute is communication and memory work nothing computing hid."),
                     TextRole::Label, true);
    const Theme& theme = canvas.theme();
    StackedBars bars;
    bars.series = {tr("idle"), tr("compute"), tr("non-compute")};
    bars.colours = {mixColors(theme.muted, theme.background, 0.35), theme.seriesColor(0),
                    theme.seriesColor(1)};
    bars.more = tr(" (all in temporal_breakdown.csv)");
    // Only the rows a page can show are made; the count of the rest is all the bars need.
    bars.totalRows = analysis.temporal.size();
    for (std::size_t i = 0; i < std::min(analysis.temporal.size(), kDockedTableRows); ++i) {
        const TemporalBreakdown& b = analysis.temporal[i];
        StackedRow row;
        row.label = QString::fromStdString(fill("rank %1", {std::to_string(b.rank)}));
        row.values = {b.idleUs, b.computeUs, b.nonComputeUs};
        row.note = QString::fromStdString(
            fill("idle %1 · compute %2 · non-compute %3 of %4",
                 {formatPercent(b.idlePct), formatPercent(b.computePct),
                  formatPercent(b.nonComputePct), formatSi(b.windowUs * 1e-6, "s", 4)}));
        row.rank = b.rank;
        bars.rows.push_back(std::move(row));
    }
    drawStackedBars(canvas, bars, kDockedTableRows);
}

} // namespace wb
