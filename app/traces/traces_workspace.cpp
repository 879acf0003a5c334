#include "traces/traces_workspace.h"

#include "analysis/trace_analysis.h"
#include "analysis/trace_compare.h"
#include "drawing/theme.h"
#include "engine/number_format.h"
#include "import_job.h"
#include "step_exporter.h"
#include "summary/job_summary.h"
#include "timeline/timeline_view.h"
#include "traces/analysis_job.h"
#include "traces/analysis_panel.h"
#include "traces/compare_panel.h"
#include "traces/panel_export.h"
#include "traces/summary_distribution_view.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QResizeEvent>
#include <QSettings>
#include <QSplitter>
#include <QTabBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace wb {

namespace {

constexpr int kScopeSettleMs = 200; // a drag moves the selection many times; analyse once
constexpr int kProgressTickMs = 50;

QString twQs(const std::string& s) {
    return QString::fromStdString(s);
}

std::string ranksText(const TraceSet& set) {
    return formatCount(static_cast<long long>(set.traces.size()), "rank", "ranks");
}

} // namespace

TracesWorkspace::TracesWorkspace(QWidget* parent, PanelFactory panels)
    : QMainWindow(parent)
    , m_timeline(new TimelineView)
    , m_afterView(new TimelineView)
    , m_split(new QSplitter(Qt::Vertical))
    , m_empty(new QLabel)
    , m_summaryView(new QWidget)
    , m_summaryHeader(new QLabel)
    , m_rankFile(new QLabel)
    , m_openRank(new QPushButton(tr("Open its timeline")))
    , m_distributions(new SummaryDistributionView)
    , m_scope(new QLabel)
    , m_status(new QLabel)
    , m_wholeTrace(new QToolButton)
    , m_compare(new ComparePanel)
    , m_compareDock(nullptr)
    , m_job(new AnalysisJob(this))
    , m_afterImport(new ImportJob(this))
    , m_scopeTimer(new QTimer(this))
    , m_progressTick(new QTimer(this))
    , m_compareFiles(new QAction(tr("Compare with &files…"), this))
    , m_compareFolder(new QAction(tr("Compare with f&older…"), this))
    , m_closeCompare(new QAction(tr("Close &comparison"), this))
    , m_exportAction(new QAction(tr("E&xport panels…"), this)) {
    setWindowFlags(Qt::Widget); // a child of the main window, docking inside itself
    setDockNestingEnabled(true);
    setObjectName("tracesWorkspace");
    m_timeline->setObjectName("tracesTimeline");
    m_afterView->setObjectName("afterTimeline");

    // The bar above the timelines: what the panels show, how the analysis goes, comparing.
    auto* bar = new QWidget;
    auto* barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(8, 4, 8, 4);
    m_scope->setObjectName("traceScope");
    m_scope->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_wholeTrace->setText(tr("Whole trace"));
    m_wholeTrace->setObjectName("wholeTrace");
    m_wholeTrace->setToolTip(tr("Drop the selection: the panels show the whole trace again"));
    connect(m_wholeTrace, &QToolButton::clicked, this, [this] { m_timeline->clearSelection(); });
    m_status->setObjectName("analysisStatus");
    barLayout->addWidget(m_scope);
    barLayout->addWidget(m_wholeTrace);
    barLayout->addSpacing(16);
    barLayout->addWidget(m_status, 1);
    // One button for both ways to pick the "after" set, so the bar stays short.
    auto* compare = new QPushButton(tr("Compare with"));
    compare->setObjectName("compareWith");
    auto* compareMenu = new QMenu(compare);
    compareMenu->addAction(m_compareFiles);
    compareMenu->addAction(m_compareFolder);
    compare->setMenu(compareMenu);
    barLayout->addWidget(compare);
    auto* close = new QToolButton;
    close->setDefaultAction(m_closeCompare);
    barLayout->addWidget(close);
    m_compareFiles->setObjectName("compareFiles");
    m_compareFolder->setObjectName("compareFolder");
    m_closeCompare->setObjectName("closeComparison");
    m_compareFiles->setToolTip(tr("Open a second set of traces as \"after\" and compare"));
    m_compareFolder->setToolTip(tr("Open a folder of rank traces as \"after\" and compare"));
    connect(m_compareFiles, &QAction::triggered, this, [this] { compareDialog(false); });
    connect(m_compareFolder, &QAction::triggered, this, [this] { compareDialog(true); });
    connect(m_closeCompare, &QAction::triggered, this, &TracesWorkspace::closeComparison);
    m_exportAction->setObjectName("exportPanels");
    m_exportAction->setToolTip(tr("Write every panel's tables as CSV and each panel and the "
                                  "timeline as PNG and SVG (1920×1080) into a folder"));
    connect(m_exportAction, &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export panels into"));
        if (dir.isEmpty())
            return;
        const QString err = exportPanels(dir);
        Q_EMIT message(err.isEmpty() ? tr("Exported the panels into %1").arg(dir) : err);
    });

    m_empty->setObjectName("tracesEmpty");
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No traces open.\nOpen PyTorch profiler traces (File → Open, Ctrl+O), "
                        "or drop a folder of rank files on the window."));
    m_split->addWidget(m_timeline);
    m_split->addWidget(m_afterView);
    m_split->setChildrenCollapsible(false);
    m_afterView->hide();

    // Summary mode's centre: the job in a few lines, then which file holds a clicked rank.
    m_summaryView->setObjectName("summaryView");
    auto* summaryLayout = new QVBoxLayout(m_summaryView);
    summaryLayout->setContentsMargins(16, 12, 16, 12);
    m_summaryHeader->setObjectName("summaryHeader");
    m_summaryHeader->setWordWrap(true);
    m_summaryHeader->setTextFormat(Qt::PlainText);
    m_summaryHeader->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summaryHeader->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_rankFile->setObjectName("summaryRankFile");
    m_rankFile->setWordWrap(true);
    m_rankFile->setTextFormat(Qt::PlainText);
    m_rankFile->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_openRank->setObjectName("openRankTimeline");
    m_openRank->setToolTip(tr("Open this rank's trace in the workspace, with its full timeline"));
    connect(m_openRank, &QPushButton::clicked, this, [this] {
        if (!m_pickedFile.isEmpty())
            Q_EMIT openTracesRequested({m_pickedFile});
    });
    auto* rankRow = new QHBoxLayout;
    rankRow->addWidget(m_rankFile, 1);
    rankRow->addWidget(m_openRank, 0, Qt::AlignTop);
    summaryLayout->addWidget(m_summaryHeader);
    summaryLayout->addSpacing(12);
    summaryLayout->addLayout(rankRow);
    summaryLayout->addSpacing(8);
    summaryLayout->addWidget(m_distributions, 1);
    m_summaryView->hide();

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(m_split, 1);
    layout->addWidget(m_summaryView, 1);
    layout->addWidget(m_empty, 1);
    setCentralWidget(central);

    addPanelDocks(panels ? panels : PanelFactory(makeAnalysisPanels));

    m_scopeTimer->setSingleShot(true);
    m_scopeTimer->setInterval(kScopeSettleMs);
    connect(m_scopeTimer, &QTimer::timeout, this, &TracesWorkspace::applyScope);
    connect(m_timeline, &TimelineView::selectionChanged, this, &TracesWorkspace::selectionMoved);
    connect(m_timeline, &TimelineView::windowChanged, this, [this] { alignFrom(m_timeline); });
    connect(m_afterView, &TimelineView::windowChanged, this, [this] { alignFrom(m_afterView); });

    m_progressTick->setInterval(kProgressTickMs);
    connect(m_progressTick, &QTimer::timeout, this, [this] {
        for (AnalysisPanel* p : m_panels)
            p->setProgress(m_job->progress());
        updateBar();
    });
    connect(m_job, &AnalysisJob::finished, this, &TracesWorkspace::analysisLanded);
    connect(m_job, &AnalysisJob::cancelled, this, &TracesWorkspace::analysisCancelled);
    connect(m_afterImport, &ImportJob::finished, this, &TracesWorkspace::afterImported);
    connect(m_compare, &ComparePanel::itemActivated, this, &TracesWorkspace::highlightKernel);
    updateBar();
}

