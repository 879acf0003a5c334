#pragma once
// Kernel launch statistics (analysis/launch_stats.h): CPU launch time, GPU time and launch
// delay per kernel, and the launches HTA's three rules flag, worst first. A click on a
// kernel selects its instances on the timeline.
#include "traces/trace_panel.h"

namespace wb {

class LaunchPanel : public TracePanel {
    Q_OBJECT
public:
    using TracePanel::TracePanel;
    QString panelId() const override { return QStringLiteral("launch_stats"); }
    QString title() const override { return tr("Kernel launch statistics"); }

protected:
    std::vector<std::string> tableIds() const override {
        return {"launch_per_kernel", "launch_outliers"};
    }
    QString subject() const override { return tr("how long kernels took to launch"); }
    void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const override;
    bool heldInSummary() const override { return false; }
};

} // namespace wb
