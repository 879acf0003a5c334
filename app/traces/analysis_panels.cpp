#include "traces/analysis_panel.h"
#include "traces/idle_panel.h"
#include "traces/kernel_panel.h"
#include "traces/launch_panel.h"
#include "traces/per_rank_panel.h"
#include "traces/step_heatmap_panel.h"
#include "traces/straggler_panel.h"
#include "traces/temporal_panel.h"
#include "traces/verdict_panel.h"

namespace wb {

std::vector<AnalysisPanel*> makeAnalysisPanels(QWidget* parent) {
    // The order of `warpboard analyze`'s report, the verdict last as its conclusion.
    return {new PerRankPanel(parent),   new StepHeatmapPanel(parent), new TemporalPanel(parent),
            new IdlePanel(parent),      new KernelPanel(parent),      new LaunchPanel(parent),
            new StragglerPanel(parent), new VerdictPanel(parent)};
}

} // namespace wb
