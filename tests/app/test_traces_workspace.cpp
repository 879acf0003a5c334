// The Traces workspace: a folder of rank traces opens it (one lane per rank, every panel
// docked), the analysis arrives from a worker thread, a selection re-scopes it, panels reach
// the timeline (kernel highlight, rank scroll), cancel keeps the old result, a second set
// compares, and the open sets and the layout come back on restart; other formats still open
// their lessons. Figures are checked against analyseTraces / compareTraces run here.
#include "analysis/trace_analysis.h"
#include "analysis/trace_compare.h"
#include "engine/imported_set.h"
#include "engine/registry.h"
#include "main_window.h"
#include "playback_controller.h"
#include "timeline/timeline_view.h"
#include "traces/analysis_job.h"
#include "traces/analysis_panel.h"
#include "traces/compare_panel.h"
#include "traces/traces_workspace.h"
#include "triage/kineto_trace_generator.h"

#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace wb;

namespace {

// A stand-in for the real panels (they land in another change): it records what the
// workspace hands it and draws a plain block, so the workspace can be tested with any number.
class ProbePanel : public AnalysisPanel {
public:
    ProbePanel(QString id, QWidget* parent)
        : AnalysisPanel(parent)
        , m_id(std::move(id)) {}
    QString panelId() const override { return m_id; }
    QString title() const override { return "Probe " + m_id; }
    void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis) override {
        shown = std::move(analysis);
        ++analysesGiven;
    }
    void setProgress(double fraction) override { progress << fraction; }
    std::vector<AnalysisTable> tables() const override {
        return shown ? std::vector<AnalysisTable>{shown->tables().front()}
                     : std::vector<AnalysisTable>{};
    }
    void render(QPainter& painter, const QRectF& bounds) const override {
        painter.fillRect(bounds, Qt::darkCyan);
    }
    void emitKernel(const QString& name) { Q_EMIT kernelActivated(name); }
    void emitRank(long rank, int step) { Q_EMIT rankActivated(rank, step); }
    void emitCancel() { Q_EMIT cancelRequested(); }

    std::shared_ptr<const TraceAnalysis> shown;
    int analysesGiven = 0;
    QList<double> progress;

private:
    QString m_id;
};

std::vector<AnalysisPanel*> probePanels(QWidget* parent) {
    std::vector<AnalysisPanel*> out;
    for (const char* id : {"heatmap", "temporal", "kernels"})
        out.push_back(new ProbePanel(id, parent));
    return out;
}

ProbePanel* probe(const TracesWorkspace& ws, std::size_t i) {
    return static_cast<ProbePanel*>(ws.panels().at(i));
}

// Eight generated ranks written as files, rank 3 the straggler (or a healthy run).
QStringList writeRanks(const QString& dir, TriageCase c, int ranks = 8) {
    TraceGeneratorConfig config;
    config.triageCase = c;
    config.ranks = ranks;
    config.stragglerRank = 3;
    config.stragglerSlowdown = 1.6;
    QStringList paths;
    const auto texts = generateKinetoTraces(config);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const QString path = QDir(dir).filePath(QString("rank_%1.json").arg(i));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(texts[i].data(), static_cast<qint64>(texts[i].size()));
        paths << path;
    }
    return paths;
}

// The same ranks as a TraceSet, ranked by the app's rule.
TraceSet generatedSet(TriageCase c, int ranks = 8) {
    TraceGeneratorConfig config;
    config.triageCase = c;
    config.ranks = ranks;
    config.stragglerRank = 3;
    config.stragglerSlowdown = 1.6;
    const auto traces = generateImportedTraces(config);
    return TraceSet::fromBatch({traces.begin(), traces.end()});
}

std::pair<bool, QString> waitFor(QSignalSpy& spy) {
    if (spy.isEmpty() && !spy.wait(60000))
        return {false, "timed out"};
    const auto args = spy.takeFirst();
    return {args.at(0).toBool(), args.at(1).toString()};
}

// Opens `paths` in `w` (a window on a lesson) and waits for the import: true when it read.
bool openInWindow(MainWindow& w, const QStringList& paths) {
    if (w.session() == nullptr)
        w.openInitial(findScenario("ring-allreduce"), 0, false);
    QSignalSpy imported(&w, &MainWindow::importFinished);
    return w.importFiles(paths) && waitFor(imported).first;
}

