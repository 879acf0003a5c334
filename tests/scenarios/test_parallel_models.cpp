// The parallelism models against the papers' formulas (FACTS.md §3, §6, §7, §9): pipeline
// bubbles, TP/PP/DP traffic and ZeRO volumes, 6ND, collectives inside a node and across
// nodes, and the calc JSON built on them.
#include "calc/calc_models.h"
#include "collectives/collective_cost.h"
#include "parallel/cluster_topology.h"
#include "parallel/layout_search.h"
#include "parallel/pipeline_schedule.h"
#include "parallel/transformer_step.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <cmath>

using namespace wb;

namespace {

bool near(double a, double b, double rel = 1e-9) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

using wb::test::runCalc;

ClusterTopology nodes(int n) {
    ClusterTopology t;
    t.nodes = n;
    return t;
}

// A 7B-ish model: 32 layers, h = 4096, 32 heads, s = 4096, b = 1, G = 512.
TransformerConfig model7b() {
    TransformerConfig m;
    m.params = 7e9;
    m.layers = 32;
    m.hidden = 4096;
    m.heads = 32;
    m.seq = 4096;
    m.microBatch = 1;
    m.globalBatch = 512;
    return m;
}

const Traffic* trafficOf(const StepEstimate& e, Strategy s) {
    for (const auto& t : e.traffic)
        if (t.strategy == s)
            return &t;
    return nullptr;
}

double bytesOf(const StepEstimate& e, Strategy s) {
    double b = 0;
    for (const auto& t : e.traffic)
        if (t.strategy == s)
            b += t.bytesPerStep();
    return b;
}

} // namespace

