#pragma once
// One docked panel of the Traces workspace: the view of one analysis of `warpboard analyze`
// (scenarios/analysis/trace_analysis.h). The workspace computes one TraceAnalysis on a worker
// thread (for the whole job, or the range selected on the timeline) and hands it to every
// panel; a panel only draws what it is given, and exports what it draws: its tables as CSV
// (the same AnalysisTable text `analyze --csv` writes) and its picture through render(),
// which the PNG/SVG exports and `analyze --png/--svg` use at 1920×1080.
#include "analysis/analysis_table.h"
#include "drawing/theme.h"

#include <QRectF>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

class QPainter;

namespace wb {

struct TraceAnalysis;

class AnalysisPanel : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    virtual QString panelId() const = 0; // file stem of its exports: "step_heatmap"
    virtual QString title() const = 0;   // the dock's title: "Step time per rank"

    // What to show; null while nothing is open.
    virtual void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis) = 0;
    // The computation feeding the panel: a fraction in [0, 1] while it runs, a negative value
    // once it is done (or cancelled). The panel shows progress and a Cancel button meanwhile.
    virtual void setProgress(double fraction) = 0;

    // The tables this panel shows, for its CSV export (one file per table, named by its id).
    virtual std::vector<AnalysisTable> tables() const = 0;
    // Draws the panel as exported into `bounds` (any QPaintDevice: QImage, QSvgGenerator).
    virtual void render(QPainter& painter, const QRectF& bounds) const = 0;
    // The colours it draws and exports with (light until set): the workspace passes the app's.
    virtual void setTheme(const Theme& theme) { (void)theme; }

signals:
    // A click on a kernel (kernel breakdown, launch statistics): select its instances.
    void kernelActivated(const QString& kernelName);
    // A click on a rank (heatmap cell, per-rank row, straggler); step -1 when no step.
    void rankActivated(long rank, int step);
    // "Why this verdict?": open the lesson `scenarioId` on the open files.
    void explainRequested(const QString& scenarioId);
    // The Cancel button under the progress bar.
    void cancelRequested();
};

// Every analysis panel, in the order the workspace docks them, parented to `parent`.
std::vector<AnalysisPanel*> makeAnalysisPanels(QWidget* parent);

} // namespace wb
