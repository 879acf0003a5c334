// The analyses of `warpboard analyze` (scenarios/analysis) against figures worked out by
// hand on a small two-step trace (tests/data/analysis/two_steps_rank-0.json, described
// below), on the triage's generated traces (a straggler and a healthy job) and on real
// public traces from HTA's test data (alexnet on an A100 with launch flows; the sampled
// two-rank job). Every figure is in µs of the trace's own clock.
//
// two_steps_rank-0.json, one rank, µs:
//   CPU  ProfilerStep#1 [1000, 1100), ProfilerStep#2 [1100, 1200)
//   launch (start, duration) → GPU event [start, end) on its stream:
//     L1 1005, 5   → gemm        [1010, 1040) stream 7
//     L2 1012, 4   → gemm        [1045, 1075) stream 7
//     L3 1020, 3   → AllReduce   [1050, 1090) stream 20
//     L4 1080, 10  → memcpy      [1095, 1100) stream 7   (cudaMemcpyAsync)
//     L5 1105, 60  → elementwise [1170, 1172) stream 7   short kernel, long launch
//     L6 1110, 5   → gemm        [1215, 1245) stream 7   delay 105: long delay
//     L7 1150, 5   → AllReduce   [1230, 1260) stream 20
//     (no launch)  → orphan      [1250, 1255) stream 7
//   plus a GPU-side gpu_user_annotation ProfilerStep#1, which must not make a step.
#include "analysis/trace_analysis.h"
#include "imported_trace_helper.h"
#include "triage/kineto_trace_generator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

using namespace wb;
using wb::test::importTrace;
using wb::test::rankInputs;

namespace {

const QString kData = QStringLiteral(WB_TEST_DATA);

bool near(double a, double b) {
    return std::abs(a - b) < 1e-6;
}

#define AN_NEAR(a, b) QVERIFY2(near((a), (b)), qPrintable(QString("%1 != %2").arg(a).arg(b)))

} // namespace

class TestTraceAnalysis : public QObject {
    Q_OBJECT
private:
    std::shared_ptr<const ChromeTraceResult> m_two;

private slots:
    void initTestCase() { m_two = importTrace(kData + "/analysis/two_steps_rank-0.json"); }

    void perRankAndSteps() {
        const TraceAnalysis a = analyseTraces(rankInputs({m_two}), {}, 0);
        QCOMPARE(a.perRank.size(), std::size_t{1});
        const RankFigures& w = a.perRank[0].whole;
        // window 1010..1260; compute 3·30 + 2 + 5; comm 40 + 30; overlap: the first
        // AllReduce under gemm 2 for 25, the second under gemm 3 (15) and the orphan (5).
        AN_NEAR(w.windowUs, 250.0);
        AN_NEAR(w.computeUs, 97.0);
        AN_NEAR(w.commUs, 70.0);
        AN_NEAR(w.overlapUs, 45.0);
        AN_NEAR(w.overlapPct, 100.0 * 45.0 / 70.0);
        AN_NEAR(w.exposedCommUs, 25.0);
        AN_NEAR(w.idleUs, 250.0 - 127.0); // busy: compute ∪ comm 122 + memcpy 5
        AN_NEAR(w.waitUs, 0.0);           // one rank: nobody to wait for
        // Two CPU steps; the GPU-side annotation adds none. Kernels belong to the step of
        // their launch: gemm 3 runs after step 2 closed on the CPU and still counts there.
        const auto& steps = a.perRank[0].steps;
        QCOMPARE(steps.size(), std::size_t{2});
        QCOMPARE(steps[0].step.number, 1L);
        AN_NEAR(steps[0].stepUs, 100.0);
        AN_NEAR(steps[0].figures.windowUs, 90.0); // 1010..1100
        AN_NEAR(steps[0].figures.computeUs, 60.0);
        AN_NEAR(steps[0].figures.commUs, 40.0);
        AN_NEAR(steps[0].figures.overlapPct, 62.5);
        AN_NEAR(steps[0].figures.exposedCommUs, 15.0);
        AN_NEAR(steps[0].figures.idleUs, 10.0); // 1040..1045 and 1090..1095
        QCOMPARE(steps[1].step.number, 2L);
        AN_NEAR(steps[1].figures.windowUs, 90.0); // 1170..1260
        AN_NEAR(steps[1].figures.computeUs, 32.0);
        AN_NEAR(steps[1].figures.commUs, 30.0);
        AN_NEAR(steps[1].figures.overlapPct, 50.0);
        AN_NEAR(steps[1].figures.idleUs, 43.0);
        // The whole trace agrees with the triage's own call (what import --summary prints).
        const auto triage = analyseRanks({{.store = &m_two->store, .rank = 0}});
        AN_NEAR(triage[0].computeUs, w.computeUs);
        AN_NEAR(triage[0].idleUs, w.idleUs);
    }

