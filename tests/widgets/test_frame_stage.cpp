// FrameStage keeps one view per item, reuses it while the kind stays, lays the first item out
// large, and renders completely offscreen (charts included) for exports.
#include "charts/chart_view.h"
#include "charts/ladder_view.h"
#include "grids/memory_access_view.h"
#include "grids/sm_grid_view.h"
#include "grids/warp_lanes_view.h"
#include "render_probe.h"
#include "stage/frame_stage.h"
#include "stage/stage_layout.h"
#include "text/facts_view.h"
#include "timeline/issue_timeline_view.h"
#include "topology/ring_view.h"

#include <QTest>

using namespace wb;
using namespace wb::test;

namespace {

RingFrame ring() {
    RingFrame f;
    f.ranks = 4;
    f.holdings.assign(4, std::vector<ContributorMask>(4, 0));
    for (std::size_t r = 0; r < 4; ++r) {
        for (auto& m : f.holdings[r]) {
            m = ContributorMask{1} << r;
        }
    }
    f.bytesSent = {1e6, 1e6, 1e6, 1e6};
    f.bytesTarget = 3e6;
    f.phase = "all-gather";
    f.round = 1;
    f.roundsInPhase = 3;
    return f;
}

ChartFrame chart() {
    ChartFrame f;
    f.title = "Bus bandwidth";
    f.x = {"message size (B)", true, 1e3, 1e9};
    f.y = {"busbw (GB/s)", false, 0.0, 400.0};
    ChartSeries s;
    s.name = "ring";
    s.points = {{1e3, 5.0}, {1e6, 120.0}, {1e9, 360.0}};
    f.series = {s};
    f.footnote = "nccl-tests all_reduce_perf";
    return f;
}

FactsFrame facts() {
    FactsFrame f;
    f.title = "Numbers";
    f.rows = {{"Ranks", "4", "parameter", false}, {"busbw", "360 GB/s", "model", true}};
    return f;
}

Frames three() {
    return Frames{{ring(), chart(), facts()}};
}

// One small frame of each GPU-mechanics kind.
Frames gpuKinds() {
    WarpFrame warp;
    warp.title = "warp";
    warp.program = {"a", "b"};
    warp.pc = 1;
    warp.lanes.resize(32);
    warp.lanes[0].active = true;
    SmGridFrame grid;
    grid.smCount = 4;
    grid.maxBlocksPerSm = 2;
    grid.sms.resize(4);
    grid.sms[0].blocks = {0};
    grid.sms[0].subPartitionWarps = {1, 1, 0, 0};
    MemoryAccessFrame access;
    access.lanes.resize(32);
    access.sectors = {0};
    access.lines = {0};
    for (auto& lane : access.lanes) {
        lane.sector = 0;
    }
    LadderFrame ladder;
    ladder.levels = {{"L2", "50 MB", 260.0, 148.0, 12000.0, "src", "tip", true, "", ""}};
    IssueTimelineFrame timeline;
    timeline.cycles = 8;
    timeline.shownUpTo = 8;
    timeline.issued.assign(4, std::vector<int>(8, 0));
    return Frames{{warp, grid, access, ladder, timeline}};
}

} // namespace

class TestFrameStage : public QObject {
    Q_OBJECT
private slots:
    void layoutPutsTheFirstItemLarge() {
        const QRect area(0, 0, 1920, 1080);
        const std::vector<QRect> one = stageLayout(area, 1);
        QCOMPARE(one.size(), std::size_t{1});
        QVERIFY(one[0].width() > 1800 && one[0].height() > 1000);
        const std::vector<QRect> r = stageLayout(area, 3);
        QCOMPARE(r.size(), std::size_t{3});
        QVERIFY(std::abs(r[0].width() / 1920.0 - 0.6) < 0.03);
        QVERIFY(r[1].left() > r[0].right());
        QCOMPARE(r[1].left(), r[2].left());
        QVERIFY(r[2].top() > r[1].bottom());
        for (std::size_t a = 0; a < r.size(); ++a) {
            QVERIFY(area.contains(r[a]));
            for (std::size_t b = a + 1; b < r.size(); ++b) {
                QVERIFY(!r[a].intersects(r[b]));
            }
        }
        QVERIFY(stageLayout(area, 0).empty());
    }

    void gridGivesSmallMultiplesOneSize() {
        const QRect area(0, 0, 1280, 720);
        const std::vector<QRect> r = stageLayout(area, 4, Arrangement::Grid);
        QCOMPARE(r.size(), std::size_t{4});
        for (const QRect& cell : r) {
            QCOMPARE(cell.size(), r[0].size());
            QVERIFY(area.contains(cell));
        }
        QCOMPARE(r[1].top(), r[0].top()); // two by two
        QVERIFY(r[2].top() > r[0].bottom());
        QCOMPARE(r[2].left(), r[0].left());
        QVERIFY(r[0].width() > 600 && r[0].height() > 320);
        for (std::size_t a = 0; a < r.size(); ++a)
            for (std::size_t b = a + 1; b < r.size(); ++b)
                QVERIFY(!r[a].intersects(r[b]));
        const std::vector<QRect> three = stageLayout(area, 3, Arrangement::Grid);
        QCOMPARE(three.size(), std::size_t{3});
        QCOMPARE(three[2].top(), three[0].top()); // one row
        QCOMPARE(three[2].size(), three[0].size());
    }

