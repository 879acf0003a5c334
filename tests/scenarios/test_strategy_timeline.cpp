// The pipeline schedules executed op by op, and the per-strategy step timelines, against
// the papers' formulas (FACTS.md §6, §9): the simulated bubble equals (P−1)/(V·M) when sends
// are free, GPipe holds M micro-batches and 1F1B at most P, DP/ZeRO move 2Ψ / 2Ψ / 3Ψ, TP
// four b·s·h all-reduces per layer on the critical path, SP the same bytes, EP four
// all-to-alls per layer; and the parallelism-strategies scenario built from them.
#include "collectives/collective_cost.h"
#include "parallel/pipeline_schedule.h"
#include "parallel/pipeline_simulator.h"
#include "parallel/strategy_timeline.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <cmath>

using namespace wb;

namespace {

bool near(double a, double b, double rel = 1e-9) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

StrategySetup setup(int ways = 4) {
    StrategySetup s;
    s.model.layers = 8;
    s.model.hidden = 2048;
    s.model.heads = 16;
    s.model.seq = 2048;
    s.model.microBatch = 1;
    s.model.params = 12.0 * 8 * 2048.0 * 2048.0;
    s.ways = ways;
    s.topology.nodes = 1;
    s.topology.gpusPerNode = 8;
    return s;
}

double sentBy(const StrategyTimeline& t, ScheduleKind k) {
    double b = 0;
    for (const auto& c : t.comm)
        if (c.kind == k)
            b += c.bytesSent;
    return b;
}

long long countOf(const StrategyTimeline& t, ScheduleKind k) {
    long long n = 0;
    for (const auto& c : t.comm)
        if (c.kind == k)
            n += c.count;
    return n;
}

// Bars of one row never overlap: a stream runs one thing at a time.
bool sequential(const ScheduleRow& row) {
    for (std::size_t i = 1; i < row.bars.size(); ++i)
        if (row.bars[i].startS < row.bars[i - 1].endS - 1e-15)
            return false;
    return true;
}

bool overlaps(const ScheduleBar& a, const ScheduleBar& b) {
    return a.startS < b.endS - 1e-15 && b.startS < a.endS - 1e-15;
}

} // namespace

