#pragma once
// HTA's temporal breakdown per rank (analysis/temporal_breakdown.h): each rank's GPU window
// split into idle, compute and non-compute, as a stacked bar with the shares written beside
// it. A click on a rank selects it on the timeline.
#include "traces/trace_panel.h"

namespace wb {

class TemporalPanel : public TracePanel {
    Q_OBJECT
public:
    using TracePanel::TracePanel;
    QString panelId() const override { return QStringLiteral("temporal"); }
    QString title() const override { return tr("Temporal breakdown per rank"); }

protected:
    std::vector<std::string> tableIds() const override { return {"temporal_breakdown"}; }
    QString subject() const override { return tr("how each GPU spent its time"); }
    void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const override;
};

} // namespace wb
