#pragma once
// The Traces workspace: the user's own profiler traces as a place of their own rather than a
// step inside a lesson. The full-size timeline of every rank (one lane "rank N" each, the
// triage's straggler emphasised) is the centre; every analysis panel (makeAnalysisPanels)
// is a dock around it, and the comparison with a second set ("after") a dock that appears
// with it, its timeline below the first and aligned to it. One TraceAnalysis, computed on a
// worker thread (AnalysisJob), feeds every panel; a range selected on the timeline re-scopes
// it. A QMainWindow used as a child widget so the panels dock, move, tabify and float, and
// saveState()/restoreState() keep their layout by the docks' object names ("panel_<id>").
// A job summary (`*.wbsum.json`, openSummary) opens in the same place in "summary mode": no
// timeline (a summary holds figures, not events), a header naming the job, its verdict and
// where the summary came from, and the panels fed from the summary; a click on a rank names
// the file holding its full timeline, with a button that opens it as traces.
#include "analysis/analysis_scope.h"
#include "traces/trace_set.h"

#include <QMainWindow>
#include <functional>
#include <memory>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QPushButton;
class QSplitter;
class QTimer;
class QToolButton;

namespace wb {

class AnalysisJob;
class AnalysisPanel;
class ComparePanel;
class SummaryDistributionView;
class ImportJob;
class Theme;
class TimelineView;
struct ImportBatch;
struct JobSummary;
struct TraceAnalysis;
struct TraceComparison;

class TracesWorkspace : public QMainWindow {
    Q_OBJECT
public:
    // Makes the panels it docks; the app's are makeAnalysisPanels (tests pass their own).
    using PanelFactory = std::function<std::vector<AnalysisPanel*>(QWidget*)>;
    explicit TracesWorkspace(QWidget* parent = nullptr, PanelFactory panels = {});
    ~TracesWorkspace() override;

    // Shows `set` (the "before" when comparing) and analyses the whole of it; a comparison
    // open with an earlier set is closed.
    void openSet(const TraceSet& set);
    void closeSet();
    bool hasSet() const { return !m_set.empty() || m_summary != nullptr; }
    const TraceSet& set() const { return m_set; }

    // Shows the job summary read from `path` (read, and made `analysis`, on a worker thread by
    // the caller: summary_analysis.h) in summary mode; the open set or summary is closed.
    void openSummary(const QString& path, std::shared_ptr<const JobSummary> summary,
                     std::shared_ptr<const TraceAnalysis> analysis);
    bool isSummary() const { return m_summary != nullptr; }
    const QString& summaryPath() const { return m_summaryPath; }
    // In summary mode: the trace file of `rank` as the summary names it (relative names
    // against the summary's folder), or "" for a rank it does not hold.
    QString rankFile(long rank) const;
    // The file of the rank last clicked in summary mode, or "".
    const QString& pickedRankFile() const { return m_pickedFile; }
    QLabel* summaryHeader() const { return m_summaryHeader; }
    QLabel* rankFileLabel() const { return m_rankFile; }
    QPushButton* openRankButton() const { return m_openRank; }
    SummaryDistributionView* distributions() const { return m_distributions; }

    // Imports `paths` on a worker thread as the "after" set and compares (before = the open
    // set); compareFinished says how it went. False when nothing is open or an import runs.
    bool compareWith(const QStringList& paths);
    // Shows `after` beside the open set and compares the two on a worker thread.
    void setAfterSet(const TraceSet& after);
    void closeComparison();
    bool isComparing() const { return !m_after.empty(); }
    const TraceSet& afterSet() const { return m_after; }

    // The analysed range: whole trace, or the selection (in the traces' own clock).
    const AnalysisRange& range() const { return m_range; }
    // "whole trace" or "12.3 ms – 45.6 ms" (from the start of the traces).
    QString scopeText() const;
    std::shared_ptr<const TraceAnalysis> analysis() const;

    // Selects every instance of `kernel` on the timelines (both when comparing).
    void highlightKernel(const QString& kernel);
    // Scrolls the timeline to `rank`'s lane and, for step ≥ 0, zooms to ProfilerStep#step.
    void showRank(long rank, int step);

    // Every panel's tables as CSV (<table id>.csv), and each panel and the timeline as PNG
    // and SVG at `size`, into `dir`. Returns an error or "".
    QString exportPanels(const QString& dir, QSize size = {1920, 1080}) const;

    void setTheme(const Theme& theme);

    TimelineView* timeline() const { return m_timeline; }
    TimelineView* afterTimeline() const { return m_afterView; }
    const std::vector<AnalysisPanel*>& panels() const { return m_panels; }
    ComparePanel* comparePanel() const { return m_compare; }
    QDockWidget* compareDock() const { return m_compareDock; }
    QList<QDockWidget*> panelDocks() const { return m_docks; }
    AnalysisJob* analysisJob() const { return m_job; }
    QAction* compareFilesAction() const { return m_compareFiles; }
    QAction* compareFolderAction() const { return m_compareFolder; }
    QAction* closeComparisonAction() const { return m_closeCompare; }
    QAction* exportAction() const { return m_exportAction; }

signals:
    // A panel's "why this verdict?": open the lesson on these files.
    void explainRequested(const QString& scenarioId);
    // A new analysis reached the panels.
    void analysisShown();
    // The "after" set was imported and compared (or why not).
    void compareFinished(bool ok, const QString& message);
    // A one-line message for the window's status bar.
    void message(const QString& text);
    // "Open its timeline" in summary mode: open these files as traces.
    void openTracesRequested(const QStringList& paths);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void addPanelDocks(const PanelFactory& factory);
    void runAnalysis();
    void analysisLanded();
    void analysisCancelled();
    void selectionMoved();
    void applyScope();
    void refreshTimeline();
    void refreshAfterTimeline();
    void shareSpan(TimelineFrame& frame) const;
    void afterImported(const ImportBatch& batch);
    void compareDialog(bool folder);
    void updateBar();
    void alignFrom(TimelineView* source);
    QString rangeText(const AnalysisRange& range) const;
    void showSummaryMode(bool on);
    void pickRank(long rank, int step);

    TraceSet m_set, m_after;
    AnalysisRange m_range;
    std::optional<long> m_straggler; // the whole trace's verdict names it
    std::string m_verdictLine;
    TimelineView* m_timeline;
    TimelineView* m_afterView;
    QSplitter* m_split;
    QLabel* m_empty;
    std::shared_ptr<const JobSummary> m_summary;
    std::shared_ptr<const TraceAnalysis> m_summaryAnalysis;
    QString m_summaryPath;
    QString m_pickedFile;
    QWidget* m_summaryView;
    QLabel* m_summaryHeader;
    QLabel* m_rankFile;
    QPushButton* m_openRank;
    SummaryDistributionView* m_distributions;
    QLabel* m_scope;
    QLabel* m_status;
    QToolButton* m_wholeTrace;
    std::vector<AnalysisPanel*> m_panels;
    QList<QDockWidget*> m_docks;
    ComparePanel* m_compare;
    QDockWidget* m_compareDock;
    AnalysisJob* m_job;
    ImportJob* m_afterImport;
    QTimer* m_scopeTimer;
    QTimer* m_progressTick;
    QAction* m_compareFiles;
    QAction* m_compareFolder;
    QAction* m_closeCompare;
    QAction* m_exportAction;
    bool m_quiet = false;    // the workspace itself moves the selection: not the user's
    bool m_aligning = false; // one timeline follows the other
    int m_compareRun = 0;    // the newest comparison; older ones land nowhere
};

} // namespace wb
