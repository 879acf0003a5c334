// The Traces workspace's analysis panels and comparison panel, rendered offscreen and checked
// against figures worked out here from the generated traces: the heatmap's straggler row is
// the hottest colour (8 ranks, and 1,024 ranks where rows are thinner than a pixel), the
// temporal bars' colour runs are proportional to the shares, clicks emit the rank / kernel /
// item under them, CSV exports are the bytes `analyze --csv` writes, PNG and SVG exports are
// valid, Cancel and "Why this verdict?" emit their signals, the lint finds nothing, and
// `warpboard analyze --png/--svg` writes every picture at 1920×1080.
#include "analysis/trace_analysis.h"
#include "analysis/trace_compare.h"
#include "cli/commands.h"
#include "cli/ranked_traces.h"
#include "cli_runner.h"
#include "import/chrome_trace_result.h"
#include "lint/paint_recorder.h"
#include "lint/panel_lint.h"
#include "traces/compare_panel.h"
#include "traces/kernel_panel.h"
#include "traces/panel_export.h"
#include "traces/panel_surface.h"
#include "traces/per_rank_panel.h"
#include "traces/step_heatmap_panel.h"
#include "traces/temporal_panel.h"
#include "traces/verdict_panel.h"
#include "triage/kineto_trace_generator.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <set>

