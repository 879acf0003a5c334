#pragma once
// The kernel breakdown (analysis/kernel_breakdown.h): GPU time by type (computation,
// communication, memory, in the timeline's colours) and the kernels that took the most of
// it with count, mean, p50 and p99. A click on a kernel selects its instances on the timeline.
#include "traces/trace_panel.h"

namespace wb {

class KernelPanel : public TracePanel {
    Q_OBJECT
public:
    using TracePanel::TracePanel;
    QString panelId() const override { return QStringLiteral("kernels"); }
    QString title() const override { return tr("Kernel breakdown"); }

protected:
    std::vector<std::string> tableIds() const override { return {"kernel_types", "top_kernels"}; }
    QString subject() const override { return tr("which kernels took the GPU time"); }
    void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const override;
    bool heldInSummary() const override { return false; }
};

} // namespace wb