TracesWorkspace::~TracesWorkspace() = default;

void TracesWorkspace::addPanelDocks(const PanelFactory& factory) {
    m_panels = factory(this);
    // Two tab stacks around the timeline: the first half on the right (the step heatmap, the
    // per-rank figures: the straggler at a glance), the rest along the bottom, where the
    // comparison joins them. Any number of panels, none included.
    const std::size_t half = (m_panels.size() + 1) / 2;
    QDockWidget* firstRight = nullptr;
    QDockWidget* firstBottom = nullptr;
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        AnalysisPanel* panel = m_panels[i];
        auto* dock = new QDockWidget(panel->title(), this);
        dock->setObjectName("panel_" + panel->panelId());
        dock->setWidget(panel);
        const bool right = i < half;
        QDockWidget*& first = right ? firstRight : firstBottom;
        if (first == nullptr) {
            addDockWidget(right ? Qt::RightDockWidgetArea : Qt::BottomDockWidgetArea, dock);
            first = dock;
        } else {
            tabifyDockWidget(first, dock);
        }
        m_docks << dock;
        connect(panel, &AnalysisPanel::kernelActivated, this, &TracesWorkspace::highlightKernel);
        connect(panel, &AnalysisPanel::rankActivated, this, &TracesWorkspace::showRank);
        connect(panel, &AnalysisPanel::explainRequested, this, &TracesWorkspace::explainRequested);
        connect(panel, &AnalysisPanel::cancelRequested, m_job, &AnalysisJob::cancel);
    }
    for (QDockWidget* first : {firstRight, firstBottom})
        if (first != nullptr)
            first->raise();
    m_compareDock = new QDockWidget(tr("Compare before / after"), this);
    m_compareDock->setObjectName("panel_compare");
    m_compareDock->setWidget(m_compare);
    if (firstBottom != nullptr)
        tabifyDockWidget(firstBottom, m_compareDock);
    else
        addDockWidget(Qt::BottomDockWidgetArea, m_compareDock);
    m_compareDock->hide(); // until a comparison exists
    // A first layout that leaves the timeline most of the room (a saved one replaces it).
    if (firstRight != nullptr)
        resizeDocks({firstRight}, {380}, Qt::Horizontal);
    if (firstBottom != nullptr)
        resizeDocks({firstBottom}, {240}, Qt::Vertical);
}