namespace {

using namespace wb;

// A generated job: the traces (kept alive) and their analysis.
struct ApJob {
    std::vector<std::shared_ptr<const ChromeTraceResult>> traces;
    std::shared_ptr<const TraceAnalysis> analysis;
};

ApJob apJob(TriageCase c, int ranks, int straggler) {
    TraceGeneratorConfig config;
    config.triageCase = c;
    config.ranks = ranks;
    config.stragglerRank = straggler;
    ApJob job;
    job.traces = generateImportedTraces(config);
    std::vector<RankInput> inputs;
    for (std::size_t i = 0; i < job.traces.size(); ++i)
        inputs.push_back({.store = &job.traces[i]->store, .rank = static_cast<long>(i)});
    job.analysis = std::make_shared<const TraceAnalysis>(analyseTraces(inputs, {}, 0));
    return job;
}

// The docked page as the user sees it, painted at `size`; its hits are then those of this paint.
QImage apDocked(AnalysisPanel& panel, QSize size = {1280, 720}) {
    panel.resize(size);
    auto* surface = panel.findChild<PanelSurface*>();
    surface->resize(size.width() - 20, std::max(size.height(), surface->minimumHeight()));
    return surface->grab().toImage();
}

QImage apRendered(const AnalysisPanel& panel, QSize size = {1920, 1080}) {
    QImage image(size, QImage::Format_ARGB32);
    QPainter p(&image);
    panel.render(p, QRectF(QPointF(0, 0), size));
    return image;
}

int apColours(const QImage& image) {
    std::set<QRgb> seen;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            seen.insert(image.pixel(x, y));
    return static_cast<int>(seen.size());
}

QString apRead(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestAnalysisPanels : public QObject {
    Q_OBJECT
private slots:
    void everyPanelDocksInOrder() {
        QWidget parent;
        const auto panels = makeAnalysisPanels(&parent);
        QStringList ids;
        for (const AnalysisPanel* p : panels)
            ids << p->panelId();
        QCOMPARE(ids, QStringList({"per_rank", "step_heatmap", "temporal", "idle", "kernels",
                                   "launch_stats", "stragglers", "verdict"}));
    }

    void heatmapStragglerIsTheHottestRow() {
        const ApJob job = apJob(TriageCase::Straggler, 8, 5);
        StepHeatmapPanel panel;
        panel.setAnalysis(job.analysis);
        QCOMPARE(panel.metric(), HeatMetric::Compute);
        const QImage image = apDocked(panel);
        const auto& hits = panel.surface()->hits();
        QCOMPARE(hits.size(), std::size_t(8 * 3)); // 8 ranks × 3 steps, one cell each
        // The straggler computes 1.3× the others in every step: its cells are red, the rest
        // blue, and the largest value's colour is the scale's top.
        const QColor top = StepHeatmapPanel::heatColour(1.0);
        bool topSeen = false;
        for (const PanelHit& h : hits) {
            // Beside the value written in the cell's centre.
            const QColor c = image.pixelColor(
                QPoint(static_cast<int>(h.box.left()) + 3, static_cast<int>(h.box.center().y())));
            if (h.rank == 5) {
                QVERIFY2(c.red() > 180 && c.blue() < 90, qPrintable(c.name()));
                topSeen = topSeen || c == top;
            } else {
                QVERIFY2(c.blue() > c.red(), qPrintable(c.name()));
            }
        }
        QVERIFY(topSeen);
        // A click on a cell selects that rank and step.
        QSignalSpy spy(&panel, &AnalysisPanel::rankActivated);
        const PanelHit& cell = hits[5 * 3 + 1];
        QTest::mouseClick(panel.surface(), Qt::LeftButton, {}, cell.box.center().toPoint());
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy[0][0].toLongLong(), 5LL);
        QCOMPARE(spy[0][1].toInt(),
                 static_cast<int>(job.analysis->perRank[5].steps[1].step.number));
    }

    void heatmapShowsOneStragglerAmongThousand() {
        const ApJob job = apJob(TriageCase::Straggler, 1024, 700);
        StepHeatmapPanel panel;
        panel.setAnalysis(job.analysis);
        const QImage image = apDocked(panel);
        // Rows thinner than a band are pooled by their largest value: rank 700's band is red,
        // every other band blue.
        int red = 0, redBands = 0;
        for (const PanelHit& h : panel.surface()->hits()) {
            const QColor c = image.pixelColor(h.box.center().toPoint());
            const bool hot = c.red() > 180 && c.blue() < 90;
            red += hot;
            if (h.rank == 700)
                QVERIFY2(hot, qPrintable(c.name()));
            else
                QVERIFY2(!hot, qPrintable(QString::number(h.rank)));
            redBands += hot && h.step == job.analysis->perRank[700].steps[0].step.number;
        }
        QCOMPARE(redBands, 1);
        QCOMPARE(red, 3);
        QVERIFY(panel.surface()->hits().size() < 1024 * 3); // pooled, not one row per rank
        // The exported picture shows it too: its red band is at rank 700's height.
        const QImage out = apRendered(panel);
        int firstRed = -1, lastRed = -1, top = -1, bottom = -1;
        const int x = out.width() / 3;
        for (int y = 0; y < out.height(); ++y) {
            const QColor c = out.pixelColor(x, y);
            const bool cell = c.blue() > c.red() + 40 || (c.red() > 180 && c.blue() < 90);
            if (cell && top < 0)
                top = y;
            if (cell)
                bottom = y;
            if (c.red() > 180 && c.blue() < 90) {
                lastRed = y;
                if (firstRed < 0)
                    firstRed = y;
            }
        }
        QVERIFY(firstRed > 0);
        QVERIFY(lastRed - firstRed <= 4);
        const double at = 1024.0 * (firstRed - top) / (bottom - top + 1);
        QVERIFY2(std::abs(at - 700.0) < 6.0, qPrintable(QString::number(at)));
    }

    void temporalBarsAreProportional() {
        const ApJob job = apJob(TriageCase::Straggler, 4, 3);
        TemporalPanel panel;
        panel.setAnalysis(job.analysis);
        const QImage image = apDocked(panel);
        const Theme theme = Theme::light();
        const auto& hits = panel.surface()->hits();
        QCOMPARE(hits.size(), std::size_t(4));
        for (const PanelHit& h : hits) {
            // Shares worked out here from the per-rank figures: compute ÷ window.
            const RankFigures& f = job.analysis->perRank[static_cast<std::size_t>(h.rank)].whole;
            const double compute = f.computeUs / f.windowUs;
            const double idle = f.idleUs / f.windowUs;
            int nCompute = 0, nOther = 0, nIdle = 0;
            const int y = static_cast<int>(h.box.center().y());
            const QColor idleColour = mixColors(theme.muted, theme.background, 0.35);
            for (int x = static_cast<int>(h.box.left()); x < static_cast<int>(h.box.right()); ++x) {
                const QColor c = image.pixelColor(x, y);
                nCompute += c == theme.seriesColor(0);
                nOther += c == theme.seriesColor(1);
                nIdle += c == idleColour;
            }
            const double total = nCompute + nOther + nIdle;
            QVERIFY(total > 200);
            QVERIFY2(std::abs(nCompute / total - compute) < 0.01,
                     qPrintable(QString("%1 vs %2").arg(nCompute / total).arg(compute)));
            QVERIFY(std::abs(nIdle / total - idle) < 0.01);
        }
    }

    void kernelClickSelectsTheTopKernel() {
        const ApJob job = apJob(TriageCase::Healthy, 2, 0);
        // The kernel with the most GPU time, summed here over both ranks' events.
        std::map<std::string, std::int64_t> total;
        for (const auto& t : job.traces)
            for (const StoredEvent& e : t->store.events())
                if (e.kind == EventKind::Kernel || e.kind == EventKind::CommKernel)
                    total[std::string(t->store.strings().text(e.name))] += e.durNs;
        const auto most = std::max_element(total.begin(), total.end(),
                                           [](auto& a, auto& b) { return a.second < b.second; });
        KernelPanel panel;
        panel.setAnalysis(job.analysis);
        apDocked(panel);
        const auto& hits = panel.surface()->hits();
        QVERIFY(!hits.empty());
        QSignalSpy spy(&panel, &AnalysisPanel::kernelActivated);
        QTest::mouseClick(panel.surface(), Qt::LeftButton, {}, hits[0].box.center().toPoint());
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy[0][0].toString().toStdString(), most->first);
    }

