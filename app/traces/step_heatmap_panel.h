#pragma once
// Rank × ProfilerStep heatmap (analysis/step_breakdown.h's per-step figures): one row per
// rank, one column per step, coloured from the smallest to the largest value (a legend in
// ms/µs). Step time, compute or wait in collectives, chosen above the map: in a synchronous
// job the collectives make every rank's step as long as the slowest's, so compute is what
// points at a straggler and wait is what the others pay for it. With more ranks than pixel
// rows, each pixel row shows the largest value of the ranks it covers, so one slow rank in
// 1,024 still shows. Rank labels are spaced so they never touch. A click on a cell selects
// that rank and step (the slowest rank of a pixel row that covers several).
#include "traces/trace_panel.h"

#include <QColor>

class QComboBox;

namespace wb {

enum class HeatMetric { StepTime, Compute, Wait };

class StepHeatmapPanel : public TracePanel {
    Q_OBJECT
public:
    explicit StepHeatmapPanel(QWidget* parent = nullptr);
    QString panelId() const override { return QStringLiteral("step_heatmap"); }
    QString title() const override { return tr("Ranks × ProfilerSteps"); }

    void setMetric(HeatMetric metric);
    HeatMetric metric() const { return m_metric; }
    // The colour of a value at `t` in [0, 1] of the scale (0 the smallest, 1 the largest).
    static QColor heatColour(double t);

protected:
    std::vector<std::string> tableIds() const override { return {"per_step"}; }
    QString subject() const override { return tr("each rank's time in each ProfilerStep"); }
    void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const override;

private:
    HeatMetric m_metric = HeatMetric::Compute;
    QComboBox* m_choice = nullptr;
};

} // namespace wb
