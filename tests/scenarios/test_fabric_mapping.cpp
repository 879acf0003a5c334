// fabric-mapping: a layout's traffic drawn on the cluster (rank coordinates, ring neighbours, flows
// inside or across nodes, link utilisation), the TP-across-nodes mistake costed by the same model,
// the best-layout search keeping TP inside the node for a dense model and ranking layouts that
// do not fit in HBM last, and words chosen by comparing values.
#include "parallel/layout_search.h"
#include "parallel/topology_frame_builder.h"
#include "roofline/roofline_model.h"
#include "scenario_test_helpers.h"

#include <QtTest>

using namespace wb;

namespace {

ParallelLayout layout(int tp, int pp, int dp, const char* order = "tp-pp-dp") {
    ParallelLayout l;
    l.tp = tp;
    l.pp = pp;
    l.dp = dp;
    l.zero = 1;
    l.order = parseRankOrder(order);
    return l;
}

TransformerConfig gpt3() {
    TransformerConfig m;
    m.layers = 96;
    m.hidden = 12288;
    m.heads = 96;
    m.params = 12.0 * 96 * 12288.0 * 12288.0;
    m.seq = 2048;
    m.globalBatch = 1536;
    return m;
}

ClusterTopology cluster(int nodes) {
    ClusterTopology t;
    t.nodes = nodes;
    return t;
}

const double kPeak = 989e12;

} // namespace

class TestFabricMapping : public QObject {
    Q_OBJECT
private slots:
    void coordinatesAndRingNeighbours() {
        const ParallelLayout l = layout(8, 4, 4);
        QCOMPARE(ringNext(l, 0, Strategy::TP), 1);
        QCOMPARE(ringNext(l, 7, Strategy::TP), 0); // the ring closes inside the group
        QCOMPARE(ringNext(l, 0, Strategy::PP), 8);
        QCOMPARE(ringNext(l, 24, Strategy::PP), 0);
        QCOMPARE(ringNext(l, 0, Strategy::DP), 32);
        QCOMPARE(coordinateOf(l, 8 + 32 + 3, Strategy::TP), 3);
        QCOMPARE(coordinateOf(l, 8 + 32 + 3, Strategy::PP), 1);
        QCOMPARE(coordinateOf(l, 8 + 32 + 3, Strategy::DP), 1);
        // DP fastest: TP neighbours are dp × pp ranks apart.
        const ParallelLayout wrong = layout(8, 4, 4, "dp-pp-tp");
        QCOMPARE(ringNext(wrong, 0, Strategy::TP), 16);
        QCOMPARE(ringNext(wrong, 0, Strategy::DP), 1);
    }

    void tpInsideTheNodeStaysOnNvlink() {
        const ClusterTopology t = cluster(16);
        const ParallelLayout good = layout(8, 4, 4);
        const ParallelLayout bad = layout(8, 4, 4, "dp-pp-tp");
        const StepEstimate eg = estimateStep(gpt3(), good, t, kPeak, 0.5);
        const StepEstimate eb = estimateStep(gpt3(), bad, t, kPeak, 0.5);
        const TopologyFrame fg = topologyFrame("good", t, good, eg, 0.0);
        const TopologyFrame fb = topologyFrame("bad", t, bad, eb, 0.0);
        int tpFlows = 0;
        for (const TopologyFlow& f : fg.flows)
            if (f.colorIndex == 0) {
                ++tpFlows;
                QCOMPARE(f.fromNode, f.toNode);
            }
        QVERIFY(tpFlows >= 8);
        bool crossing = false;
        for (const TopologyFlow& f : fb.flows)
            crossing = crossing || (f.colorIndex == 0 && f.fromNode != f.toNode);
        QVERIFY(crossing);
        // The NICs work much harder when TP crosses them, and the step blows up.
        QVERIFY(fb.nodes[0].gpus[0].nicUtil > 2 * fg.nodes[0].gpus[0].nicUtil);
        // TP's time grows by about NVLink ÷ NIC bandwidth (450 ÷ 50 GB/s), and the step with it.
        QVERIFY(eb.commS[0] > 8 * eg.commS[0]);
        QVERIFY(eb.stepS > 1.5 * eg.stepS);
        // Drawn nodes are bounded; the rest are counted.
        QVERIFY(fg.nodes.size() <= 8);
        QCOMPARE(fg.hiddenNodes, 16 - static_cast<int>(fg.nodes.size()));
        // Rates follow the bytes: the busiest class runs at the cap, the others below.
        double most = 0;
        for (const TopologyFlow& f : fg.flows)
            most = std::max(most, f.packetsPerS);
        QCOMPARE(most, TopologyDrawing{}.maxPacketsPerS);
        // Rank 0's TP group is highlighted in TP's colour.
        for (int g = 0; g < 8; ++g)
            QCOMPARE(fg.nodes[0].gpus[static_cast<std::size_t>(g)].highlight, 0);
    }