// ---- the set ------------------------------------------------------------------------------

void TracesWorkspace::openSet(const TraceSet& set) {
    closeComparison();
    showSummaryMode(false);
    m_set = set;
    m_range = AnalysisRange{};
    m_straggler.reset();
    m_verdictLine.clear();
    m_timeline->setHighlightedName({});
    m_job->reset(); // the figures of other files
    m_progressTick->stop();
    for (AnalysisPanel* p : m_panels) {
        p->setProgress(-1.0);
        p->setAnalysis(nullptr);
    }
    {
        // A new set starts over: its whole span, no selection (the old one meant other files).
        const QSignalBlocker quiet(m_timeline);
        m_timeline->setFrame(TimelineFrame{});
    }
    refreshTimeline();
    m_split->setVisible(!m_set.empty());
    m_empty->setVisible(m_set.empty());
    if (!m_set.empty())
        runAnalysis();
    updateBar();
}

void TracesWorkspace::closeSet() {
    openSet(TraceSet{});
}

// While comparing, both timelines reach as far as the longer set lasts (from each one's own
// start), so either can show any span of the other: the axes stay aligned at every zoom.
void TracesWorkspace::shareSpan(TimelineFrame& frame) const {
    if (!isComparing())
        return;
    std::int64_t span = 0;
    for (const TraceSet* set : {&m_set, &m_after}) {
        TimelineFrame lanes;
        lanes.lanes = set->lanes(std::nullopt);
        const auto [lo, hi] = timeSpan(lanes);
        span = std::max(span, hi - lo);
    }
    const auto [lo, hi] = timeSpan(frame);
    (void)hi;
    frame.viewStartNs = lo;
    frame.viewEndNs = lo + span;
}

