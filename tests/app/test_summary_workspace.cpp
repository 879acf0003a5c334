// A job summary (`*.wbsum.json`) in the window: it opens in the Traces workspace's summary
// mode on a worker thread (no timeline, the job named in the header, every panel fed from the
// summary), the heatmap's hottest row is the straggler's, a click on a rank names the file
// holding its timeline and opens it, a corrupt summary is refused with where it is wrong while
// what was open stays open, and the summary reopens on restart. With WB_SCREENSHOTS=<dir>, the
// workspace at 1280×720 and 1920×1080 with 8 and 16,384 ranks is saved there to look at.
#include "analysis/trace_analysis.h"
#include "main_window.h"
#include "summary/job_summarizer.h"
#include "summary/job_summary.h"
#include "summary/process_group.h"
#include "timeline/timeline_view.h"
#include "traces/step_heatmap_panel.h"
#include "traces/summary_distribution_view.h"
#include "traces/trace_panel.h"
#include "traces/traces_workspace.h"
#include "triage/kineto_trace_generator.h"

#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

using namespace wb;

namespace {

constexpr int kSwRanks = 8;
constexpr int kSwStraggler = 5;

// Rank r of a generated straggler job in rank-r.json, summarised into job.wbsum.json.
QString writeSummarisedJob(const QTemporaryDir& dir) {
    TraceGeneratorConfig cfg;
    cfg.triageCase = TriageCase::Straggler;
    cfg.ranks = kSwRanks;
    cfg.stragglerRank = kSwStraggler;
    cfg.seed = 11;
    const auto texts = generateKinetoTraces(cfg);
    for (std::size_t r = 0; r < texts.size(); ++r)
        std::ofstream(dir.filePath(QString("rank-%1.json").arg(r)).toStdString(), std::ios::binary)
            << texts[r];
    const QString out = dir.filePath("job.wbsum.json");
    SingleProcess one;
    std::ostringstream log;
    const int rc = runSummarizeJob(
        {.inputs = {dir.path().toStdString()}, .out = out.toStdString(), .toolVersion = "test"},
        one, log);
    return rc == 0 ? out : QString();
}

// The 8-rank summary widened to `ranks` ranks: rank r takes the figures of rank r % 8, but
// only the real straggler stays slow, so one hot rank sits among thousands.
QString writeWideSummary(const QString& from, const QString& out, int ranks) {
    const JobSummary small = readJobSummary(from.toStdString());
    JobSummary wide = small;
    wide.ranks.clear();
    wide.worldSize = ranks;
    const JobSummaryRank& calm = small.ranks[0];
    for (int r = 0; r < ranks; ++r) {
        JobSummaryRank rank = r == kSwStraggler ? small.ranks[kSwStraggler] : calm;
        rank.whole.rank = r;
        for (JobSummaryStep& s : rank.steps)
            s.figures.rank = r;
        rank.file = "rank-" + std::to_string(r) + ".json";
        wide.ranks.push_back(std::move(rank));
    }
    std::ofstream(out.toStdString(), std::ios::binary) << jobSummaryJson(wide).dump() << "\n";
    return out;
}

std::pair<bool, QString> waitForOpen(QSignalSpy& spy) {
    if (spy.isEmpty() && !spy.wait(60000))
        return {false, "timed out"};
    const auto args = spy.takeFirst();
    return {args.at(0).toBool(), args.at(1).toString()};
}

template <typename Panel> Panel* findPanel(const TracesWorkspace& ws) {
    for (AnalysisPanel* p : ws.panels())
        if (auto* found = dynamic_cast<Panel*>(p))
            return found;
    return nullptr;
}

// Red end of the heat scale (values in the top fifth or so): the straggler's compute.
bool swHot(QRgb c) {
    return qRed(c) > 180 && qGreen(c) < 100 && qBlue(c) < 100;
}

} // namespace

