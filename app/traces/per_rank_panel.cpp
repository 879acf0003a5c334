#include "traces/per_rank_panel.h"

#include "analysis/trace_analysis.h"
#include "traces/panel_table.h"

namespace wb {

void PerRankPanel::drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const {
    const std::vector<AnalysisTable>& t = shownTables();
    // The ranks first, in at most 40 % of an export's page, so the steps get the rest.
    const auto rankRows = drawPanelTable(canvas, panelTable(t[0]), 0.4);
    for (std::size_t r = 0; r < rankRows.size(); ++r)
        canvas.addHit(PanelHit::onRank(rankRows[r], analysis.perRank[r].whole.rank));
    // per_step's rows follow perRank's steps in order (TraceAnalysis::tables).
    std::vector<std::pair<long, int>> stepOf;
    for (const RankBreakdown& r : analysis.perRank)
        for (const StepFigures& s : r.steps)
            stepOf.emplace_back(r.whole.rank, static_cast<int>(s.step.number));
    const auto stepRows = drawPanelTable(canvas, panelTable(t[1]));
    for (std::size_t r = 0; r < stepRows.size(); ++r)
        canvas.addHit(PanelHit::onRank(stepRows[r], stepOf[r].first, stepOf[r].second));
}

} // namespace wb