    void perRankRowSelectsItsRank() {
        const ApJob job = apJob(TriageCase::Healthy, 3, 0);
        PerRankPanel panel;
        panel.setAnalysis(job.analysis);
        apDocked(panel);
        QSignalSpy spy(&panel, &AnalysisPanel::rankActivated);
        const auto& hits = panel.surface()->hits();
        QCOMPARE(hits.size(), std::size_t(3 + 3 * 3)); // ranks, then rank × step rows
        QTest::mouseClick(panel.surface(), Qt::LeftButton, {}, hits[2].box.center().toPoint());
        QTest::mouseClick(panel.surface(), Qt::LeftButton, {}, hits[3 + 4].box.center().toPoint());
        QCOMPARE(spy.size(), 2);
        QCOMPARE(spy[0][0].toLongLong(), 2LL);
        QCOMPARE(spy[0][1].toInt(), -1);
        QCOMPARE(spy[1][0].toLongLong(), 1LL); // rank 1's second step
        QCOMPARE(spy[1][1].toInt(),
                 static_cast<int>(job.analysis->perRank[1].steps[1].step.number));
    }

    void csvExportIsWhatAnalyzeWrites() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TraceGeneratorConfig config;
        config.triageCase = TriageCase::Straggler;
        config.ranks = 3;
        config.stragglerRank = 1;
        int k = 0;
        for (const std::string& text : generateKinetoTraces(config)) {
            QFile f(dir.filePath(QString("traces/rank-%1.json").arg(k++)));
            QDir().mkpath(dir.filePath("traces"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.data(), static_cast<qint64>(text.size()));
        }
        // The analysis as the workspace gets it: the same import and ranking as the CLI.
        const cli::ImportOutcome outcome = cli::importAll({dir.filePath("traces").toStdString()});
        const cli::RankedTraces ranked = cli::rankTraces(outcome);
        std::vector<RankInput> inputs;
        for (const auto* t : ranked.traces)
            inputs.push_back({.store = &t->store, .rank = *t->rank});
        QWidget parent;
        const auto analysis =
            std::make_shared<const TraceAnalysis>(analyseTraces(inputs, {}, ranked.worldSize));
        QCOMPARE(cli::runAnalyze({dir.filePath("traces").toStdString(), "--json", "--csv",
                                  dir.filePath("cli").toStdString()}),
                 0);
        std::set<std::string> ids;
        for (AnalysisPanel* panel : makeAnalysisPanels(&parent)) {
            panel->setAnalysis(analysis);
            const PanelExport out = exportPanel(*panel, dir.filePath("panels"), PanelCsv);
            QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
            QCOMPARE(out.written.size(), static_cast<qsizetype>(panel->tables().size()));
            for (const AnalysisTable& t : panel->tables()) {
                const QString name = QString::fromStdString(t.id) + ".csv";
                const QString mine = apRead(dir.filePath("panels/" + name));
                QCOMPARE(mine, QString::fromStdString(t.csv()));
                QCOMPARE(mine, apRead(dir.filePath("cli/" + name)));
                ids.insert(t.id);
            }
        }
        // Every table of the report is in a panel (per_step in two: per rank and heatmap).
        std::set<std::string> all;
        for (const AnalysisTable& t : analysis->tables())
            all.insert(t.id);
        QCOMPARE(ids, all);
    }