class TestSummaryWorkspace : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_summary;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("WarpboardSummaryWorkspaceTest");
        m_summary = writeSummarisedJob(m_dir);
        QVERIFY(!m_summary.isEmpty());
    }
    void init() { QSettings().clear(); }

    void aSummaryOpensInSummaryMode() {
        MainWindow w;
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({m_summary}));
        const auto [ok, msg] = waitForOpen(spy);
        QVERIFY2(ok, qPrintable(msg));
        QVERIFY2(msg.contains("job.wbsum.json") && msg.contains("straggler (rank 5)"),
                 qPrintable(msg));
        TracesWorkspace& ws = *w.traces();
        QVERIFY(w.isShowingTraces());
        QVERIFY(ws.isSummary());
        QVERIFY(ws.hasSet());
        QVERIFY(!ws.timeline()->isVisibleTo(&ws)); // a summary has no events to draw
        QVERIFY(ws.summaryHeader()->isVisibleTo(&ws));
        const QString head = ws.summaryHeader()->text();
        QVERIFY2(head.contains("8 ranks") && head.contains("Triage: straggler (rank 5)") &&
                     head.contains("warpboard-summarize test"),
                 qPrintable(head));
        const auto analysis = ws.analysis();
        QVERIFY(analysis && analysis->fromSummary);
        QCOMPARE(analysis->ranks.size(), std::size_t{kSwRanks});
        for (AnalysisPanel* p : ws.panels())
            if (auto* t = dynamic_cast<TracePanel*>(p))
                QVERIFY2(t->analysis() == analysis.get(), qPrintable(p->panelId()));
        // The distributions: in the compute histogram (the left half) only the straggler's bin
        // is past the threshold, drawn hot at the right end of the range.
        QVERIFY(ws.distributions()->isVisibleTo(&ws));
        QImage image(1280, 360, QImage::Format_RGB32);
        {
            QPainter painter(&image);
            ws.distributions()->paint(painter, QRectF(0, 0, 1280, 360));
        }
        // Bars are runs of the hot colour wider than the dashed threshold line, in the lower
        // half (the marks' labels are at the top).
        const QRgb hot = StepHeatmapPanel::heatColour(1.0).rgb();
        int hotRuns = 0, hotLeft = image.width();
        for (int y = image.height() / 2; y < image.height(); ++y)
            for (int x = 0, run = 0; x < image.width(); ++x) {
                run = image.pixel(x, y) == hot ? run + 1 : 0;
                if (run == 6) {
                    ++hotRuns;
                    hotLeft = std::min(hotLeft, x - 5);
                }
            }
        QVERIFY2(hotRuns > 0, "no hot bar");
        QVERIFY2(hotLeft > 640 * 3 / 4 && hotLeft < 640, qPrintable(QString::number(hotLeft)));
        // Open recent and the restart keep the summary, not its traces.
        const QString absolute = QFileInfo(m_summary).absoluteFilePath();
        QCOMPARE(w.recentSets().front(), QStringList{absolute});
        QCOMPARE(QSettings().value("traces/before").toStringList(), QStringList{absolute});
    }

    void theStragglersRowIsTheHottest() {
        MainWindow w;
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({m_summary}));
        QVERIFY(waitForOpen(spy).first);
        auto* heat = findPanel<StepHeatmapPanel>(*w.traces());
        QVERIFY(heat);
        heat->setMetric(HeatMetric::Compute);
        QImage image(1920, 1080, QImage::Format_RGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            heat->render(painter, QRectF(0, 0, 1920, 1080));
        }
        // The rows that are mostly red: one band (the legend's red end is far narrower).
        int y0 = -1, y1 = -1, x0 = -1;
        for (int y = 0; y < image.height(); ++y) {
            int n = 0, first = -1;
            for (int x = 0; x < image.width(); ++x)
                if (swHot(image.pixel(x, y))) {
                    ++n;
                    first = first < 0 ? x : first;
                }
            if (n > 300) {
                y0 = y0 < 0 ? y : y0;
                y1 = y;
                x0 = first;
            }
        }
        QVERIFY2(y0 >= 0, "no red row on the heatmap");
        const int h = y1 - y0 + 1;
        // Along the red cell's left edge, the map's cells reach up over 5 rows and down over 2:
        // the red row is rank 5's, the others are cool.
        const int x = x0 + 4;
        const QRgb background = image.pixel(0, image.height() - 1);
        int top = y0, bottom = y1;
        while (top > 0 && image.pixel(x, top - 1) != background)
            --top;
        while (bottom + 1 < image.height() && image.pixel(x, bottom + 1) != background)
            ++bottom;
        QVERIFY2(std::abs((y0 - top) - kSwStraggler * h) <= h / 4,
                 qPrintable(QString("top %1 red %2-%3").arg(top).arg(y0).arg(y1)));
        QVERIFY2(std::abs((bottom - y1) - (kSwRanks - 1 - kSwStraggler) * h) <= h / 4,
                 qPrintable(QString("bottom %1 red %2-%3").arg(bottom).arg(y0).arg(y1)));
        for (int r = 0; r < kSwRanks; ++r) {
            const QRgb c = image.pixel(x, top + r * h + 2);
            QVERIFY2(swHot(c) == (r == kSwStraggler), qPrintable(QString("rank %1").arg(r)));
        }
    }

    void aRankClickNamesItsFileAndOpensIt() {
        MainWindow w;
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({m_summary}));
        QVERIFY(waitForOpen(spy).first);
        TracesWorkspace& ws = *w.traces();
        QVERIFY(!ws.openRankButton()->isEnabled());
        auto* heat = findPanel<StepHeatmapPanel>(ws);
        Q_EMIT heat->rankActivated(kSwStraggler, 2);
        const QString file = m_dir.filePath("rank-5.json");
        QCOMPARE(ws.pickedRankFile(), file);
        const QString line = ws.rankFileLabel()->text();
        QVERIFY2(line.contains("rank 5 (ProfilerStep#2)") && line.contains(file), qPrintable(line));
        QVERIFY(ws.openRankButton()->isEnabled());
        QCOMPARE(ws.rankFile(99), QString()); // not in the summary
        // "Open its timeline": the rank's trace through the normal import, out of summary mode.
        QTest::mouseClick(ws.openRankButton(), Qt::LeftButton);
        const auto [ok, msg] = waitForOpen(spy);
        QVERIFY2(ok, qPrintable(msg));
        QVERIFY(!ws.isSummary());
        QCOMPARE(ws.set().traces.size(), std::size_t{1});
        QCOMPARE(QFileInfo(ws.set().paths.front()).absoluteFilePath(),
                 QFileInfo(file).absoluteFilePath());
    }

    void aCorruptSummaryIsRefusedAndWhatWasOpenStays() {
        MainWindow w;
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({m_summary}));
        QVERIFY(waitForOpen(spy).first);
        const auto before = w.traces()->analysis();
        const QString bad = m_dir.filePath("cut.wbsum.json");
        std::ofstream(bad.toStdString(), std::ios::binary)
            << "{\"format\": \"warpboard-job-summary\",\n \"version\": 1, \"ranks\": [";
        QVERIFY(w.importFiles({bad}));
        const auto [ok, msg] = waitForOpen(spy);
        QVERIFY(!ok);
        QVERIFY2(msg.contains("cut.wbsum.json") && msg.contains("line 2"), qPrintable(msg));
        QVERIFY(w.traces()->isSummary());
        QCOMPARE(w.traces()->summaryPath(), m_summary);
        QVERIFY(w.traces()->analysis() == before);
        const auto* box = w.findChild<QMessageBox*>("importError");
        QVERIFY(box);
        QVERIFY2(box->informativeText().contains("cut.wbsum.json"),
                 qPrintable(box->informativeText()));
        QCOMPARE(QSettings().value("traces/before").toStringList(),
                 QStringList{QFileInfo(m_summary).absoluteFilePath()});
    }

    void theSummaryReopensOnRestart() {
        {
            MainWindow w;
            QSignalSpy spy(&w, &MainWindow::importFinished);
            QVERIFY(w.importFiles({m_summary}));
            QVERIFY(waitForOpen(spy).first);
        }
        MainWindow w;
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.restoreTraces());
        QVERIFY(waitForOpen(spy).first);
        QVERIFY(w.traces()->isSummary());
        QCOMPARE(w.traces()->summaryPath(), QFileInfo(m_summary).absoluteFilePath());
    }

    // Every panel of a 16,384-rank summary paints, the heatmap within a frame's budget.
    void sixteenThousandRanksPaint() {
        const QString wide = writeWideSummary(m_summary, m_dir.filePath("wide.wbsum.json"), 16384);
        MainWindow w;
        QSignalSpy spy(&w, &MainWindow::importFinished);
        QVERIFY(w.importFiles({wide}));
        const auto [ok, msg] = waitForOpen(spy);
        QVERIFY2(ok, qPrintable(msg));
        QCOMPARE(w.traces()->analysis()->ranks.size(), std::size_t{16384});
        for (AnalysisPanel* p : w.traces()->panels()) {
            QImage image(1920, 1080, QImage::Format_RGB32);
            QElapsedTimer t;
            t.start();
            {
                QPainter painter(&image);
                p->render(painter, QRectF(0, 0, 1920, 1080));
            }
            qInfo("%s: %lld ms", qPrintable(p->panelId()), static_cast<long long>(t.elapsed()));
        }
        const QByteArray shots = qgetenv("WB_SCREENSHOTS");
        if (shots.isEmpty())
            return;
        for (const QString& path : {m_summary, wide}) {
            QVERIFY(w.importFiles({path}));
            QVERIFY(waitForOpen(spy).first);
            for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
                w.resize(size);
                w.show();
                QTest::qWait(100);
                w.grab().save(QString("%1/summary_%2_%3x%4.png")
                                  .arg(QString::fromLocal8Bit(shots), QFileInfo(path).baseName())
                                  .arg(size.width())
                                  .arg(size.height()));
            }
        }
    }
};

QTEST_MAIN(TestSummaryWorkspace)
#include "test_summary_workspace.moc"