    void scenarioShowsTheMistakeAndTheBestLayout() {
        const Story story = wb::test::build("fabric-mapping");
        QCOMPARE(story.steps.size(), std::size_t{5});
        QCOMPARE(story.steps.back().title, std::string(kWhiteboardTitle));
        for (const Step& step : story.steps)
            QVERIFY(!step.frames(0.3).items.empty());
        QVERIFY(wb::test::first<TopologyFrame>(story.steps[0].frames(0.0)));
        // Packets move with playback.
        QVERIFY(!(story.steps[0].frames(0.1) == story.steps[0].frames(0.6)));
        // The mistake's title names the blow-up factor, computed by the model.
        QVERIFY(story.steps[2].title.find("TP across nodes") != std::string::npos);
        // The best layout keeps TP inside a node: TP ≤ 8 on consecutive ranks.
        const std::string best = story.steps[3].title;
        QVERIFY2(best.find("TP 8 ") != std::string::npos ||
                     best.find("TP 4 ") != std::string::npos ||
                     best.find("TP 2 ") != std::string::npos,
                 best.c_str());
        const auto picture = wb::test::first<TopologyFrame>(story.steps[3].frames(1.0));
        QVERIFY(picture);
        QVERIFY2(picture->title.find("(rank order TP,") != std::string::npos,
                 picture->title.c_str());
    }

    // DP's partners are the farthest ranks: its ring neighbour's node is drawn, so DP flows
    // are on the picture even when the pipeline's stages alone would fill it.
    void dataParallelTrafficIsDrawn() {
        const ClusterTopology t = cluster(128);
        const ParallelLayout l = layout(8, 8, 16);
        const TopologyFrame f = topologyFrame("", t, l, estimateStep(gpt3(), l, t, kPeak, 0.5), 0);
        int dpFlows = 0;
        for (const TopologyFlow& flow : f.flows)
            dpFlows += flow.colorIndex == 2 ? 1 : 0;
        QVERIFY(dpFlows >= 8);
    }

    // A layout whose share does not fit one GPU is flagged and never ranked best.
    void memoryDecidesWhatCanRun() {
        const Story story = wb::test::build("fabric-mapping", {{"nodes", "1"}, {"pp", "1"}});
        QVERIFY2(story.steps[0].title.find("does not fit") != std::string::npos,
                 story.steps[0].title.c_str());
        QVERIFY2(story.steps[3].title.find("No layout fits") != std::string::npos,
                 story.steps[3].title.c_str());
        const LayoutSearch s = searchLayouts(gpt3(), cluster(128), kPeak, 0.5, 1, 64, 80e9);
        QVERIFY(s.tooBig > 0);
        QVERIFY(s.ranked.front().fits);
        for (std::size_t i = 1; i < s.ranked.size(); ++i) {
            QVERIFY(s.ranked[i - 1].fits || !s.ranked[i].fits);
            if (s.ranked[i - 1].fits && s.ranked[i].fits)
                QVERIFY(s.ranked[i - 1].stepOverlappedS <= s.ranked[i].stepOverlappedS);
            if (!s.ranked[i - 1].fits) // the closest to fitting first
                QVERIFY(s.ranked[i - 1].memoryBytes <= s.ranked[i].memoryBytes);
        }
        const auto j = wb::test::runCalc("step", {{"params", "175e9"},
                                                  {"layers", "96"},
                                                  {"hidden", "12288"},
                                                  {"heads", "96"},
                                                  {"seq", "2048"},
                                                  {"micro-batch", "1"},
                                                  {"global-batch", "1536"},
                                                  {"tp", "8"}});
        QCOMPARE(j["fits_in_hbm"].get<bool>(), false);
        QVERIFY(j.contains("warning"));
    }

    // The link comparison is computed: a network as fast as NVLink is not "a ninth" of it.
    void linkWordsFollowTheBandwidths() {
        const Story near = wb::test::build("fabric-mapping", {{"network-gbs", "400"}});
        QVERIFY2(near.steps[2].narration.find("less bandwidth") == std::string::npos,
                 near.steps[2].narration.c_str());
        QVERIFY2(near.steps[2].narration.find("88.9 % of its NVLink bandwidth") !=
                     std::string::npos,
                 near.steps[2].narration.c_str());
        const Story same =
            wb::test::build("fabric-mapping", {{"network-gbs", "400"}, {"nvlink-gbs", "400"}});
        QVERIFY2(same.steps[2].narration.find("about as fast as NVLink") != std::string::npos,
                 same.steps[2].narration.c_str());
        const Story slow = wb::test::build("fabric-mapping");
        QVERIFY2(slow.steps[2].narration.find("9× less bandwidth") != std::string::npos,
                 slow.steps[2].narration.c_str());
    }

    void badLayoutsRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 wb::test::build("fabric-mapping", {{"tp", "3"}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 wb::test::build("fabric-mapping", {{"nodes", "3"}, {"pp", "16"}}));
    }
};

QTEST_APPLESS_MAIN(TestFabricMapping)
#include "test_fabric_mapping.moc"