    void pictureExportsAreValid() {
        const ApJob job = apJob(TriageCase::Straggler, 4, 2);
        QTemporaryDir dir;
        QWidget parent;
        for (AnalysisPanel* panel : makeAnalysisPanels(&parent)) {
            panel->setAnalysis(job.analysis);
            const PanelExport out = exportPanel(*panel, dir.path(), PanelPng | PanelSvg);
            QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
            QCOMPARE(out.written.size(), 2);
            const QImage png(dir.filePath(panel->panelId() + ".png"));
            QCOMPARE(png.size(), QSize(1920, 1080));
            QVERIFY2(apColours(png) > 3, qPrintable(panel->panelId()));
            QSvgRenderer svg(dir.filePath(panel->panelId() + ".svg"));
            QVERIFY(svg.isValid());
            QCOMPARE(svg.viewBoxF(), QRectF(0, 0, 1920, 1080));
            QVERIFY(apRead(dir.filePath(panel->panelId() + ".svg")).contains("<text"));
        }
    }

    void progressShowsCancel() {
        PerRankPanel panel;
        panel.resize(600, 400);
        QSignalSpy spy(&panel, &AnalysisPanel::cancelRequested);
        panel.setProgress(0.4);
        QVERIFY(panel.cancelButton()->isVisibleTo(&panel));
        QCOMPARE(panel.progressBar()->value(), 400);
        QTest::mouseClick(panel.cancelButton(), Qt::LeftButton);
        QCOMPARE(spy.size(), 1);
        panel.setProgress(-1.0);
        QVERIFY(!panel.cancelButton()->isVisibleTo(&panel));
    }

    void nothingOpenSaysWhatToDo() {
        QWidget parent;
        for (AnalysisPanel* panel : makeAnalysisPanels(&parent)) {
            PaintRecorder recorder(QSize(1280, 720));
            {
                QPainter p(&recorder);
                panel->render(p, QRectF(0, 0, 1280, 720));
            }
            bool says = false;
            for (const RecordedText& t : recorder.record().texts)
                says = says || t.text.startsWith("Open traces to see");
            QVERIFY2(says, qPrintable(panel->panelId()));
        }
    }