int accentPixels(const QImage& image, const QColor& accent) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += QColor(image.pixel(x, y)).rgb() == accent.rgb() ? 1 : 0;
    return n;
}

double totalKernelUs(const TraceAnalysis& a) {
    double sum = 0.0;
    for (const RankBreakdown& r : a.perRank)
        sum += r.whole.computeUs;
    return sum;
}

} // namespace

class TestTracesWorkspace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("WarpboardTracesWorkspaceTest");
    }
    void init() { QSettings().clear(); }

    void aFolderOfRanksOpensTheWorkspace() {
        QTemporaryDir dir;
        writeRanks(dir.path(), TriageCase::Straggler);
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({dir.path()}));
        const auto [ok, msg] = waitFor(spy);
        QVERIFY2(ok, qPrintable(msg));
        QVERIFY(w.isShowingTraces());
        TracesWorkspace* ws = w.traces();
        const TimelineFrame& frame = ws->timeline()->frame();
        QCOMPARE(frame.lanes.size(), std::size_t(8));
        // Every panel the app makes is docked, and the comparison's dock waits hidden.
        std::vector<AnalysisPanel*> made = makeAnalysisPanels(nullptr);
        QCOMPARE(ws->panelDocks().size(), static_cast<qsizetype>(made.size()));
        for (AnalysisPanel* p : made)
            delete p;
        QVERIFY(ws->compareDock() && ws->compareDock()->isHidden());
        // The analysis lands from its worker; the straggler's lane is then named and marked.
        QTRY_VERIFY_WITH_TIMEOUT(ws->analysis() != nullptr, 30000);
        QCOMPARE(QString::fromStdString(ws->analysis()->triage.verdict), QString("straggler"));
        QTRY_VERIFY(ws->timeline()->frame().lanes[3].emphasis);
        for (std::size_t i = 0; i < 8; ++i) {
            const TimelineLane& lane = ws->timeline()->frame().lanes[i];
            const std::string want = "rank " + std::to_string(i) + (i == 3 ? " (straggler)" : "");
            QCOMPARE(QString::fromStdString(lane.label), QString::fromStdString(want));
            QCOMPARE(lane.emphasis, i == 3);
        }
        // The lesson docks step aside for the workspace and come back with the lessons.
        for (auto* d : w.findChildren<QDockWidget*>("steps"))
            QVERIFY(d->isHidden());
        w.showLessons();
        QVERIFY(!w.isShowingTraces());
        for (auto* d : w.findChildren<QDockWidget*>("steps"))
            QVERIFY(!d->isHidden());
        w.showTraces();
        QVERIFY(w.isShowingTraces());
        // Open recent holds the whole set as one entry.
        QCOMPARE(w.recentSets().size(), 1);
        QCOMPARE(w.recentSets().front().size(), 8);
    }

    void theAnalysisArrivesFromAWorkerWithProgress() {
        TracesWorkspace ws(nullptr, probePanels);
        QCOMPARE(ws.panelDocks().size(), 3);
        for (QDockWidget* d : ws.panelDocks())
            QVERIFY(d->objectName().startsWith("panel_"));
        const TraceSet set = generatedSet(TriageCase::Straggler);
        ws.openSet(set);
        // start() returned at once: the computation is elsewhere, and nothing landed yet.
        QVERIFY(ws.analysisJob()->isRunning());
        QVERIFY(probe(ws, 0)->shown == nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(probe(ws, 0)->shown != nullptr, 30000);
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(probe(ws, i)->shown, ws.analysis());
            // Started at 0, never beyond 1 while running, then done (negative).
            const QList<double>& progress = probe(ws, i)->progress;
            QVERIFY(progress.contains(0.0));
            QVERIFY(
                std::all_of(progress.begin(), progress.end(), [](double f) { return f <= 1.0; }));
            QVERIFY(progress.back() < 0.0);
        }
        const TraceAnalysis direct =
            analyseTraces(set.rankInputs(), AnalysisRange{}, set.worldSize());
        const TraceAnalysis& got = *ws.analysis();
        QCOMPARE(got.ranks, direct.ranks);
        QCOMPARE(totalKernelUs(got), totalKernelUs(direct));
        QCOMPARE(got.triage.verdict, direct.triage.verdict);
        QCOMPARE(ws.scopeText(), QString("whole trace"));
    }

    void aSelectionRescopesEveryPanel() {
        TracesWorkspace ws(nullptr, probePanels);
        ws.resize(1280, 720);
        const TraceSet set = generatedSet(TriageCase::Straggler);
        ws.openSet(set);
        QTRY_VERIFY_WITH_TIMEOUT(probe(ws, 0)->shown != nullptr, 30000);
        const auto [lo, hi] = timeSpan(ws.timeline()->frame());
        const std::int64_t from = lo + (hi - lo) / 4;
        const std::int64_t to = lo + (hi - lo) / 2;
        ws.timeline()->setSelection(from, to);
        QTRY_VERIFY_WITH_TIMEOUT(probe(ws, 2)->shown && probe(ws, 2)->shown->range.bounded(),
                                 30000);
        AnalysisRange range;
        range.fromNs = from;
        range.toNs = to;
        const TraceAnalysis direct = analyseTraces(set.rankInputs(), range, set.worldSize());
        for (std::size_t i = 0; i < 3; ++i) {
            const TraceAnalysis& got = *probe(ws, i)->shown;
            QCOMPARE(got.range.fromNs, from);
            QCOMPARE(got.range.toNs, to);
            QCOMPARE(totalKernelUs(got), totalKernelUs(direct));
            QCOMPARE(got.kernels.distinctKernels, direct.kernels.distinctKernels);
        }
        // The scoped figures are smaller than the whole trace's.
        const TraceAnalysis whole = analyseTraces(set.rankInputs(), AnalysisRange{}, 0);
        QVERIFY(totalKernelUs(direct) < totalKernelUs(whole));
        QVERIFY2(ws.scopeText().contains("ms") && ws.scopeText().contains("–"),
                 qPrintable(ws.scopeText()));
        QVERIFY(ws.findChild<QLabel*>("traceScope")->text().contains(ws.scopeText()));
        // Clearing the selection goes back to the whole trace.
        ws.timeline()->clearSelection();
        QTRY_VERIFY_WITH_TIMEOUT(!probe(ws, 0)->shown->range.bounded(), 30000);
        QCOMPARE(ws.scopeText(), QString("whole trace"));
        QCOMPARE(totalKernelUs(*probe(ws, 0)->shown), totalKernelUs(whole));
    }

    // A selection made before the first analysis lands does not lose the whole trace's
    // verdict (the straggler's lane), and still scopes the panels once it has landed.
    void anEarlySelectionWaitsForTheVerdict() {
        TracesWorkspace ws(nullptr, probePanels);
        const TraceSet set = generatedSet(TriageCase::Straggler);
        ws.openSet(set);
        const auto [lo, hi] = timeSpan(ws.timeline()->frame());
        ws.timeline()->setSelection(lo + (hi - lo) / 4, lo + (hi - lo) / 2);
        QTRY_VERIFY_WITH_TIMEOUT(probe(ws, 0)->shown && probe(ws, 0)->shown->range.bounded(),
                                 30000);
        QVERIFY(ws.timeline()->frame().lanes[3].emphasis);
        QCOMPARE(probe(ws, 0)->shown->range.fromNs, lo + (hi - lo) / 4);
        QVERIFY(ws.timeline()->hasSelection()); // the verdict's redraw kept it
    }

    void aKernelPickedInAPanelIsOutlinedOnTheTimeline() {
        TracesWorkspace ws(nullptr, probePanels);
        ws.resize(1280, 720);
        const TraceSet set = generatedSet(TriageCase::Healthy, 4);
        ws.openSet(set);
        // The kernel: the first compute kernel of rank 0, counted here over every rank.
        const TraceStore& s0 = set.traces[0].result->store;
        std::string name;
        for (const StoredEvent& e : s0.events())
            if (e.kind == EventKind::Kernel && name.empty())
                name = std::string(s0.strings().text(e.name));
        QVERIFY(!name.empty());
        std::size_t expected = 0;
        for (const ImportedTrace& t : set.traces)
            for (const StoredEvent& e : t.result->store.events())
                expected += t.result->store.strings().text(e.name) == name ? 1u : 0u;
        QVERIFY(expected > 0);

        const QImage before = ws.timeline()->grab().toImage();
        probe(ws, 2)->emitKernel(QString::fromStdString(name));
        QCOMPARE(ws.timeline()->highlightedCount(), expected);
        for (int lane = 0; lane < 4; ++lane)
            for (const std::uint32_t e : ws.timeline()->highlightedEvents(lane))
                QCOMPARE(
                    std::string(
                        set.traces[static_cast<std::size_t>(lane)].result->store.strings().text(
                            set.traces[static_cast<std::size_t>(lane)]
                                .result->store.events()[e]
                                .name)),
                    name);
        // The outlines are drawn in the accent colour.
        const QColor accent = ws.timeline()->theme().accent;
        const QImage after = ws.timeline()->grab().toImage();
        QVERIFY2(accentPixels(after, accent) > accentPixels(before, accent) + 50,
                 qPrintable(QString("%1 vs %2")
                                .arg(accentPixels(after, accent))
                                .arg(accentPixels(before, accent))));
        ws.highlightKernel({});
        QCOMPARE(ws.timeline()->highlightedCount(), std::size_t(0));
    }

    void aRankPickedInAPanelScrollsAndZoomsTheTimeline() {
        TracesWorkspace ws(nullptr, probePanels);
        ws.resize(900, 500); // 32 ranks do not fit: the timeline scrolls
        ws.show();
        const TraceSet set = generatedSet(TriageCase::Straggler, 32);
        ws.openSet(set);
        QTRY_VERIFY_WITH_TIMEOUT(ws.analysis() != nullptr, 30000);
        TimelineView* tl = ws.timeline();
        const QRectF bounds(tl->rect());
        QVERIFY(tl->laneHeaderRect(bounds, 20).top() > tl->plotRect(bounds).bottom());
        // ProfilerStep numbers as the analysis has them for rank 20.
        const auto& steps = ws.analysis()->perRank[20].steps;
        QVERIFY(steps.size() >= 2);
        const ProfilerStep step = steps[1].step;
        probe(ws, 0)->emitRank(20, static_cast<int>(step.number));
        QCOMPARE(tl->laneHeaderRect(QRectF(tl->rect()), 20).top(), tl->plotRect(bounds).top());
        QVERIFY(tl->axis().startNs() < step.startNs &&
                tl->axis().startNs() > step.startNs - (step.endNs - step.startNs) / 10);
        QVERIFY(tl->axis().endNs() > step.endNs);
        QVERIFY(tl->axis().endNs() - tl->axis().startNs() < (step.endNs - step.startNs) * 2);
    }

    void cancelKeepsThePreviousResultAndNewerRequestsWin() {
        TracesWorkspace ws(nullptr, probePanels);
        const TraceSet set = generatedSet(TriageCase::Straggler);
        ws.openSet(set);
        QTRY_VERIFY_WITH_TIMEOUT(probe(ws, 0)->shown != nullptr, 30000);
        const auto first = probe(ws, 0)->shown;
        const int given = probe(ws, 0)->analysesGiven;
        QSignalSpy cancelled(ws.analysisJob(), &AnalysisJob::cancelled);
        QSignalSpy finished(ws.analysisJob(), &AnalysisJob::finished);
        AnalysisRange range;
        range.fromNs = set.traces[0].result->store.minNs();
        range.toNs = range.fromNs + 1'000'000;
        ws.analysisJob()->start(set, range);
        probe(ws, 1)->emitCancel(); // the panel's Cancel button
        QTRY_VERIFY_WITH_TIMEOUT(!ws.analysisJob()->isRunning(), 30000);
        QCOMPARE(cancelled.size(), 1);
        QCOMPARE(finished.size(), 0);
        QCOMPARE(probe(ws, 0)->shown, first);
        QCOMPARE(probe(ws, 0)->analysesGiven, given);
        QVERIFY(probe(ws, 0)->progress.back() < 0.0);

        // Two requests in a row: only the newer one lands.
        AnalysisRange newer = range;
        newer.toNs = range.fromNs + 2'000'000;
        ws.analysisJob()->start(set, range);
        ws.analysisJob()->start(set, newer);
        QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 30000);
        QTest::qWait(100);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(ws.analysis()->range.toNs, newer.toNs);
    }

    void aSecondSetComparesWithTwoAlignedTimelines() {
        TracesWorkspace ws(nullptr, probePanels);
        ws.resize(1280, 720);
        ws.show();
        const TraceSet before = generatedSet(TriageCase::Healthy);
        const TraceSet after = generatedSet(TriageCase::Fabric);
        ws.openSet(before);
        QVERIFY(ws.afterTimeline()->isHidden());
        ws.setAfterSet(after);
        QVERIFY(ws.isComparing());
        QVERIFY(!ws.afterTimeline()->isHidden());
        QVERIFY(!ws.compareDock()->isHidden());
        QCOMPARE(ws.afterTimeline()->frame().lanes.size(), std::size_t(8));
        QTRY_VERIFY_WITH_TIMEOUT(ws.comparePanel()->comparison() != nullptr, 30000);
        const TraceComparison direct = compareTraces(before.compareInputs(), after.compareInputs());
        const TraceComparison& got = *ws.comparePanel()->comparison();
        QCOMPARE(got.kernels.items.size(), direct.kernels.items.size());
        QCOMPARE(got.kernels.afterNs, direct.kernels.afterNs);
        QCOMPARE(got.kernels.beforeNs, direct.kernels.beforeNs);
        QVERIFY(got.kernels.afterNs > got.kernels.beforeNs); // the slow fabric
        // Aligned: the same span measured from each set's start, whichever one moves.
        TimelineView* a = ws.timeline();
        TimelineView* b = ws.afterTimeline();
        a->setWindow(a->originNs() + 5'000'000, a->originNs() + 9'000'000);
        QCOMPARE(b->axis().startNs() - b->originNs(), std::int64_t(5'000'000));
        QCOMPARE(b->axis().endNs() - b->originNs(), std::int64_t(9'000'000));
        b->setWindow(b->originNs() + 1'000'000, b->originNs() + 2'000'000);
        QCOMPARE(a->axis().startNs() - a->originNs(), std::int64_t(1'000'000));
        // Closing returns to one timeline.
        ws.closeComparison();
        QVERIFY(ws.afterTimeline()->isHidden());
        QVERIFY(ws.compareDock()->isHidden());
        QVERIFY(ws.comparePanel()->comparison() == nullptr);
    }

    void compareImportsTheAfterSetOnAWorker() {
        QTemporaryDir beforeDir, afterDir;
        writeRanks(beforeDir.path(), TriageCase::Healthy, 4);
        writeRanks(afterDir.path(), TriageCase::BrokenOverlap, 4);
        MainWindow w;
        QVERIFY(openInWindow(w, {beforeDir.path()}));
        QSignalSpy compared(w.traces(), &TracesWorkspace::compareFinished);
        QVERIFY(w.traces()->compareWith({afterDir.path()}));
        const auto [ok, msg] = waitFor(compared);
        QVERIFY2(ok, qPrintable(msg));
        QCOMPARE(w.traces()->afterSet().traces.size(), std::size_t(4));
        QTRY_VERIFY_WITH_TIMEOUT(w.traces()->comparePanel()->comparison() != nullptr, 30000);
        QCOMPARE(w.traces()->comparePanel()->comparison()->after.ranks, 4);
    }

    void theSetsAndTheLayoutComeBackOnRestart() {
        QTemporaryDir beforeDir, afterDir;
        const QStringList files = writeRanks(beforeDir.path(), TriageCase::Straggler, 4);
        writeRanks(afterDir.path(), TriageCase::Healthy, 4);
        {
            MainWindow w;
            QVERIFY(openInWindow(w, {beforeDir.path()}));
            QSignalSpy compared(w.traces(), &TracesWorkspace::compareFinished);
            QVERIFY(w.traces()->compareWith({afterDir.path()}));
            QVERIFY(waitFor(compared).first);
            // Move the comparison to the left: the layout must come back so.
            w.traces()->addDockWidget(Qt::LeftDockWidgetArea, w.traces()->compareDock());
            w.close();
        }
        {
            MainWindow w;
            w.openInitial(findScenario("ring-allreduce"), 0, false);
            QSignalSpy imported(&w, &MainWindow::importFinished);
            QVERIFY(w.restoreTraces());
            QVERIFY(waitFor(imported).first);
            QVERIFY(w.isShowingTraces());
            QCOMPARE(w.traces()->set().traces.size(), std::size_t(4));
            QTRY_VERIFY_WITH_TIMEOUT(w.traces()->isComparing(), 30000);
            QCOMPARE(w.traces()->afterSet().traces.size(), std::size_t(4));
            QCOMPARE(w.traces()->dockWidgetArea(w.traces()->compareDock()), Qt::LeftDockWidgetArea);
        }
        // A file gone since: named in the dialog, the others open.
        QVERIFY(QFile::remove(files[2]));
        {
            MainWindow w;
            w.openInitial(findScenario("ring-allreduce"), 0, false);
            QSignalSpy imported(&w, &MainWindow::importFinished);
            QVERIFY(w.restoreTraces());
            QVERIFY(waitFor(imported).first);
            QCOMPARE(w.traces()->set().traces.size(), std::size_t(3));
            const auto* box = w.findChild<QMessageBox*>("importError");
            QVERIFY(box);
            QVERIFY2(box->informativeText().contains("rank_2.json"),
                     qPrintable(box->informativeText()));
        }
    }

    void openRecentReopensTheWholeSet() {
        QTemporaryDir dir;
        writeRanks(dir.path(), TriageCase::Healthy, 4);
        MainWindow w;
        QVERIFY(openInWindow(w, {dir.path()}));
        QSignalSpy imported(&w, &MainWindow::importFinished);
        w.closeImportedFiles();
        QVERIFY(!w.isShowingTraces());
        QVERIFY(!w.traces()->hasSet());
        QVERIFY(w.traces()->analysis() == nullptr); // nothing of the closed files stays
        QMenu* recent = nullptr;
        for (QMenu* m : w.menuBar()->findChildren<QMenu*>())
            if (m->title() == "Open &recent")
                recent = m;
        QVERIFY(recent);
        Q_EMIT recent->aboutToShow();
        QAction* entry = recent->actions().front();
        QVERIFY2(entry->text().contains("and 3 more"), qPrintable(entry->text()));
        entry->trigger();
        QVERIFY(waitFor(imported).first);
        QCOMPARE(w.traces()->set().traces.size(), std::size_t(4));
        QVERIFY(w.isShowingTraces());
        QCOMPARE(w.recentSets().size(), 1); // the same set, not a second entry
    }

    void whyThisVerdictOpensTheLessonOnTheseFiles() {
        QTemporaryDir dir;
        writeRanks(dir.path(), TriageCase::Straggler, 4);
        MainWindow w;
        QVERIFY(openInWindow(w, {dir.path()}));
        Q_EMIT w.traces()->explainRequested("slowdown-triage");
        QVERIFY(!w.isShowingTraces());
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("slowdown-triage"));
        const int step = firstImportedStep(w.session()->story());
        QVERIFY(step >= 0);
        QCOMPARE(w.playback()->step(), step);
        w.findChild<QAction*>("showTraces")->trigger();
        QVERIFY(w.isShowingTraces());
    }

    // The lesson's step keys are off while the workspace shows: → does not step the hidden
    // lesson; back in the lessons it steps again.
    void stepKeysLeaveTheHiddenLessonAlone() {
        QTemporaryDir dir;
        writeRanks(dir.path(), TriageCase::Straggler, 4);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openInWindow(w, {dir.path()}));
        QVERIFY(w.isShowingTraces());
        const int before = w.playback()->step();
        QTest::keyClick(&w, Qt::Key_Right);
        QTest::keyClick(&w, Qt::Key_End);
        QCOMPARE(w.playback()->step(), before);
        w.showLessons();
        w.playback()->goToStep(0, false);
        w.slide()->setFocus();
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(w.playback()->step(), 1);
    }

    void otherFormatsStillOpenTheirLessons() {
        const QString ncu = QString(WB_TEST_DATA) + "/import/ncu_rtx5070_saxpy.csv";
        MainWindow w;
        QVERIFY(openInWindow(w, {ncu}));
        QVERIFY(!w.isShowingTraces());
        QVERIFY(!w.findChild<QAction*>("showTraces")->isEnabled());
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("roofline"));
        // With traces open, a CSV still goes to its lesson, and the traces stay open.
        QTemporaryDir dir;
        writeRanks(dir.path(), TriageCase::Healthy, 2);
        QVERIFY(openInWindow(w, {dir.path()}));
        QVERIFY(w.isShowingTraces());
        QVERIFY(openInWindow(w, {ncu}));
        QVERIFY(!w.isShowingTraces());
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("roofline"));
        QCOMPARE(w.traces()->set().traces.size(), std::size_t(2));
        QVERIFY(w.findChild<QAction*>("showTraces")->isEnabled());
    }

    void panelsAndTheTimelineExport() {
        TracesWorkspace ws(nullptr, probePanels);
        ws.openSet(generatedSet(TriageCase::Straggler, 4));
        QTRY_VERIFY_WITH_TIMEOUT(ws.analysis() != nullptr, 30000);
        QTemporaryDir dir;
        QCOMPARE(ws.exportPanels(dir.path()), QString());
        for (const char* f : {"timeline.png", "timeline.svg", "heatmap.png", "heatmap.svg",
                              "kernels.png", "per_rank.csv"})
            QVERIFY2(QFileInfo::exists(dir.filePath(f)), f);
        const QImage timeline(dir.filePath("timeline.png"));
        QCOMPARE(timeline.size(), QSize(1920, 1080));
        QCOMPARE(QImage(dir.filePath("heatmap.png")).pixelColor(960, 540), QColor(Qt::darkCyan));
    }

    // Pictures of the workspace to look at (WB_SCREENSHOT_DIR set): 8 ranks, 1280×720 and
    // 1920×1080. Checked here: the timeline fills most of the window and shows every lane.
    void theWorkspaceRendersAtBothSizes() {
        QTemporaryDir dir;
        writeRanks(dir.path(), TriageCase::Straggler);
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            MainWindow w;
            w.openInitial(findScenario("ring-allreduce"), 0, false);
            w.resize(size);
            w.show();
            QSignalSpy imported(&w, &MainWindow::importFinished);
            QVERIFY(w.importFiles({dir.path()}));
            QVERIFY(waitFor(imported).first);
            QTRY_VERIFY_WITH_TIMEOUT(w.traces()->timeline()->frame().lanes[3].emphasis, 30000);
            const QImage shot = w.grab().toImage();
            QCOMPARE(shot.size(), size);
            TimelineView* tl = w.traces()->timeline();
            QVERIFY(tl->width() * tl->height() > size.width() * size.height() / 3);
            if (const QByteArray out = qgetenv("WB_SCREENSHOT_DIR"); !out.isEmpty())
                shot.save(QString("%1/workspace_%2x%3.png")
                              .arg(QString::fromLocal8Bit(out))
                              .arg(size.width())
                              .arg(size.height()));
        }
        // Docked panels and a comparison: the timelines keep most of the room.
        TracesWorkspace ws(nullptr, probePanels);
        ws.resize(1280, 720);
        ws.show();
        ws.openSet(generatedSet(TriageCase::Straggler));
        ws.setAfterSet(generatedSet(TriageCase::Healthy));
        QTRY_VERIFY_WITH_TIMEOUT(ws.comparePanel()->comparison() != nullptr, 30000);
        QVERIFY(ws.timeline()->height() >= 200 && ws.afterTimeline()->height() >= 200);
        QVERIFY(ws.timeline()->width() >= 640);
        if (const QByteArray out = qgetenv("WB_SCREENSHOT_DIR"); !out.isEmpty())
            ws.grab().save(QString::fromLocal8Bit(out) + "/workspace_compare_1280x720.png");
        // A scoped, highlighted view: the scope is named in the bar above the timelines.
        const auto [lo, hi] = timeSpan(ws.timeline()->frame());
        ws.timeline()->setSelection(lo + (hi - lo) / 3, lo + (hi - lo) / 2);
        ws.highlightKernel(QString::fromStdString(
            ws.analysis() ? ws.analysis()->kernels.top.front().name : std::string()));
        QTRY_VERIFY_WITH_TIMEOUT(ws.analysis() && ws.analysis()->range.bounded(), 30000);
        QVERIFY(ws.findChild<QLabel*>("traceScope")->text().contains("ms"));
        if (const QByteArray out = qgetenv("WB_SCREENSHOT_DIR"); !out.isEmpty())
            ws.grab().save(QString::fromLocal8Bit(out) + "/workspace_scoped_1280x720.png");
    }
};

QTEST_MAIN(TestTracesWorkspace)
#include "test_traces_workspace.moc"
