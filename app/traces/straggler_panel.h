#pragma once
// Straggler candidates (analysis/straggler_candidates.h): each rank's compute per step against
// the ranks' median and the robust threshold, the candidates with their evidence (their wait
// in collectives against the others'). A click on a rank selects it on the timeline.
#include "traces/trace_panel.h"

namespace wb {

class StragglerPanel : public TracePanel {
    Q_OBJECT
public:
    using TracePanel::TracePanel;
    QString panelId() const override { return QStringLiteral("stragglers"); }
    QString title() const override { return tr("Straggler candidates"); }

protected:
    std::vector<std::string> tableIds() const override { return {"stragglers"}; }
    QString subject() const override { return tr("which rank holds the others back"); }
    void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const override;
};

} // namespace wb