void TracesWorkspace::refreshTimeline() {
    TimelineFrame frame;
    if (!m_set.empty()) {
        frame.title = std::string("Your traces: ").append(ranksText(m_set));
        if (isComparing())
            frame.title.insert(0, "Before · ");
        frame.caption = m_verdictLine;
        frame.lanes = m_set.lanes(m_straggler);
        shareSpan(frame);
    }
    // The verdict arrives after the user may have zoomed or selected: keep both.
    const bool had = !m_timeline->frame().lanes.empty();
    const auto start = m_timeline->axis().startNs();
    const auto end = m_timeline->axis().endNs();
    const bool selected = m_timeline->hasSelection();
    const auto selStart = m_timeline->selectionStartNs();
    const auto selEnd = m_timeline->selectionEndNs();
    m_quiet = true;
    m_timeline->setFrame(frame);
    if (had && !frame.lanes.empty()) {
        m_timeline->setWindow(start, end);
        if (selected)
            m_timeline->setSelection(selStart, selEnd);
    }
    m_quiet = false;
}

// ---- the analysis -------------------------------------------------------------------------

void TracesWorkspace::runAnalysis() {
    m_job->start(m_set, m_range);
    for (AnalysisPanel* p : m_panels)
        p->setProgress(0.0);
    m_progressTick->start();
    updateBar();
}

std::shared_ptr<const TraceAnalysis> TracesWorkspace::analysis() const {
    return m_summary ? m_summaryAnalysis : m_job->result();
}

void TracesWorkspace::analysisLanded() {
    m_progressTick->stop();
    const auto result = m_job->result();
    for (AnalysisPanel* p : m_panels) {
        p->setProgress(-1.0);
        p->setAnalysis(result);
    }
    if (result && !result->range.bounded()) {
        // The whole trace's verdict names the straggler and captions the timeline.
        const TriageVerdict& v = result->triage;
        const std::optional<long> straggler = v.stragglerRank;
        std::string line = std::string("Triage: ").append(v.verdict);
        if (v.stragglerRank)
            line.append(" (rank ").append(std::to_string(*v.stragglerRank)).append(")");
        line.append(" · ").append(v.evidence);
        if (straggler != m_straggler || line != m_verdictLine) {
            m_straggler = straggler;
            m_verdictLine = line;
            refreshTimeline();
        }
    }
    updateBar();
    Q_EMIT analysisShown();
    applyScope(); // a selection made while the whole trace was being analysed
}

void TracesWorkspace::analysisCancelled() {
    m_progressTick->stop();
    for (AnalysisPanel* p : m_panels)
        p->setProgress(-1.0);
    // The panels keep what they showed; the scope follows what they show.
    if (const auto shown = m_job->result())
        m_range = shown->range;
    updateBar();
    Q_EMIT message(tr("Analysis cancelled; the panels keep the previous result"));
}

void TracesWorkspace::selectionMoved() {
    if (!m_quiet)
        m_scopeTimer->start();
}

void TracesWorkspace::applyScope() {
    AnalysisRange range;
    if (m_timeline->hasSelection()) {
        range.fromNs = m_timeline->selectionStartNs();
        range.toNs = m_timeline->selectionEndNs();
    }
    if (range.fromNs == m_range.fromNs && range.toNs == m_range.toNs && m_job->result())
        return;
    // The whole trace's verdict names the straggler on the timeline: let that first run land
    // (analysisLanded comes back here) rather than supersede it.
    if (m_job->isRunning() && !m_range.bounded() && m_verdictLine.empty())
        return;
    m_range = range;
    runAnalysis();
}

QString TracesWorkspace::rangeText(const AnalysisRange& range) const {
    if (!range.bounded())
        return tr("whole trace");
    const auto at = [this](std::int64_t ns) {
        return twQs(formatSi(static_cast<double>(ns - m_timeline->originNs()) * 1e-9, "s", 4));
    };
    return tr("%1 – %2").arg(at(range.fromNs), at(range.toNs));
}

QString TracesWorkspace::scopeText() const {
    if (m_summary)
        return tr("whole job (summary)");
    const auto shown = m_job->result();
    return rangeText(shown ? shown->range : m_range);
}

void TracesWorkspace::updateBar() {
    m_scope->setText(tr("Scope: %1").arg(scopeText()));
    m_wholeTrace->setEnabled(m_range.bounded());
    QString status;
    if (m_summary)
        status = tr("%1 from a job summary")
                     .arg(twQs(formatCount(static_cast<long long>(m_summary->ranks.size()), "rank",
                                           "ranks")));
    else if (m_set.empty())
        status = tr("No traces open");
    else if (m_job->isRunning())
        status = tr("Analysing %1… %2 %")
                     .arg(rangeText(m_range))
                     .arg(static_cast<int>(m_job->progress() * 100.0));
    else if (const auto a = m_job->result())
        status =
            tr("%1 analysed")
                .arg(twQs(formatCount(static_cast<long long>(a->ranks.size()), "rank", "ranks")));
    m_status->setText(status);
    m_compareFiles->setEnabled(!m_set.empty() && !m_afterImport->isRunning());
    m_compareFolder->setEnabled(m_compareFiles->isEnabled());
    m_closeCompare->setEnabled(isComparing());
    m_exportAction->setEnabled(hasSet());
}

