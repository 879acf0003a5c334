#pragma once
// HTA's idle-time breakdown (analysis/idle_breakdown.h): per GPU stream, its idle time split
// into host wait (the GPU waited for the CPU), kernel wait (work was queued behind other GPU
// work) and other (no launch matched), drawn on one scale so streams compare by length.
#include "traces/trace_panel.h"

namespace wb {

class IdlePanel : public TracePanel {
    Q_OBJECT
public:
    using TracePanel::TracePanel;
    QString panelId() const override { return QStringLiteral("idle"); }
    QString title() const override { return tr("Idle time per stream"); }

protected:
    std::vector<std::string> tableIds() const override { return {"idle_breakdown"}; }
    QString subject() const override { return tr("why each GPU stream sat idle"); }
    void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const override;
    bool heldInSummary() const override { return false; }
};

} // namespace wb
