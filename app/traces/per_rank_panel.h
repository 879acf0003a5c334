#pragma once
// Per rank and per ProfilerStep: compute, communication, exposed communication, overlap %,
// idle, wait in collectives and step time (analysis/step_breakdown.h), as the tables
// `analyze` prints. A click on a row selects that rank (and step) on the timeline.
#include "traces/trace_panel.h"

namespace wb {

class PerRankPanel : public TracePanel {
    Q_OBJECT
public:
    using TracePanel::TracePanel;
    QString panelId() const override { return QStringLiteral("per_rank"); }
    QString title() const override { return tr("Per rank and per ProfilerStep"); }

protected:
    std::vector<std::string> tableIds() const override { return {"per_rank", "per_step"}; }
    QString subject() const override {
        return tr("each rank's compute, communication and idle time");
    }
    void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const override;
};

} // namespace wb
