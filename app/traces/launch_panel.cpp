#include "traces/launch_panel.h"

#include "analysis/trace_analysis.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "traces/panel_table.h"

namespace wb {

void LaunchPanel::drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const {
    const LaunchStats& l = analysis.launches;
    canvas.paragraph(QString::fromStdString(
        fill(l.unmatched > 0
                 ? "%1 matched to their launch, %2 without one (a kernel is matched through its "
                   "ac2g flow or its correlation id; this trace gives neither for those). "
                   "Outliers: %3, %4, %5."
                 : "%1 matched to their launch, %2 without one. Outliers: %3, %4, %5.",
             {formatCount(l.matched, "kernel", "kernels"), formatNumber(double(l.unmatched)),
              formatCount(l.shortKernels, "short kernel", "short kernels"),
              formatCount(l.longLaunches, "long launch", "long launches"),
              formatCount(l.longDelays, "long delay", "long delays")})));
    const std::vector<AnalysisTable>& t = shownTables();
    const auto perKernel = drawPanelTable(canvas, panelTable(t[0]), 0.55);
    for (std::size_t r = 0; r < perKernel.size(); ++r)
        canvas.addHit(
            PanelHit::onKernel(perKernel[r], QString::fromStdString(l.perKernel[r].name)));
    const auto outliers = drawPanelTable(canvas, panelTable(t[1]));
    for (std::size_t r = 0; r < outliers.size(); ++r)
        canvas.addHit(PanelHit::onKernel(outliers[r], QString::fromStdString(l.outliers[r].name)));
}

} // namespace wb