class TestStrategyTimeline : public QObject {
    Q_OBJECT
private slots:
    void simulatedBubbleMatchesTheFormula_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("P");
        QTest::addColumn<int>("M");
        QTest::addColumn<int>("V");
        for (int P : {1, 2, 4, 8})
            for (int M : {8, 16, 32}) {
                const QByteArray tag = QByteArray::number(P) + "x" + QByteArray::number(M);
                QTest::newRow("gpipe " + tag) << 0 << P << M << 1;
                QTest::newRow("1f1b " + tag) << 1 << P << M << 1;
                for (int V : {2, 3, 4})
                    QTest::newRow("interleaved " + tag + " V" + QByteArray::number(V))
                        << 2 << P << M << V;
            }
    }
    void simulatedBubbleMatchesTheFormula() {
        QFETCH(int, kind);
        QFETCH(int, P);
        QFETCH(int, M);
        QFETCH(int, V);
        const PipelineRun r =
            simulatePipeline(static_cast<PipelineScheduleKind>(kind), P, M, V, {1.0, 2.0, 0.0});
        QVERIFY2(std::fabs(r.bubbleOfIdeal - pipelineBubble(P, M, V).ofIdeal) < 1e-9,
                 qPrintable(QString("simulated %1").arg(r.bubbleOfIdeal)));
        // Every pass ran once: 2·M·V per device.
        QCOMPARE(static_cast<int>(r.ops.size()), 2 * M * V * P);
    }

    void dependenciesHold() {
        const int P = 4, M = 8, V = 2;
        const PipelineRun r =
            simulatePipeline(PipelineScheduleKind::Interleaved, P, M, V, {1.0, 2.0, 0.25});
        // Forward of virtual stage vs on micro-batch m ends before vs+1 starts (+ the send).
        auto find = [&](int vs, int m, bool back) -> const PipelineOp& {
            for (const auto& op : r.ops)
                if (op.chunk * P + op.device == vs && op.microbatch == m && op.backward == back)
                    return op;
            qFatal("missing op");
        };
        for (int m = 0; m < M; ++m)
            for (int vs = 0; vs + 1 < P * V; ++vs) {
                QVERIFY(find(vs + 1, m, false).startS >= find(vs, m, false).endS + 0.25 - 1e-12);
                QVERIFY(find(vs, m, true).startS >= find(vs + 1, m, true).endS + 0.25 - 1e-12);
            }
        // A device runs one pass at a time.
        for (int d = 0; d < P; ++d) {
            std::vector<std::pair<double, double>> spans;
            for (const auto& op : r.ops)
                if (op.device == d)
                    spans.emplace_back(op.startS, op.endS);
            std::sort(spans.begin(), spans.end());
            for (std::size_t i = 1; i < spans.size(); ++i)
                QVERIFY(spans[i].first >= spans[i - 1].second - 1e-12);
        }
        // Sends cost time: the bubble grows beyond the formula.
        QVERIFY(r.bubbleOfIdeal > pipelineBubble(P, M, V).ofIdeal);
    }

    void activationsInFlight() {
        // GPipe keeps every micro-batch's activations until the backward starts; 1F1B at
        // most P (Narayanan et al. §2.2).
        for (int P : {2, 4, 8})
            for (int M : {8, 16}) {
                QCOMPARE(simulatePipeline(PipelineScheduleKind::GPipe, P, M, 1, {})
                             .peakActivationsInFlight,
                         static_cast<double>(M));
                QCOMPARE(simulatePipeline(PipelineScheduleKind::OneFOneB, P, M, 1, {})
                             .peakActivationsInFlight,
                         static_cast<double>(std::min(P, M)));
            }
    }

    void badSchedulesRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 simulatePipeline(PipelineScheduleKind::GPipe, 0, 8, 1, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 simulatePipeline(PipelineScheduleKind::OneFOneB, 4, 8, 2, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 simulatePipeline(PipelineScheduleKind::Interleaved, 4, 6, 2, {}));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            simulatePipeline(PipelineScheduleKind::GPipe, 4, 8, 1, {std::nan(""), 2.0, 0.0}));
    }

    void dataParallelVolumes() {
        // ZeRO §7: DP and ZeRO-1/2 move 2Ψ per step, ZeRO-3 3Ψ (ring: ×(N−1)/N per rank).
        const StrategySetup s = setup(4);
        const double psiBytes = s.model.params * s.model.bytesPerValue;
        const double ring = 3.0 / 4.0;
        const auto dp = strategyTimeline(StrategyKind::DP, s);
        const auto z12 = strategyTimeline(StrategyKind::Zero12, s);
        const auto z3 = strategyTimeline(StrategyKind::Zero3, s);
        QVERIFY(near(sentBy(dp, ScheduleKind::AllReduce), 2 * psiBytes * ring));
        QVERIFY(
            near(sentBy(z12, ScheduleKind::ReduceScatter) + sentBy(z12, ScheduleKind::AllGather),
                 2 * psiBytes * ring));
        QVERIFY(near(sentBy(z3, ScheduleKind::ReduceScatter) + sentBy(z3, ScheduleKind::AllGather),
                     3 * psiBytes * ring));
        // Gradients go layer by layer, each after its layer's backward (DDP buckets).
        QCOMPARE(countOf(dp, ScheduleKind::AllReduce), 8LL);
        const ScheduleRow& compute = dp.rows[0];
        const ScheduleRow& comm = dp.rows[1];
        QVERIFY(sequential(compute) && sequential(comm));
        for (const ScheduleBar& c : comm.bars) {
            const auto producer =
                std::find_if(compute.bars.begin(), compute.bars.end(), [&](const ScheduleBar& b) {
                    return b.kind == ScheduleKind::Backward && b.label == c.label;
                });
            QVERIFY(producer != compute.bars.end());
            QVERIFY(c.startS >= producer->endS - 1e-15);
        }
        // Overlap: most of the all-reduce time is hidden under the backward pass.
        QVERIFY(dp.exposedCommS <
                0.5 * sentBy(dp, ScheduleKind::AllReduce) / (s.topology.nvlinkGBs * 1e9));
    }

    void tensorParallelOnTheCriticalPath() {
        // Megatron-LM §3.2: 2 all-reduces forward + 2 backward per layer of b·s·h values:
        // 8bsh(t−1)/t bytes... per layer per device (values × bytes per value).
        const StrategySetup s = setup(4);
        const auto tp = strategyTimeline(StrategyKind::TP, s);
        const double bsh = 1.0 * s.model.seq * s.model.hidden * s.model.bytesPerValue;
        QCOMPARE(countOf(tp, ScheduleKind::AllReduce), 4LL * s.model.layers);
        QVERIFY(near(sentBy(tp, ScheduleKind::AllReduce), 8 * bsh * 3.0 / 4.0 * s.model.layers));
        // Nothing overlaps a TP all-reduce: compute waits for it, it waits for compute.
        for (const ScheduleBar& c : tp.rows[1].bars)
            for (const ScheduleBar& b : tp.rows[0].bars)
                QVERIFY(!overlaps(b, c));
        // SP: all-gathers and reduce-scatters instead, the same bytes.
        const auto sp = strategyTimeline(StrategyKind::SP, s);
        QCOMPARE(countOf(sp, ScheduleKind::AllReduce), 0LL);
        QVERIFY(near(sentBy(sp, ScheduleKind::AllGather) + sentBy(sp, ScheduleKind::ReduceScatter),
                     sentBy(tp, ScheduleKind::AllReduce)));
        QVERIFY(near(sp.stepS, tp.stepS, 1e-6));
        // Heads must divide by TP.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 strategyTimeline(StrategyKind::TP, setup(3)));
    }

    void expertAndContextParallel() {
        StrategySetup s = setup(4);
        const auto ep = strategyTimeline(StrategyKind::EP, s);
        QCOMPARE(countOf(ep, ScheduleKind::AllToAll), 4LL * s.model.layers);
        // Each all-to-all carries top-k copies of the micro-batch's hidden states.
        for (const auto& c : ep.comm)
            if (c.kind == ScheduleKind::AllToAll)
                QVERIFY(near(c.messageBytes,
                             s.topK * 1.0 * s.model.seq * s.model.hidden * s.model.bytesPerValue));
        s.experts = 6;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, strategyTimeline(StrategyKind::EP, s));
        const auto cp = strategyTimeline(StrategyKind::CP, setup(4));
        QVERIFY(countOf(cp, ScheduleKind::AllGather) > 0);
        QVERIFY(countOf(cp, ScheduleKind::AllReduce) == 8); // replicated weights' gradients
    }

    void pipelineTimelineUsesTheSimulator() {
        StrategySetup s = setup(4);
        s.microbatches = 8;
        s.interleave = 2;
        const auto g = strategyTimeline(StrategyKind::GPipe, s);
        const auto i = strategyTimeline(StrategyKind::Interleaved, s);
        QCOMPARE(static_cast<int>(g.rows.size()), 4);
        for (const auto& row : g.rows) {
            QVERIFY(row.idleIsBubble);
            QCOMPARE(static_cast<int>(row.bars.size()), 2 * 8);
        }
        QVERIFY(i.bubbleS < g.bubbleS); // ÷ V, give or take the sends
        QCOMPARE(i.comm.front().count, 2 * g.comm.front().count);
        s.model.layers = 6; // 6 layers do not split into 4 stages
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, strategyTimeline(StrategyKind::GPipe, s));
    }

    void scenarioBuildsEveryStep() {
        const Story story = wb::test::build("parallelism-strategies");
        QVERIFY(story.steps.size() >= 6 && story.steps.size() <= 10);
        bool sawBubble = false;
        for (const Step& step : story.steps) {
            const Frames f = step.frames(0.5);
            QVERIFY(!f.items.empty());
            for (const auto& sf : wb::test::all<ScheduleFrame>(f)) {
                QVERIFY(sf.endS > 0);
                QVERIFY(near(sf.cursorS, 0.5 * sf.endS));
                for (const auto& row : sf.rows)
                    sawBubble = sawBubble || row.idleIsBubble;
            }
        }
        QVERIFY(sawBubble);
        // The step before the whiteboard answer compares all ten strategies.
        const auto table =
            wb::test::first<FactsFrame>(story.steps[story.steps.size() - 2].frames(1.0));
        QVERIFY(table);
        QCOMPARE(table->rows.size(), allStrategyKinds().size());
        // Group sizes every step cannot split are not offered: the parameter rejects them.
        const Scenario& sc = *findScenario("parallelism-strategies");
        Params p = sc.defaultParams();
        QVERIFY(p.set("ways", "3"));
        QVERIFY(p.set("ways", "16"));
        QVERIFY(!p.set("ways", "8"));
    }
};

QTEST_APPLESS_MAIN(TestStrategyTimeline)
#include "test_strategy_timeline.moc"