    void verdictExplains() {
        const ApJob job = apJob(TriageCase::Straggler, 4, 2);
        VerdictPanel panel;
        panel.setAnalysis(job.analysis);
        QSignalSpy spy(&panel, &AnalysisPanel::explainRequested);
        QTest::mouseClick(panel.explainButton(), Qt::LeftButton);
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy[0][0].toString(), QString("slowdown-triage"));
        PaintRecorder recorder(QSize(1920, 1080));
        {
            QPainter p(&recorder);
            panel.render(p, QRectF(0, 0, 1920, 1080));
        }
        bool verdict = false;
        for (const RecordedText& t : recorder.record().texts)
            verdict = verdict || t.text == QString("Verdict: straggler (rank 2)");
        QVERIFY(verdict);
    }

    void compareRowsAndClick() {
        const ApJob before = apJob(TriageCase::Healthy, 2, 0);
        const ApJob after = apJob(TriageCase::Fabric, 4, 0);
        std::vector<CompareInput> b, a;
        for (const auto& t : before.traces)
            b.push_back({t->path, &t->store});
        for (const auto& t : after.traces)
            a.push_back({t->path, &t->store});
        auto comparison = std::make_shared<const TraceComparison>(compareTraces(b, a));
        QVERIFY(comparison->perRankAverage);
        QVERIFY(!comparison->kernels.items.empty());
        ComparePanel panel;
        panel.setComparison(comparison);
        panel.resize(1280, 720);
        auto* surface = panel.surface();
        surface->resize(1260, std::max(720, surface->minimumHeight()));
        surface->grab();
        const auto& hits = surface->hits();
        QCOMPARE(hits.size(),
                 comparison->kernels.items.size() + comparison->operators.items.size());
        QSignalSpy spy(&panel, &ComparePanel::itemActivated);
        QTest::mouseClick(surface, Qt::LeftButton, {}, hits[0].box.center().toPoint());
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy[0][0].toString().toStdString(), comparison->kernels.items[0].name);
        // The picture names the per-rank basis.
        PaintRecorder recorder(QSize(1920, 1080));
        {
            QPainter p(&recorder);
            panel.render(p, QRectF(0, 0, 1920, 1080));
        }
        bool basis = false;
        for (const RecordedText& t : recorder.record().texts)
            basis = basis || t.text.contains("per-rank averages (2 ranks before, 4 after)");
        QVERIFY(basis);
    }

    void lintFindsNothing() {
        const auto findings = lintPanels({QSize(1280, 720), QSize(1920, 1080)});
        for (const SlideFinding& f : findings)
            qWarning() << f.scenario.c_str() << f.params.c_str() << f.size
                       << lintKindName(f.finding.kind) << f.finding.text;
        QVERIFY(findings.empty());
        // And it read something: the heatmap at 1280×720 draws text, none under 10 px.
        const ApJob job = apJob(TriageCase::Straggler, 8, 7);
        StepHeatmapPanel panel;
        panel.setAnalysis(job.analysis);
        PaintRecorder recorder(QSize(1280, 720));
        {
            QPainter p(&recorder);
            panel.render(p, QRectF(0, 0, 1280, 720));
        }
        QVERIFY(recorder.record().texts.size() > 10);
        for (const RecordedText& t : recorder.record().texts)
            QVERIFY2(t.px >= 10.0, qPrintable(t.text));
    }

    void analyzeWritesPictures() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto gen = wb::test::runWarpboard(
            {"import", "--generate", "straggler", "--out", dir.filePath("traces"), "--ranks", "4"});
        QCOMPARE(gen.code, 0);
        const auto r =
            wb::test::runWarpboard({"analyze", dir.filePath("traces"), "--png", dir.filePath("png"),
                                    "--svg", dir.filePath("svg"), "--theme", "dark"});
        QCOMPARE(r.code, 0);
        const QStringList stems = {"timeline", "per_rank",     "step_heatmap", "temporal", "idle",
                                   "kernels",  "launch_stats", "stragglers",   "verdict"};
        for (const QString& stem : stems) {
            QVERIFY2(r.out.contains(
                         QString("wrote %1").arg(dir.filePath("png/" + stem + ".png")).toUtf8()),
                     qPrintable(stem));
            const QImage png(dir.filePath("png/" + stem + ".png"));
            QCOMPARE(png.size(), QSize(1920, 1080));
            QVERIFY2(apColours(png) > 3, qPrintable(stem));
            QCOMPARE(png.pixelColor(2, 2), Theme::dark().background);
            QVERIFY(QSvgRenderer(dir.filePath("svg/" + stem + ".svg")).isValid());
        }
        const auto cmp =
            wb::test::runWarpboard({"analyze", "--compare", dir.filePath("traces"),
                                    dir.filePath("traces"), "--png", dir.filePath("cmp")});
        QCOMPARE(cmp.code, 0);
        QCOMPARE(QImage(dir.filePath("cmp/compare.png")).size(), QSize(1920, 1080));
        const auto bad = wb::test::runWarpboard({"analyze", dir.filePath("traces"), "--png"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("--png needs a folder"));
    }
};

QTEST_MAIN(TestAnalysisPanels)
#include "test_analysis_panels.moc"
