#include "traces/straggler_panel.h"

#include "analysis/trace_analysis.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "traces/panel_table.h"

#include <algorithm>
#include <numeric>

namespace wb {

void StragglerPanel::drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const {
    const StragglerCandidates& s = analysis.stragglers;
    canvas.paragraph(QString::fromStdString(
        fill("Median compute per step over the ranks: %1 µs; a candidate computes more than "
             "%2 µs per step.",
             {formatSignificant(s.medianComputeUs, 4), formatSignificant(s.thresholdUs, 4)})));
    if (s.candidates.empty())
        canvas.paragraph(tr("No rank's compute per step stands out."));
    for (const std::string& line : s.evidence)
        canvas.paragraph(QString::fromStdString(line), TextRole::Body);
    // The candidates first, so a page that ends before rank 1,023 still shows them; the
    // CSV keeps the report's rank order.
    PanelTable table = panelTable(shownTables().front());
    std::vector<std::size_t> order(table.rows.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_partition(order.begin(), order.end(),
                          [&s](std::size_t i) { return s.ranks[i].candidate; });
    std::vector<std::vector<QString>> rows;
    for (const std::size_t i : order)
        rows.push_back(table.rows[i]);
    table.rows = std::move(rows);
    const auto boxes = drawPanelTable(canvas, table);
    for (std::size_t r = 0; r < boxes.size(); ++r)
        canvas.addHit(PanelHit::onRank(boxes[r], s.ranks[order[r]].rank));
}

} // namespace wb