    void naturalHeightsShapeTheColumn() {
        const QRect area(0, 0, 1280, 720);
        // A chart that fills beside a short table: the table gets its height, the chart the rest.
        const NaturalHeight shortTable = [](int index, int) { return index == 2 ? 150 : 0; };
        const std::vector<QRect> r = stageLayout(area, 3, Arrangement::Lead, shortTable);
        QCOMPARE(r[2].left(), r[1].left());
        QVERIFY(r[1].height() > r[2].height()); // not an equal split
        QVERIFY(r[2].height() >= 150);
        // Without natural heights the column is split evenly, as before.
        const std::vector<QRect> even = stageLayout(area, 3);
        QVERIFY(std::abs(even[1].height() - even[2].height()) <= 1);
        // Tables too tall together still get at least an equal share for the chart.
        const NaturalHeight tall = [](int index, int) { return index == 2 ? 5000 : 0; };
        const std::vector<QRect> squeezed = stageLayout(area, 3, Arrangement::Lead, tall);
        QVERIFY(squeezed[1].height() >= even[1].height() - 1);
    }

    void aShortLeadGoesAcrossTheTop() {
        const QRect area(0, 0, 1280, 720);
        // A two-row timeline (short at any width) beside a table: side by side leaves most of
        // the left empty, so the timeline goes across the top and the table below.
        const NaturalHeight rows = [](int index, int) { return index == 0 ? 240 : 200; };
        const std::vector<QRect> r = stageLayout(area, 2, Arrangement::Lead, rows);
        QVERIFY(r[0].width() > 1200);
        QCOMPARE(r[0].height(), 240);
        QVERIFY(r[1].top() > r[0].bottom());
        QVERIFY(stageWaste(r, rows) < stageWaste(stageLayout(area, 2), rows));
        // A lead that fills (a ring, a chart) keeps its place on the left whatever the rest.
        const NaturalHeight ring = [](int index, int) { return index == 0 ? 0 : 120; };
        const std::vector<QRect> kept = stageLayout(area, 2, Arrangement::Lead, ring);
        QVERIFY(kept[1].left() > kept[0].right());
        // A lead taller than the stage (16 ranks) beside a short table: the table goes under it.
        const NaturalHeight ranks = [](int index, int) { return index == 0 ? 1300 : 110; };
        const std::vector<QRect> under = stageLayout(area, 2, Arrangement::Lead, ranks);
        QVERIFY(under[1].top() > under[0].bottom());
        QVERIFY(under[1].height() >= 110);
        QVERIFY(under[0].height() > 720 / 2);
        // Waste is the empty part of the cells: a cell exactly as tall as its item wastes none.
        const NaturalHeight exact = [](int, int) { return 100; };
        QCOMPARE(stageWaste({QRect(0, 0, 10, 100)}, exact), 0.0);
        QCOMPARE(stageWaste({QRect(0, 0, 10, 400)}, exact), 0.75);
    }

    void oneViewPerItemReusedByKind() {
        FrameStage stage;
        stage.resize(1280, 720);
        stage.setFrames(three());
        QCOMPARE(stage.viewCount(), 3);
        QVERIFY(qobject_cast<RingView*>(stage.view(0)) != nullptr);
        QVERIFY(qobject_cast<ChartView*>(stage.view(1)) != nullptr);
        QVERIFY(qobject_cast<FactsView*>(stage.view(2)) != nullptr);
        QWidget* ringView = stage.view(0);
        QWidget* chartView = stage.view(1);

        Frames next = three();
        std::get<RingFrame>(next.items[0]).round = 2;
        next.items[2] = chart(); // facts -> chart: a new view there only
        stage.setFrames(next);
        QCOMPARE(stage.view(0), ringView);
        QCOMPARE(stage.view(1), chartView);
        QVERIFY(qobject_cast<ChartView*>(stage.view(2)) != nullptr);
        QCOMPARE(qobject_cast<RingView*>(ringView)->frame().round, 2);
        QCOMPARE(stage.frames(), next);

        stage.setFrames(Frames{{ring()}});
        QCOMPARE(stage.viewCount(), 1);
        QCOMPARE(stage.view(0), ringView);
        QCOMPARE(stage.view(0)->geometry(), stageLayout(stage.rect(), 1)[0]);
        QCOMPARE(stage.findChildren<ChartView*>().size(), 0);
    }