    void temporal() {
        const TraceAnalysis a = analyseTraces(rankInputs({m_two}), {}, 0);
        const TemporalBreakdown& t = a.temporal.at(0);
        AN_NEAR(t.idleUs, 123.0);
        AN_NEAR(t.computeUs, 97.0);
        AN_NEAR(t.nonComputeUs, 30.0); // exposed comm 25 + memcpy 5
        AN_NEAR(t.idlePct, 49.2);
        AN_NEAR(t.computePct, 38.8);
        AN_NEAR(t.nonComputePct, 12.0);
    }

    void idle() {
        const TraceAnalysis a = analyseTraces(rankInputs({m_two}), {}, 0);
        QCOMPARE(a.idle.size(), std::size_t{2});
        const StreamIdle& s7 = a.idle[0].stream == "GPU 0 stream 7" ? a.idle[0] : a.idle[1];
        const StreamIdle& s20 = &s7 == &a.idle[0] ? a.idle[1] : a.idle[0];
        QCOMPARE(QString::fromStdString(s7.stream), QString("GPU 0 stream 7"));
        QCOMPARE(QString::fromStdString(s20.stream), QString("GPU 0 stream 20"));
        // Stream 7's gaps: 1040..1045 (L2 queued at 1012: kernel wait), 1075..1095 (L4 at
        // 1080: host), 1100..1170 (L5 at 1105: host), 1172..1215 (L6 at 1110: kernel wait),
        // 1245..1250 (the orphan has no launch: other).
        AN_NEAR(s7.spanUs, 245.0);
        AN_NEAR(s7.busyUs, 102.0);
        AN_NEAR(s7.idleUs, 143.0);
        AN_NEAR(s7.hostWaitUs, 90.0);
        AN_NEAR(s7.kernelWaitUs, 48.0);
        AN_NEAR(s7.otherUs, 5.0);
        QCOMPARE(s7.gaps, 5);
        // Stream 20: one gap 1090..1230, L7 launched at 1150: host.
        AN_NEAR(s20.idleUs, 140.0);
        AN_NEAR(s20.hostWaitUs, 140.0);
        QCOMPARE(s20.gaps, 1);
    }

    void kernels() {
        const TraceAnalysis a = analyseTraces(rankInputs({m_two}), {}, 0);
        const auto& types = a.kernels.byType;
        QCOMPARE(types.size(), std::size_t{3});
        QCOMPARE(QString::fromStdString(types[0].type), QString("computation"));
        QCOMPARE(types[0].count, std::int64_t{5});
        AN_NEAR(types[0].totalUs, 97.0);
        QCOMPARE(types[1].count, std::int64_t{2});
        AN_NEAR(types[1].totalUs, 70.0);
        QCOMPARE(types[2].count, std::int64_t{1});
        AN_NEAR(types[2].totalUs, 5.0);
        AN_NEAR(types[0].pct, 100.0 * 97.0 / 172.0);
        const auto& top = a.kernels.top;
        QCOMPARE(top.size(), std::size_t{5});
        QVERIFY(top[0].name.starts_with("ampere_bf16"));
        QCOMPARE(top[0].stats.count, std::int64_t{3});
        AN_NEAR(top[0].stats.totalUs, 90.0);
        QCOMPARE(QString::fromStdString(top[1].type), QString("communication"));
        AN_NEAR(top[1].stats.meanUs, 35.0);
        AN_NEAR(top[1].stats.p50Us, 30.0); // nearest rank: the 1st of 2
        AN_NEAR(top[1].stats.p99Us, 40.0);
        // Equal totals (5 µs) in name order: the memcpy, then the orphan; then 2 µs.
        QVERIFY(top[2].name.starts_with("Memcpy"));
        QVERIFY(top[3].name.starts_with("orphan"));
        AN_NEAR(top[4].stats.totalUs, 2.0);
    }