// ---- panel requests -------------------------------------------------------------------------

void TracesWorkspace::highlightKernel(const QString& kernel) {
    m_timeline->setHighlightedName(kernel);
    m_afterView->setHighlightedName(kernel);
    const auto n = m_timeline->highlightedCount();
    Q_EMIT message(n == 0 ? tr("%1 does not run in the open traces").arg(kernel)
                          : tr("%1: %2 outlined on the timeline")
                                .arg(kernel, twQs(formatCount(static_cast<long long>(n), "instance",
                                                              "instances"))));
}

void TracesWorkspace::showRank(long rank, int step) {
    if (m_summary) {
        pickRank(rank, step);
        return;
    }
    const int lane = m_set.laneOf(rank);
    if (lane < 0)
        return;
    m_timeline->scrollToLane(lane);
    const auto a = m_job->result();
    if (step < 0 || !a)
        return;
    for (std::size_t i = 0; i < a->ranks.size() && i < a->perRank.size(); ++i) {
        if (a->ranks[i] != rank)
            continue;
        for (const StepFigures& s : a->perRank[i].steps)
            if (s.step.number == step && s.step.endNs > s.step.startNs) {
                // The step with a twentieth of its length either side, so its edges show.
                const std::int64_t pad = (s.step.endNs - s.step.startNs) / 20;
                m_timeline->setWindow(s.step.startNs - pad, s.step.endNs + pad);
                return;
            }
    }
}

// ---- job summaries -------------------------------------------------------------------------