    void rendersEveryRegionOffscreen() {
        FrameStage stage;
        stage.setTheme(Theme::dark());
        stage.resize(1920, 1080);
        stage.setFrames(three()); // never shown: this is how exports render
        const QImage image = grabImage(stage);
        saveForHumans(image, QStringLiteral("stage_1080p_dark"));
        QCOMPARE(image.size(), QSize(1920, 1080));
        const QColor background = Theme::dark().background;
        // Regions as the stage laid them out (by the views' natural heights).
        std::vector<QRect> regions;
        for (int i = 0; i < stage.viewCount(); ++i)
            regions.push_back(stage.view(i)->geometry());
        for (std::size_t i = 0; i < regions.size(); ++i) {
            QVERIFY(stage.rect().contains(regions[i]));
            for (std::size_t j = i + 1; j < regions.size(); ++j)
                QVERIFY(!regions[i].intersects(regions[j]));
            const int ink = countNotNear(image, regions[i], background, 12);
            QVERIFY2(ink > regions[i].width() * regions[i].height() / 200,
                     qPrintable(QStringLiteral("region %1 nearly empty: %2").arg(i).arg(ink)));
        }
        // The chart's line is in the export, in its series colour.
        QVERIFY(countNear(image, regions[1], Theme::dark().seriesColor(0), 20) > 100);
        // Same frames, same pixels.
        QCOMPARE(grabImage(stage), image);
    }

    void gpuFrameKindsGetTheirViews() {
        FrameStage stage;
        stage.resize(1920, 1080);
        stage.setTheme(Theme::presentation(false));
        stage.setFrames(gpuKinds());
        QCOMPARE(stage.viewCount(), 5);
        QVERIFY(qobject_cast<WarpLanesView*>(stage.view(0)) != nullptr);
        QVERIFY(qobject_cast<SmGridView*>(stage.view(1)) != nullptr);
        QVERIFY(qobject_cast<MemoryAccessView*>(stage.view(2)) != nullptr);
        QVERIFY(qobject_cast<LadderView*>(stage.view(3)) != nullptr);
        QVERIFY(qobject_cast<IssueTimelineView*>(stage.view(4)) != nullptr);
        // Each view got the stage's theme on creation and on change.
        QCOMPARE(qobject_cast<LadderView*>(stage.view(3))->theme().fontScale, 1.4);
        stage.setTheme(Theme::dark());
        QVERIFY(qobject_cast<WarpLanesView*>(stage.view(0))->theme().isDark);
        QVERIFY(qobject_cast<SmGridView*>(stage.view(1))->theme().isDark);
        QVERIFY(qobject_cast<MemoryAccessView*>(stage.view(2))->theme().isDark);
        QVERIFY(qobject_cast<LadderView*>(stage.view(3))->theme().isDark);
        QVERIFY(qobject_cast<IssueTimelineView*>(stage.view(4))->theme().isDark);
        // Views are reused while the kind stays, replaced when it changes.
        QWidget* warpView = stage.view(0);
        Frames next = gpuKinds();
        std::get<WarpFrame>(next.items[0]).pc = 0;
        std::swap(next.items[3], next.items[4]);
        stage.setFrames(next);
        QCOMPARE(stage.view(0), warpView);
        QCOMPARE(qobject_cast<WarpLanesView*>(warpView)->frame().pc, 0);
        QVERIFY(qobject_cast<IssueTimelineView*>(stage.view(3)) != nullptr);
        QVERIFY(qobject_cast<LadderView*>(stage.view(4)) != nullptr);
        // Every region has ink.
        const QImage image = grabImage(stage);
        saveForHumans(image, QStringLiteral("stage_gpu_kinds_dark"));
        const std::vector<QRect> regions = stageLayout(stage.rect(), 5);
        for (const QRect& region : regions) {
            QVERIFY(countNotNear(image, region, Theme::dark().background, 12) > 200);
        }
    }

    void themeReachesEveryView() {
        FrameStage stage;
        stage.setFrames(three());
        stage.setTheme(Theme::presentation(true));
        QCOMPARE(qobject_cast<RingView*>(stage.view(0))->theme().fontScale, 1.4);
        QCOMPARE(qobject_cast<ChartView*>(stage.view(1))->theme().fontScale, 1.4);
        QCOMPARE(qobject_cast<FactsView*>(stage.view(2))->theme().fontScale, 1.4);
        stage.resize(1280, 720);
        stage.setFrames(Frames{{facts(), ring()}});
        QCOMPARE(qobject_cast<FactsView*>(stage.view(0))->theme().fontScale, 1.4);
        saveForHumans(grabImage(stage), QStringLiteral("stage_presentation"));
    }
};

QTEST_MAIN(TestFrameStage)
#include "test_frame_stage.moc"