    void launches() {
        const TraceAnalysis a = analyseTraces(rankInputs({m_two}), {}, 0);
        const LaunchStats& l = a.launches;
        QCOMPARE(l.matched, std::int64_t{6}); // kernels only; the memcpy is not a kernel
        QCOMPARE(l.unmatched, std::int64_t{1});
        // Delays 5, 33, 30, 65, 105, 80: mean 53, nearest-rank p50 33, p99 105.
        AN_NEAR(l.delay.meanUs, 53.0);
        AN_NEAR(l.delay.p50Us, 33.0);
        AN_NEAR(l.delay.p99Us, 105.0);
        QCOMPARE(l.shortKernels, std::int64_t{1});
        QCOMPARE(l.longLaunches, std::int64_t{1});
        QCOMPARE(l.longDelays, std::int64_t{1});
        QCOMPARE(l.outliers.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(l.outliers[0].reason),
                 QString("short kernel, long launch"));
        AN_NEAR(l.outliers[0].cpuLaunchUs, 60.0);
        AN_NEAR(l.outliers[0].gpuUs, 2.0);
        AN_NEAR(l.outliers[0].delayUs, 65.0);
        QCOMPARE(QString::fromStdString(l.outliers[1].reason), QString("long delay"));
        AN_NEAR(l.outliers[1].delayUs, 105.0);
        // gemm: launches 5, 4, 5; delays 5, 33, 105.
        QCOMPARE(l.perKernel.at(0).gpu.count, std::int64_t{3});
        AN_NEAR(l.perKernel[0].cpuLaunch.meanUs, 14.0 / 3.0);
        AN_NEAR(l.perKernel[0].delay.p50Us, 33.0);
    }