class TestParallelModels : public QObject {
    Q_OBJECT
private slots:
    void bubbleFractions() {
        // Megatron: (P−1)/(V·M); GPipe quotes the same bubble over total time (P−1)/(M+P−1).
        QCOMPARE(pipelineBubble(4, 8).ofIdeal, 3.0 / 8.0);
        QCOMPARE(pipelineBubble(4, 8).ofTotal, 3.0 / 11.0);
        QCOMPARE(pipelineBubble(4, 8, 2).ofIdeal, 3.0 / 16.0);
        QCOMPARE(pipelineBubble(1, 5).ofIdeal, 0.0);
        // "negligible when M ≥ 4×K": 8 stages, 32 micro-batches → under 18 % of the total.
        QVERIFY(pipelineBubble(8, 32).ofTotal < 0.18);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pipelineBubble(0, 8));
        const auto j =
            runCalc("pipeline", {{"stages", "4"}, {"microbatches", "8"}, {"interleave", "2"}});
        QCOMPARE(j["bubble_fraction"].get<double>(), 3.0 / 16.0);
    }
    void sixNDAndMegatronFlops() {
        const TransformerConfig m = model7b();
        ParallelLayout l;
        l.tp = 8;
        const StepEstimate e = estimateStep(m, l, nodes(1), 989e12, 0.5);
        QCOMPARE(e.flops6nd, 6.0 * 7e9 * 512 * 4096);
        const double h = 4096, s = 4096, L = 32, G = 512;
        QVERIFY(near(e.flopsMegatron, 96 * G * s * L * h * h * (1 + s / (6 * h))));
    }
    void tensorParallelBytesPerLayer() {
        // Megatron §3.2: 4 all-reduces of b·s·h values per layer per micro-batch; 8bsh(t−1)/t
        // values sent per device per layer.
        const TransformerConfig m = model7b();
        ParallelLayout l;
        l.tp = 8;
        const StepEstimate e = estimateStep(m, l, nodes(1), 989e12, 0.5);
        const Traffic* tp = trafficOf(e, Strategy::TP);
        QVERIFY(tp);
        QCOMPARE(tp->bytes, 1.0 * 4096 * 4096 * 2);
        QCOMPARE(tp->count, 4LL * 32 * 512);                               // M = G/(b·d) = 512
        const double perLayerPerMicro = 8.0 * 4096 * 4096 * 7.0 / 8.0 * 2; // bytes
        QVERIFY(near(tp->bytesPerStep(), perLayerPerMicro * 32 * 512));
        QVERIFY(tp->cost.span.bottleneck == LinkClass::NvLink);
    }
    void zeroVolumes() {
        // ZeRO §7: DP 2Ψ, ZeRO-1/2 2Ψ, ZeRO-3 3Ψ (times (d−1)/d on a ring).
        TransformerConfig m = model7b();
        m.globalBatch = 64;
        auto dpBytes = [&](int zero) {
            ParallelLayout l;
            l.dp = 64;
            l.zero = zero;
            return bytesOf(estimateStep(m, l, nodes(8), 989e12, 0.5), Strategy::DP);
        };
        const double psiBytes = 7e9 * 2; // BF16 gradients
        QVERIFY(near(dpBytes(0), 2 * psiBytes * 63.0 / 64.0));
        QVERIFY(near(dpBytes(1), dpBytes(0)));
        QVERIFY(near(dpBytes(2), dpBytes(0)));
        QVERIFY(near(dpBytes(3), 1.5 * dpBytes(0)));
        // Model states per GPU (§3.1 and Figure 1's formulas): 16Ψ → 4Ψ + 12Ψ/N_d ...
        ParallelLayout l;
        l.dp = 64;
        l.zero = 3;
        QVERIFY(
            near(estimateStep(m, l, nodes(8), 989e12, 0.5).modelStateBytesPerGpu, 16 * 7e9 / 64));
    }
    void activationsFollowKorthikanti() {
        const TransformerConfig m = model7b();
        ParallelLayout l;
        l.tp = 8;
        const StepEstimate e = estimateStep(m, l, nodes(1), 989e12, 0.5);
        const double sbh = 4096.0 * 1 * 4096;
        QVERIFY(near(e.activationBytesPerGpu, sbh * 32 / 8 * (34 + 5.0 * 32 * 4096 / 4096)));
    }
    void collectivesInsideAndAcrossNodes() {
        const ClusterTopology two = nodes(2);
        const double K = 1e9;
        const auto inNode = clusterCollective(two, Collective::AllReduce, {0, 8, 1}, K);
        const auto across = clusterCollective(two, Collective::AllReduce, {0, 16, 1}, K);
        QVERIFY(inNode.span.bottleneck == LinkClass::NvLink);
        QVERIFY(across.span.bottleneck == LinkClass::Network);
        // The ring functions, called on the group's link, not re-derived.
        const auto ring = allReduceCost(AllReduceAlgorithm::Ring, 8, K, {2e-6, 450e9});
        QCOMPARE(inNode.cost.timeS, ring.timeS);
        QVERIFY(across.cost.timeS > 5 * inNode.cost.timeS);
        // Large messages: busbw approaches the bottleneck link's rate (nccl-tests' intent).
        const auto big = clusterCollective(two, Collective::AllReduce, {0, 16, 1}, 1e12);
        QVERIFY(near(big.cost.busbwBytesPerS, 50e9, 1e-3));
        const auto ag = clusterCollective(two, Collective::AllGather, {0, 16, 1}, 1e12);
        QVERIFY(near(ag.cost.busbwBytesPerS, 50e9, 1e-3));
        // A group spread one GPU per node also crosses the network.
        QVERIFY(spanOf(two, {0, 2, 8}).bottleneck == LinkClass::Network);
        // Beyond one leaf the spine's oversubscription divides the NIC rate.
        ClusterTopology wide = nodes(32);
        wide.oversubscription = 2.0;
        QCOMPARE(spanOf(wide, {0, 128, 1}).link.bandwidthBytesPerS, 50e9);
        QCOMPARE(spanOf(wide, {0, 256, 1}).link.bandwidthBytesPerS, 25e9);
    }
    void allToAllSplitsNvlinkAndNetwork() {
        const auto c = clusterCollective(nodes(2), Collective::AllToAll, {0, 16, 1}, 16e9);
        // Each rank sends 1 GB to each of 15 peers: 7 in its node, 8 over its 50 GB/s NIC.
        QVERIFY(near(c.cost.bandwidthS, 8e9 / 50e9));
        QVERIFY(c.span.bottleneck == LinkClass::Network);
    }
    void tensorParallelAcrossNodesBlowsUp() {
        TransformerConfig m = model7b();
        m.globalBatch = 64;
        ParallelLayout good;
        good.tp = 8;
        good.dp = 8;
        ParallelLayout bad = good;
        bad.order = {Strategy::DP, Strategy::PP, Strategy::TP}; // TP ranks 8 apart: other nodes
        const StepEstimate g = estimateStep(m, good, nodes(8), 989e12, 0.5);
        const StepEstimate b = estimateStep(m, bad, nodes(8), 989e12, 0.5);
        QVERIFY(trafficOf(b, Strategy::TP)->cost.span.bottleneck == LinkClass::Network);
        QVERIFY(b.commS[0] > 5 * g.commS[0]);
        QVERIFY(b.stepS > 2 * g.stepS);
        QVERIFY(b.mfu < g.mfu);
    }
    void mfuIsEfficiencyWithoutCommunication() {
        TransformerConfig m = model7b();
        m.globalBatch = 8;
        ClusterTopology one;
        one.gpusPerNode = 1;
        const StepEstimate e = estimateStep(m, ParallelLayout{}, one, 989e12, 0.4);
        QVERIFY(e.traffic.empty());
        QVERIFY(near(e.mfu, 0.4));
    }
    void badLayoutsAreRefused() {
        const TransformerConfig m = model7b();
        ParallelLayout l;
        l.tp = 8;
        l.dp = 3; // 24 GPUs on a 16-GPU cluster
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimateStep(m, l, nodes(2), 989e12, 0.5));
        l.tp = 16;
        l.dp = 1;
        TransformerConfig odd = m;
        odd.heads = 24; // not divisible by 16
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 estimateStep(odd, l, nodes(2), 989e12, 0.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseTopology("nodes=2,network_gbs=0"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseTopology("gpus_per_node=8"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseTopology("nodes=2,color=blue"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRankOrder("tp-tp-dp"));
        QVERIFY(parseRankOrder("dp-tp-pp") ==
                (std::vector<Strategy>{Strategy::DP, Strategy::TP, Strategy::PP}));
        QVERIFY_THROWS_EXCEPTION(CalcError, runCalc("step", {{"params", "7e9"},
                                                             {"layers", "32"},
                                                             {"hidden", "4096"},
                                                             {"heads", "32"},
                                                             {"seq", "4096"},
                                                             {"micro-batch", "1"},
                                                             {"global-batch", "512"},
                                                             {"tp", "3"},
                                                             {"pp", "1"},
                                                             {"dp", "1"}}));
    }
    void bestLayoutKeepsTensorParallelInsideTheNode() {
        // A dense 70B-class model on 4,096 GPUs (512 nodes of 8).
        TransformerConfig m;
        m.params = 70e9;
        m.layers = 80;
        m.hidden = 8192;
        m.heads = 64;
        m.seq = 4096;
        m.microBatch = 1;
        m.globalBatch = 2048;
        const LayoutSearch s = searchLayouts(m, nodes(512), 989e12, 0.5);
        QVERIFY(s.evaluated > 20);
        const ParallelLayout& best = s.ranked.front().layout;
        QCOMPARE(best.gpus(), 4096);
        QVERIFY(best.tp > 1); // a 70B model wants some TP
        // TP's group lies inside one node: consecutive ranks, at most 8 of them.
        QVERIFY(best.tp <= 8);
        QVERIFY(spanOf(nodes(512), {0, best.tp, best.stride(Strategy::TP)}).nodes == 1);
        // And every layout with TP across nodes is slower than the best.
        for (const auto& c : s.ranked)
            if (spanOf(nodes(512), {0, c.layout.tp, c.layout.stride(Strategy::TP)}).nodes > 1)
                QVERIFY(c.stepS > s.ranked.front().stepS);
    }
    void calcStepAndCollectiveJson() {
        const auto j = runCalc("step", {{"params", "7e9"},
                                        {"layers", "32"},
                                        {"hidden", "4096"},
                                        {"heads", "32"},
                                        {"seq", "4096"},
                                        {"micro-batch", "1"},
                                        {"global-batch", "512"},
                                        {"tp", "8"},
                                        {"pp", "2"},
                                        {"dp", "4"}});
        QCOMPARE(j["flops_per_step"].get<double>(), 6.0 * 7e9 * 512 * 4096);
        QCOMPARE(j["tp"]["link"].get<std::string>(), std::string("nvlink"));
        QCOMPARE(j["pp"]["link"].get<std::string>(), std::string("network"));
        QCOMPARE(j["dp"]["link"].get<std::string>(), std::string("network"));
        QVERIFY(j["tp"]["bytes_per_step"].get<double>() > 0);
        const double mfu = j["mfu"].get<double>();
        QVERIFY(mfu > 0 && mfu < 0.5);
        const auto c = runCalc("collective", {{"op", "allreduce"},
                                              {"ranks", "16"},
                                              {"bytes", "1e9"},
                                              {"topology", "nodes=2,gpus_per_node=8"}});
        QCOMPARE(c["bottleneck_link"].get<std::string>(), std::string("network"));
        const auto ring = allReduceCost(AllReduceAlgorithm::Ring, 16, 1e9, {8e-6, 50e9});
        QVERIFY(near(c["time_s"].get<double>(), ring.timeS));
        QVERIFY(near(c["busbw_gbs"].get<double>(), ring.busbwBytesPerS / 1e9));
        const auto in =
            runCalc("collective", {{"op", "allgather"},
                                   {"ranks", "8"},
                                   {"bytes", "1e9"},
                                   {"topology", "nodes=2,gpus_per_node=8,nvlink_gbs=900"}});
        QCOMPARE(in["bottleneck_link"].get<std::string>(), std::string("nvlink"));
    }
};

QTEST_GUILESS_MAIN(TestParallelModels)
#include "test_parallel_models.moc"