void TracesWorkspace::openSummary(const QString& path, std::shared_ptr<const JobSummary> summary,
                                  std::shared_ptr<const TraceAnalysis> analysis) {
    if (!summary || !analysis)
        return;
    openSet(TraceSet{}); // drops the open traces, their analysis and any comparison
    m_summary = std::move(summary);
    m_summaryAnalysis = std::move(analysis);
    m_summaryPath = path;
    showSummaryMode(true);
    const JobSummary& s = *m_summary;
    std::string head =
        std::string("Job summary ")
            .append(QFileInfo(path).fileName().toStdString())
            .append(": ")
            .append(formatCount(static_cast<long long>(s.ranks.size()), "rank", "ranks"));
    if (s.worldSize > 0)
        head.append(" of a world of ").append(formatCount(s.worldSize, "rank", "ranks"));
    head.append("\nTriage: ").append(s.verdict);
    if (s.stragglerRank)
        head.append(" (rank ").append(std::to_string(*s.stragglerRank)).append(")");
    head.append(" · ").append(s.evidence);
    if (!s.stragglerCandidates.empty()) {
        head.append("\nStraggler candidates: ");
        for (std::size_t i = 0; i < s.stragglerCandidates.size(); ++i)
            head.append(i == 0 ? "rank " : ", rank ")
                .append(std::to_string(s.stragglerCandidates[i]));
    }
    // Where it came from: the tool, when, over how many files and processes.
    const auto text = [&s](const char* key) {
        const auto it = s.provenance.find(key);
        return it != s.provenance.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    head.append("\nMade by ").append(text("tool").empty() ? "warpboard-summarize" : text("tool"));
    if (!text("version").empty())
        head.append(" ").append(text("version"));
    if (!text("date").empty())
        head.append(" on ").append(text("date"));
    head.append(" with ").append(formatCount(s.processes, "process", "processes"));
    if (!s.failed.empty())
        head.append("; ")
            .append(formatCount(static_cast<long long>(s.failed.size()), "file", "files"))
            .append(" could not be read");
    m_summaryHeader->setText(twQs(head));
    m_rankFile->setText(tr("Click a rank in a panel (the heatmap, the per-rank figures, the "
                           "stragglers) to see which file holds its full timeline."));
    for (AnalysisPanel* p : m_panels)
        p->setAnalysis(m_summaryAnalysis);
    m_distributions->setAnalysis(m_summaryAnalysis);
    // With no timeline in the centre, the heatmap comes to the front and takes half the room.
    for (QDockWidget* d : m_docks)
        if (d->objectName() == QLatin1String("panel_step_heatmap") && !d->isHidden()) {
            d->raise();
            resizeDocks({d}, {width() / 2}, Qt::Horizontal);
        }
    updateBar();
    Q_EMIT analysisShown();
}

void TracesWorkspace::showSummaryMode(bool on) {
    if (!on) {
        m_summary.reset();
        m_summaryAnalysis.reset();
        m_summaryPath.clear();
        m_pickedFile.clear();
        m_distributions->setAnalysis(nullptr);
    }
    m_openRank->setEnabled(false);
    m_summaryView->setVisible(on);
    m_split->setVisible(!on && !m_set.empty());
    m_empty->setVisible(!on && m_set.empty());
}

QString TracesWorkspace::rankFile(long rank) const {
    if (!m_summary)
        return {};
    for (const JobSummaryRank& r : m_summary->ranks)
        if (r.whole.rank == rank) {
            const QString file = twQs(r.file);
            return QFileInfo(file).isRelative() ? QFileInfo(m_summaryPath).dir().filePath(file)
                                                : file;
        }
    return {};
}

void TracesWorkspace::pickRank(long rank, int step) {
    m_pickedFile = rankFile(rank);
    const QString which =
        step < 0 ? tr("rank %1").arg(rank) : tr("rank %1 (ProfilerStep#%2)").arg(rank).arg(step);
    QString line;
    if (m_pickedFile.isEmpty())
        line = tr("%1: not in this summary").arg(which);
    else if (!QFileInfo::exists(m_pickedFile))
        line = tr("%1: its full timeline is in %2, which is not on this machine")
                   .arg(which, m_pickedFile);
    else
        line = tr("%1: its full timeline is in %2").arg(which, m_pickedFile);
    m_rankFile->setText(line);
    m_openRank->setEnabled(!m_pickedFile.isEmpty() && QFileInfo::exists(m_pickedFile));
    Q_EMIT message(line);
}

// ---- comparison -----------------------------------------------------------------------------

bool TracesWorkspace::compareWith(const QStringList& paths) {
    if (m_set.empty() || m_summary || paths.isEmpty() || !m_afterImport->start(paths))
        return false;
    updateBar();
    Q_EMIT message(tr("Importing the \"after\" traces…"));
    return true;
}

void TracesWorkspace::compareDialog(bool folder) {
    const QString dir = QSettings().value("lastImportDir").toString();
    QStringList paths;
    if (folder) {
        const QString f =
            QFileDialog::getExistingDirectory(this, tr("Compare with a folder of traces"), dir);
        if (!f.isEmpty())
            paths << f;
    } else {
        paths = QFileDialog::getOpenFileNames(this, tr("Compare with traces"), dir,
                                              tr("Profiler traces (*.json *.json.gz);;All files "
                                                 "(*)"));
    }
    if (!paths.isEmpty())
        compareWith(paths);
}

void TracesWorkspace::afterImported(const ImportBatch& batch) {
    const TraceSet after = TraceSet::fromBatch(batch.results);
    updateBar();
    if (batch.cancelled || after.empty()) {
        QString why = batch.cancelled ? tr("cancelled") : tr("no profiler traces read");
        if (!batch.failures.isEmpty())
            why += ": " + batch.failures.join("; ");
        Q_EMIT compareFinished(false, tr("Compare: %1").arg(why));
        return;
    }
    setAfterSet(after);
    QString msg = tr("Comparing with %1").arg(twQs(ranksText(m_after)));
    if (!batch.failures.isEmpty())
        msg += " — " + tr("not opened: %1").arg(batch.failures.join("; "));
    Q_EMIT compareFinished(true, msg);
}

void TracesWorkspace::setAfterSet(const TraceSet& after) {
    if (m_set.empty() || after.empty())
        return;
    m_after = after;
    refreshTimeline(); // "Before · " in its title, and the span both share
    refreshAfterTimeline();
    m_afterView->show();
    m_compare->setComparison(nullptr);
    m_compareDock->show();
    m_compareDock->raise();
    alignFrom(m_timeline);
    // compareTraces reads every event of both sides: off the GUI thread, newest run wins.
    const int run = ++m_compareRun;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const TraceComparison>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, run] {
        watcher->deleteLater();
        if (run == m_compareRun && isComparing())
            m_compare->setComparison(watcher->result());
    });
    const TraceSet before = m_set;
    watcher->setFuture(QtConcurrent::run([before, after] {
        return std::make_shared<const TraceComparison>(
            compareTraces(before.compareInputs(), after.compareInputs()));
    }));
    updateBar();
}