    void launchesByCorrelationWithoutFlows() {
        // The same trace with its ac2g flows removed (as filtered or sampled traces arrive)
        // and a driver call nested in the first launch with the same correlation id: the
        // correlation ids alone give the same pairs, so every launch figure is unchanged.
        QFile in(kData + "/analysis/two_steps_rank-0.json");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonDocument doc = QJsonDocument::fromJson(in.readAll());
        QJsonArray kept;
        for (const QJsonValue& v : doc.object().value("traceEvents").toArray())
            if (v.toObject().value("cat").toString() != "ac2g")
                kept.append(v);
        kept.append(QJsonObject{{"ph", "X"},
                                {"cat", "cuda_driver"},
                                {"name", "cuLaunchKernel"},
                                {"pid", 100},
                                {"tid", 100},
                                {"ts", 1006},
                                {"dur", 3},
                                {"args", QJsonObject{{"correlation", 1}}}});
        QJsonObject root = doc.object();
        root.insert("traceEvents", kept);
        QTemporaryDir dir;
        QFile out(dir.filePath("no_flows.json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(root).toJson());
        out.close();
        const auto noFlows = importTrace(out.fileName());
        QVERIFY(noFlows->store.flowLinks().empty());

        const LaunchStats with = analyseTraces(rankInputs({m_two}), {}, 0).launches;
        const LaunchStats without = analyseTraces(rankInputs({noFlows}), {}, 0).launches;
        QCOMPARE(without.matched, with.matched);
        QCOMPARE(without.unmatched, with.unmatched);
        AN_NEAR(without.cpuLaunch.meanUs, with.cpuLaunch.meanUs);
        AN_NEAR(without.delay.meanUs, with.delay.meanUs);
        AN_NEAR(without.delay.p99Us, with.delay.p99Us);
        QCOMPARE(without.outliers.size(), with.outliers.size());
        QCOMPARE(without.shortKernels, with.shortKernels);
    }

    void realSampledLaunchesByCorrelation() {
        // HTA's sampled trace has no flows, but every kernel and its cudaLaunchKernel carry
        // the same args.correlation: every kernel's launch is found.
        const auto t = importTrace(kData + "/import/hta_sampled_rank-0.json.gz");
        QVERIFY(t->store.flowLinks().empty());
        const LaunchStats l = analyseTraces(rankInputs({t}), {}, 0).launches;
        QCOMPARE(static_cast<std::uint64_t>(l.matched), t->kernelCount);
        QCOMPARE(l.unmatched, std::int64_t{0});
        QVERIFY(l.delay.p50Us > 0.0);
    }

    void range() {
        // [1030, 1060): gemm 1 clipped to 1030..1040, gemm 2 to 1045..1060, the AllReduce to
        // 1050..1060 — entirely under gemm 2.
        const AnalysisRange r{.fromNs = 1030 * 1000, .toNs = 1060 * 1000};
        const TraceAnalysis a = analyseTraces(rankInputs({m_two}), r, 0);
        const RankFigures& w = a.perRank[0].whole;
        AN_NEAR(w.windowUs, 30.0);
        AN_NEAR(w.computeUs, 25.0);
        AN_NEAR(w.commUs, 10.0);
        AN_NEAR(w.overlapPct, 100.0);
        AN_NEAR(w.idleUs, 5.0);
        QCOMPARE(a.perRank[0].steps.size(), std::size_t{1}); // step 1, clipped
        AN_NEAR(a.perRank[0].steps[0].stepUs, 30.0);
        QCOMPARE(a.launches.matched, std::int64_t{2}); // kernels starting inside: gemm 2, AllReduce
        AN_NEAR(a.kernels.byType[0].totalUs, 25.0);
        QCOMPARE(a.idle.at(0).gaps + a.idle.at(1).gaps, 1);
    }

    void stragglerFromGeneratedJob() {
        TraceGeneratorConfig cfg;
        cfg.triageCase = TriageCase::Straggler;
        cfg.ranks = 4;
        cfg.stragglerRank = 2;
        const auto traces = generateImportedTraces(cfg);
        std::vector<std::shared_ptr<const ChromeTraceResult>> v(traces.begin(), traces.end());
        const TraceAnalysis a = analyseTraces(rankInputs(v), {}, 4);
        QCOMPARE(a.stragglers.candidates, std::vector<long>{2});
        QCOMPARE(a.stragglers.evidence.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(a.triage.verdict), QString("straggler"));
        QCOMPARE(a.triage.stragglerRank.value_or(-1), 2L);
        // Three steps per rank, with every collective matched within its step.
        for (const RankBreakdown& r : a.perRank) {
            QCOMPARE(r.steps.size(), std::size_t{3});
            double stepWait = 0.0;
            for (const StepFigures& s : r.steps)
                stepWait += s.figures.waitUs;
            QVERIFY(stepWait <= r.whole.waitUs + 1e-6);
        }
        // The straggler waits least.
        for (const RankBreakdown& r : a.perRank)
            QVERIFY(a.perRank[2].whole.waitUs <= r.whole.waitUs + 1e-6);

        cfg.triageCase = TriageCase::Healthy;
        const auto healthy = generateImportedTraces(cfg);
        std::vector<std::shared_ptr<const ChromeTraceResult>> h(healthy.begin(), healthy.end());
        QVERIFY(analyseTraces(rankInputs(h), {}, 4).stragglers.candidates.empty());
    }

    void realAlexnetLaunches() {
        // HTA's alexnet trace (A100, ac2g flows, no ProfilerStep): one step, every launch
        // matched through its flow, and the tables consistent with one another.
        const auto t = importTrace(kData + "/analysis/hta_alexnet_a100.json.gz");
        const TraceAnalysis a = analyseTraces(rankInputs({t}), {}, 0);
        QCOMPARE(a.perRank.at(0).steps.size(), std::size_t{1});
        QCOMPARE(a.perRank[0].steps[0].step.number, -1L);
        QVERIFY(a.launches.matched > 0);
        QCOMPARE(a.launches.unmatched, std::int64_t{0});
        const TemporalBreakdown& tb = a.temporal.at(0);
        AN_NEAR(tb.idlePct + tb.computePct + tb.nonComputePct, 100.0);
        for (const StreamIdle& s : a.idle)
            QVERIFY(std::abs(s.hostWaitUs + s.kernelWaitUs + s.otherUs - s.idleUs) < 1e-3);
        std::int64_t kernels = 0;
        for (const KernelTypeTime& k : a.kernels.byType)
            kernels += k.count;
        QCOMPARE(static_cast<std::uint64_t>(kernels), t->kernelCount + 19); // + 16 memcpy, 3 memset
    }

    void realSampledPair() {
        // HTA's sampled two-rank job: the whole-range figures are the triage's.
        const auto r0 = importTrace(kData + "/import/hta_sampled_rank-0.json.gz");
        const auto r1 = importTrace(kData + "/import/hta_sampled_rank-1.json.gz");
        const TraceAnalysis a = analyseTraces(rankInputs({r0, r1}), {}, 0);
        const auto triage = analyseRanks(
            {{.store = &r0->store, .rank = *r0->rank}, {.store = &r1->store, .rank = *r1->rank}});
        for (std::size_t i = 0; i < 2; ++i) {
            AN_NEAR(a.perRank[i].whole.computeUs, triage[i].computeUs);
            AN_NEAR(a.perRank[i].whole.waitUs, triage[i].waitUs);
            AN_NEAR(a.perRank[i].whole.idleUs, triage[i].idleUs);
        }
        const nlohmann::ordered_json j = a.json();
        for (const char* key : {"ranks", "per_rank", "temporal_breakdown", "idle_breakdown",
                                "kernel_breakdown", "launch_stats", "stragglers", "triage"})
            QVERIFY2(j.contains(key), key);
    }
};

QTEST_GUILESS_MAIN(TestTraceAnalysis)
#include "test_trace_analysis.moc"