void TracesWorkspace::refreshAfterTimeline() {
    TimelineFrame frame;
    frame.title = std::string("After · ").append(ranksText(m_after));
    frame.lanes = m_after.lanes(std::nullopt);
    shareSpan(frame);
    m_afterView->setFrame(frame);
    m_afterView->setHighlightedName(m_timeline->highlightedName());
}

void TracesWorkspace::closeComparison() {
    ++m_compareRun;
    const bool was = isComparing();
    m_after = TraceSet{};
    m_compare->setComparison(nullptr);
    m_compareDock->hide();
    m_afterView->hide();
    m_afterView->setFrame(TimelineFrame{});
    if (was)
        refreshTimeline();
    updateBar();
}

// Both timelines show the same span of time measured from each set's own start, so step k
// of "before" sits above step k of "after" at any zoom.
void TracesWorkspace::alignFrom(TimelineView* source) {
    if (m_aligning || !isComparing())
        return;
    TimelineView* other = source == m_timeline ? m_afterView : m_timeline;
    const std::int64_t shift = other->originNs() - source->originNs();
    m_aligning = true;
    other->setWindow(source->axis().startNs() + shift, source->axis().endNs() + shift);
    m_aligning = false;
}

// ---- looks and exports ------------------------------------------------------------------------

void TracesWorkspace::setTheme(const Theme& theme) {
    m_timeline->setTheme(theme);
    m_afterView->setTheme(theme);
    for (AnalysisPanel* p : m_panels)
        p->setTheme(theme);
    m_compare->setTheme(theme);
    m_distributions->setTheme(theme);
}

void TracesWorkspace::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    // Tabbed docks get their tab bars from QMainWindow's layout, which elides long titles
    // ("Temporal brea…") by default: titles stay whole and the bar scrolls instead. The bars
    // come and go as docks are moved, so this runs on every relayout of the window.
    for (QTabBar* bar : findChildren<QTabBar*>()) {
        bar->setElideMode(Qt::ElideNone);
        bar->setUsesScrollButtons(true);
    }
    // Type follows the window as a slide's follows its height: 10 px floor at 720 px.
    const TypeScale type = TypeScale::forSlide(window()->height());
    m_timeline->setTypeScale(type);
    m_afterView->setTypeScale(type);
}

QString TracesWorkspace::exportPanels(const QString& dir, QSize size) const {
    if (!QDir().mkpath(dir))
        return tr("cannot create the folder '%1'").arg(dir);
    const QDir out(dir);
    const Theme theme = m_timeline->theme();
    for (AnalysisPanel* p : m_panels) {
        const PanelExport e = exportPanel(*p, dir, PanelCsv | PanelPng | PanelSvg, size);
        if (!e.error.isEmpty())
            return e.error;
    }
    if (m_summary)
        return {}; // a summary has no timeline to draw
    // The timeline overview: the window shown, drawn with the type of a slide this size.
    TimelineView view;
    view.setTheme(theme);
    view.setTypeScale(TypeScale::forSlide(size.height()));
    view.setFrame(m_timeline->frame());
    view.resize(size);
    view.setWindow(m_timeline->axis().startNs(), m_timeline->axis().endNs());
    view.setHighlightedName(m_timeline->highlightedName());
    for (const char* ext : {".png", ".svg"}) {
        const QString err =
            writePicture(out.filePath(QString("timeline") + ext), size, theme.background,
                         twQs(m_timeline->frame().title), [&view, size](QPainter& painter) {
                             view.paint(painter, QRectF(QPointF(0, 0), size));
                         });
        if (!err.isEmpty())
            return err;
    }
    return {};
}

} // namespace wb
