// The reliability models (failures-checkpoint to silent-hang) against their sources and their own
// definitions: Young and Daly against Daly's figure captions (FACTS.md §5), the Monte Carlo against
// Daly's full model, Llama 3's Table 5 as published (FACTS.md §4.4), the straggler rule, blast
// radius by formula from the cluster's shape, and the hang triage against every injected fault.
#include "calc/calc_models.h"
#include "engine/seeded_random.h"
#include "reliability/checkpoint_interval.h"
#include "reliability/cluster_failure_model.h"
#include "reliability/collective_hang.h"
#include "reliability/failure_simulator.h"
#include "reliability/llama3_interruptions.h"
#include "reliability/straggler_detection.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <set>

using namespace wb;

namespace {

using wb::test::runCalc;

constexpr double notANumber = std::numeric_limits<double>::quiet_NaN();

// The 16,384-GPU job with GPU faults at Llama 3's per-GPU MTBF (FACTS.md §4.5), 54 days,
// checkpointing 2 min every 30 min, restarting in 10 min.
JobConfig llamaLikeJob() {
    return llama3ScaleGpuJob(30 * 60.0, 2 * 60.0, 10 * 60.0);
}

// Distinct coordinates along `s` among S consecutive ranks starting at a multiple of S (all
// sizes here are powers of two, so blocks and strides line up).
int distinct(const ParallelLayout& l, Strategy s, int gpus) {
    if (gpus == 0)
        return 0;
    return gpus >= l.stride(s) ? std::min(l.size(s), gpus / l.stride(s)) : 1;
}

// GPUs behind one component of each kind, from the cluster's definition (spines: 0, the
// pod keeps its other spines).
int domainGpus(const ClusterSpec& c, ComponentKind k) {
    const int rack = c.gpusPerNode * c.nodesPerRack;
    switch (k) {
    case ComponentKind::Gpu:
        return 1;
    case ComponentKind::Node:
        return c.gpusPerNode;
    case ComponentKind::Rack:
    case ComponentKind::Tor:
        return rack;
    case ComponentKind::Spine:
        return c.spinesPerPod > 1 ? 0 : rack * c.racksPerPod;
    case ComponentKind::Pdu:
        return rack * c.racksPerPdu;
    case ComponentKind::Cooling:
        return rack * c.racksPerCoolingZone;
    case ComponentKind::Storage:
    case ComponentKind::Scheduler:
        return 0;
    }
    return 0;
}

ParallelLayout llamaLayout(bool aligned) {
    ParallelLayout l; // Llama 3 405B at 16K GPUs: TP 8, PP 16, DP 128 (FACTS.md §4.2)
    l.tp = 8;
    l.pp = 16;
    l.dp = 128;
    l.order = aligned ? std::vector<Strategy>{Strategy::TP, Strategy::PP, Strategy::DP}
                      : std::vector<Strategy>{Strategy::DP, Strategy::PP, Strategy::TP};
    return l;
}

bool refused(const char* model, const char* key, const char* value) {
    Params p(findCalcModel(model)->arguments);
    return p.set(key, value).has_value();
}

} // namespace

class TestReliabilityModels : public QObject {
    Q_OBJECT
private slots:
    void youngAndDalyAgainstDalysFigures() {
        // Daly 2006, figure captions (FACTS.md §5): M = 24 h, 6 h, 15 min with δ = 5 min.
        QVERIFY(std::fabs(dalyInterval(5, 24 * 60) - 116.7) < 0.05);
        QVERIFY(std::fabs(dalyInterval(5, 6 * 60) - 56.7) < 0.05);
        QVERIFY(std::fabs(dalyInterval(5, 15) - 9.14) < 0.005);
        QCOMPARE(std::round(dalyInterval(5, 24 * 60)), 117.0); // as the caption prints it
        // Young: √(2δM); Llama 3's M ≈ 3.09 h with δ = 1 min gives about 19.3 min.
        QCOMPARE(youngInterval(5, 1440), 120.0);
        QVERIFY(std::fabs(youngInterval(1, 3.09 * 60) - 19.3) < 0.05);
        // δ ≥ 2M: Daly's second branch, τ = M.
        QCOMPARE(dalyInterval(30, 15), 15.0);
        QCOMPARE(dalyInterval(40, 15), 15.0);
        // The first-order waste at Young's τ is √(2δ/M) + δ/2M + R/M.
        const double m = 600, d = 3, r = 12;
        QVERIFY(std::fabs(firstOrderWaste(youngInterval(d, m), d, m, r) -
                          (std::sqrt(2 * d / m) + d / (2 * m) + r / m)) < 1e-12);
        // Daly's full model agrees with the first order when τ + δ ≪ M, and exceeds it.
        const double tau = youngInterval(d, m);
        QVERIFY(std::fabs(expectedWaste(tau, d, m, r) - firstOrderWaste(tau, d, m, r)) < 0.01);

        const auto j = runCalc("checkpoint", {{"mtbf-hours", "24"}, {"checkpoint-minutes", "5"}});
        QCOMPARE(j["young_minutes"].get<double>(), 120.0);
        QVERIFY(std::fabs(j["daly_minutes"].get<double>() - 116.7) < 0.05);
        const double w = j["waste_fraction_at_young"].get<double>();
        QVERIFY(w > 0 && w < 0.1);
        QCOMPARE(w, expectedWaste(120, 5, 1440, 0));
        const auto big =
            runCalc("checkpoint", {{"mtbf-hours", "0.25"}, {"checkpoint-minutes", "40"}});
        QCOMPARE(big["daly_minutes"].get<double>(), 15.0);
    }
    void intervalFormulasRefuseBadInput() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, youngInterval(1, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, youngInterval(1, -5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dalyInterval(notANumber, 10));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expectedWaste(10, 1, 10, -1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, firstOrderWaste(0, 1, 10, 0));
        // Calc arguments: zero, negative and NaN MTBF never reach the model.
        QVERIFY(refused("checkpoint", "mtbf-hours", "0"));
        QVERIFY(refused("checkpoint", "mtbf-hours", "-3"));
        QVERIFY(refused("checkpoint", "mtbf-hours", "nan"));
        QVERIFY(refused("goodput", "gpus", "0"));
        QVERIFY(refused("goodput", "gpu-mtbf-hours", "0"));
        QVERIFY(refused("blast-radius", "fail", "toaster"));
    }
    void monteCarloConvergesToDalysModel() {
        // Every seed: the mean over 40 trials within 0.5 percentage points of Daly's exact
        // waste (one trial's goodput has a standard deviation of about 0.6 points here).
        const JobConfig c = llamaLikeJob();
        const double m = c.mtbfS();
        const double analytic = 1 - expectedWaste(c.intervalS, c.checkpointS, m, c.restartS);
        const double firstOrder = 1 - firstOrderWaste(c.intervalS, c.checkpointS, m, c.restartS);
        double sum = 0;
        for (std::uint64_t seed = 1; seed <= 25; ++seed) {
            const GoodputStats s = simulateGoodput(c, 40, seed);
            QVERIFY2(std::fabs(s.mean - analytic) < 0.005,
                     qPrintable(QString("seed %1: %2 vs %3").arg(seed).arg(s.mean).arg(analytic)));
            QVERIFY(s.p5 <= s.mean && s.mean <= s.p95);
            // 54 days at M = 79,000 h / 16,384 ≈ 4.8 h: about 270 failures.
            const double expected = c.durationS / m;
            QVERIFY(std::fabs(s.failuresMean - expected) < 0.1 * expected);
            sum += s.mean;
        }
        QVERIFY(std::fabs(sum / 25 - analytic) < 0.001);
        QVERIFY(std::fabs(analytic - firstOrder) < 0.02);
        // A worse interval simulates worse, by about what the model says.
        JobConfig rare = c;
        rare.intervalS = 6 * 3600.0;
        const double rareAnalytic =
            1 - expectedWaste(rare.intervalS, rare.checkpointS, m, rare.restartS);
        QVERIFY(std::fabs(simulateGoodput(rare, 200, 7).mean - rareAnalytic) < 0.01);
        QVERIFY(rareAnalytic < analytic - 0.1);
    }
    void wasteSharesAddUpToDalysWaste() {
        // Daly's full model, written out here: T = M·e^{R/M}·(e^{(τ+δ)/M} − 1) per interval
        // τ of work; the parts are δ/T, 1 − e^{−R/M} and the rest of T − τ, and they sum to
        // 1 − τ/T. Cases: Llama 3's M with δ = 1 min at Young's τ (the review's 14.8 %),
        // R = 120 min (where the first-order terms reached 107 %), τ ≫ M, δ ≥ 2M.
        const double llamaM = 54 * 24 * 60.0 / 419; // minutes
        struct Case {
            double tau, d, m, r;
        };
        const Case cases[] = {{youngInterval(1, llamaM), 1, llamaM, 10},
                              {youngInterval(1, llamaM), 1, llamaM, 120},
                              {154, 1, llamaM, 10},
                              {600, 60, 23, 120},
                              {30, 40, 15, 0},
                              {1, 0, 1e7, 0}};
        for (const Case& c : cases) {
            const WasteShares w = wasteShares(c.tau, c.d, c.m, c.r);
            const double t = c.m * std::exp(c.r / c.m) * std::expm1((c.tau + c.d) / c.m);
            QVERIFY(w.checkpoint >= 0 && w.rework >= 0 && w.restart >= 0);
            QVERIFY(std::fabs(w.total() - (1 - c.tau / t)) < 1e-12);
            QCOMPARE(w.total(), expectedWaste(c.tau, c.d, c.m, c.r));
            QVERIFY(std::fabs(w.checkpoint - c.d / t) < 1e-12);
            QVERIFY(std::fabs(w.restart - (1 - std::exp(-c.r / c.m))) < 1e-12);
            // No part exceeds the whole (the first-order rework did at τ = 2.57 h).
            QVERIFY(w.rework <= w.total() && w.checkpoint <= w.total());
        }
        // At Llama 3's rate, δ = 1 min, R = 10 min, Young's τ: 14.8 % in all.
        const WasteShares young = wasteShares(youngInterval(1, llamaM), 1, llamaM, 10);
        QVERIFY(std::fabs(young.total() - 0.148) < 0.0005);
        // A job that essentially never finishes an interval: all rework and restart, finite.
        const WasteShares stuck = wasteShares(1e6, 1, 1, 0.5);
        QVERIFY(std::fabs(stuck.total() - 1.0) < 1e-15);
        QVERIFY(std::fabs(stuck.restart - (1 - std::exp(-0.5))) < 1e-12);
        // calc checkpoint prints the same split.
        const auto j = runCalc(
            "checkpoint",
            {{"mtbf-hours", "3.09"}, {"checkpoint-minutes", "1"}, {"restart-minutes", "120"}});
        const auto& parts = j["waste_at_young"];
        const double sum = parts["checkpoint"].get<double>() + parts["rework"].get<double>() +
                           parts["restart"].get<double>();
        QVERIFY(std::fabs(sum - parts["total"].get<double>()) < 1e-12);
        QVERIFY(std::fabs(sum - j["waste_fraction_at_young"].get<double>()) < 1e-12);
    }
    void simulatedTimeSplitsAsTheShares() {
        // The simulator's checkpoint, lost and restart segments converge to the three shares:
        // 30 runs of 54 days at Llama 3's all-cause rate on 16,384 GPUs (M ≈ 3.09 h), δ = 2
        // min, R = 20 min, τ = 40 min.
        JobConfig c;
        c.sources = llama3FailureSources(16384);
        c.intervalS = 40 * 60.0;
        c.checkpointS = 120;
        c.restartS = 1200;
        c.durationS = 54 * 86400.0;
        const WasteShares w = wasteShares(c.intervalS, c.checkpointS, c.mtbfS(), c.restartS);
        double ckpt = 0, lost = 0, restart = 0, all = 0;
        for (std::uint64_t seed = 1; seed <= 30; ++seed)
            for (const Segment& g : simulateJob(c, seed).segments) {
                const double d = g.endS - g.startS;
                all += d;
                ckpt += g.kind == SegmentKind::Checkpoint ? d : 0;
                lost += g.kind == SegmentKind::Lost ? d : 0;
                restart += g.kind == SegmentKind::Restart ? d : 0;
            }
        QVERIFY2(std::fabs(ckpt / all - w.checkpoint) < 0.003,
                 qPrintable(QString("checkpoint %1 vs %2").arg(ckpt / all).arg(w.checkpoint)));
        QVERIFY2(std::fabs(lost / all - w.rework) < 0.005,
                 qPrintable(QString("rework %1 vs %2").arg(lost / all).arg(w.rework)));
        QVERIFY2(std::fabs(restart / all - w.restart) < 0.005,
                 qPrintable(QString("restart %1 vs %2").arg(restart / all).arg(w.restart)));
    }
    void timelineIsContiguousAndDeterministic() {
        JobConfig c = llamaLikeJob();
        c.sources = llama3FailureSources(16384);
        c.durationS = 7 * 86400.0;
        const JobRun a = simulateJob(c, 42);
        const JobRun b = simulateJob(c, 42);
        QCOMPARE(a.segments, b.segments);
        QVERIFY(a.segments != simulateJob(c, 43).segments);
        QCOMPARE(simulateJob(c, 42, false).usefulS, a.usefulS);
        QVERIFY(!a.segments.empty());
        QCOMPARE(a.segments.front().startS, 0.0);
        QVERIFY(std::fabs(a.segments.back().endS - c.durationS) < 1e-6 * c.durationS);
        double run = 0;
        int lost = 0, restarts = 0;
        std::set<std::string> names;
        for (const auto& s : c.sources)
            names.insert(s.name);
        for (std::size_t i = 0; i < a.segments.size(); ++i) {
            const Segment& s = a.segments[i];
            QVERIFY(s.endS > s.startS);
            if (i)
                QVERIFY(std::fabs(s.startS - a.segments[i - 1].endS) < 1e-6);
            if (s.kind == SegmentKind::Run)
                run += s.endS - s.startS;
            if (s.kind == SegmentKind::Lost || s.kind == SegmentKind::Restart)
                QVERIFY2(names.count(s.cause), s.cause.c_str());
            else
                QVERIFY(s.cause.empty());
            lost += s.kind == SegmentKind::Lost;
            restarts += s.kind == SegmentKind::Restart;
        }
        // A run segment is kept work only when no failure follows it before its checkpoint.
        QVERIFY(std::fabs(run - a.usefulS) < 1e-6 * c.durationS);
        QVERIFY(lost >= 1 && restarts >= lost && a.failures >= lost);
        // A timeline too long to keep is refused; its goodput alone is still computed.
        JobConfig dense = c;
        dense.intervalS = 0.1;
        dense.checkpointS = 0.1; // 3 million cycles in 7 days
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateJob(dense, 1));
        QVERIFY(simulateJob(dense, 1, false).goodput() > 0);
        // Llama 3's table at 16K GPUs: 419 interruptions in 54 days, M ≈ 3.09 h.
        QVERIFY(std::fabs(c.mtbfS() / 3600 - 54.0 * 24 / 419) < 1e-9);
    }
    void sweepFindsTheOptimumNearDaly() {
        JobConfig c = llamaLikeJob();
        const CheckpointSweep s = sweepCheckpointInterval(c, 13, 60, 3);
        QCOMPARE(s.points.size(), std::size_t(13));
        QVERIFY(std::fabs(s.youngS - std::sqrt(2 * c.checkpointS * c.mtbfS())) < 1e-6);
        // The grid steps by 8^(1/6) ≈ 1.41: the simulated best is Daly's point's neighbour.
        QVERIFY(s.simulatedBestS > s.dalyS / 2 && s.simulatedBestS < s.dalyS * 2);
        for (const SweepPoint& p : s.points)
            QVERIFY(std::fabs(p.simulated - p.analytic) < 0.01);
    }
    void goodputCalcIsSeededAndRefusesTooMuchWork() {
        auto run = [](const char* seed) {
            return runCalc("goodput", {{"gpus", "16384"},
                                       {"gpu-mtbf-hours", "79000"},
                                       {"checkpoint-minutes", "2"},
                                       {"interval-minutes", "30"},
                                       {"restart-minutes", "10"},
                                       {"days", "54"},
                                       {"trials", "100"},
                                       {"seed", seed}});
        };
        const auto a = run("5");
        QCOMPARE(a, run("5"));
        QVERIFY(a != run("6"));
        QVERIFY(std::fabs(a["goodput"].get<double>() - a["goodput_analytic"].get<double>()) <
                0.005);
        QVERIFY(a["goodput_p5"].get<double>() <= a["goodput_p95"].get<double>());
        QVERIFY_THROWS_EXCEPTION(CalcError, runCalc("goodput", {{"gpus", "10000000"},
                                                                {"gpu-mtbf-hours", "0.001"},
                                                                {"checkpoint-minutes", "1"},
                                                                {"interval-minutes", "10"},
                                                                {"days", "3650"},
                                                                {"trials", "1000000"}}));
    }
    void llama3TableAsPublished() {
        const Llama3Record& r = llama3Record();
        QCOMPARE(r.causes.size(), std::size_t(18));
        int count = 0, gpu = 0;
        double printed = 0;
        for (const auto& c : r.causes) {
            count += c.count;
            printed += c.printedPercent;
            gpu += c.category == "GPU" ? c.count : 0;
        }
        QCOMPARE(count, 419);
        QCOMPARE(r.unexpected, count);
        QCOMPARE(r.planned + r.unexpected, r.interruptions);
        QVERIFY(std::fabs(printed - 94.9) < 0.05); // the paper's inconsistency, kept
        QCOMPARE(r.causes.front().component, std::string("Faulty GPU"));
        QCOMPARE(r.causes.front().printedPercent, 30.1);
        QCOMPARE(r.causes.front().count, 148);
        QCOMPARE(gpu, 268);
        QCOMPARE(llama3GpuMtbfHours(), 16384.0 * 54 * 24 / 268);
        QVERIFY(std::fabs(llama3GpuMtbfHours() - 79000) < 500); // FACTS.md §4.5: ≈ 79,000 h
        QCOMPARE(r.printedGpuPercent, 58.7);
        QCOMPARE(r.printedHardwarePercent, 78.0);
        QVERIFY(llama3TableNote().find("35.3%") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, llama3FailureSources(0));
        // Rates scale with the job: half the GPUs, half the failures.
        JobConfig half;
        half.sources = llama3FailureSources(8192);
        QVERIFY(std::fabs(half.failureRatePerS() * 54 * 86400 - 419.0 / 2) < 1e-9);
    }
    void stragglersByMedianAndMad() {
        // By hand: medians 10, 11, 12, 13, 30 → m = 12, MAD = 1, σ̂ = 1.4826.
        const std::vector<std::vector<double>> t = {{10}, {11}, {12}, {13}, {30}};
        StragglerReport r = detectStragglers(t, 3.5, 0.0);
        QCOMPARE(r.medianS, 12.0);
        QCOMPARE(r.madS, 1.0);
        QVERIFY(std::fabs(r.thresholdS - (12 + 3.5 * 1.4826)) < 1e-12);
        QCOMPARE(r.stragglers, std::vector<int>{4});
        QCOMPARE(detectStragglers(t, 0.5, 0.0).stragglers, (std::vector<int>{3, 4}));
        // An even cluster (MAD = 0): only the minimum excess guards, and a 1% rank passes.
        QCOMPARE(detectStragglers({{1}, {1}, {1}, {1.01}}, 3.5, 0.02).stragglers.size(),
                 std::size_t(0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, detectStragglers({}, 3.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, detectStragglers({{1}, {notANumber}}, 3.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, detectStragglers({{1}}, 0));

        // Generated: every seed, the injected stragglers and nobody else.
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            StepTimeConfig c;
            c.ranks = 64;
            c.steps = 40;
            c.jitter = 0.01;
            const auto n = static_cast<int>(1 + seed % 3);
            std::vector<int> expected;
            for (int i = 0; i < n; ++i) {
                const int rank =
                    static_cast<int>(mixSeed(seed, static_cast<std::uint64_t>(i)) % 64);
                if (std::find(expected.begin(), expected.end(), rank) != expected.end())
                    continue;
                expected.push_back(rank);
                c.stragglers.push_back({rank, 1.15});
            }
            std::sort(expected.begin(), expected.end());
            const auto times = generateStepTimes(c, seed);
            QCOMPARE(times, generateStepTimes(c, seed));
            QVERIFY2(detectStragglers(times).stragglers == expected,
                     qPrintable(QString("seed %1").arg(seed)));
            c.stragglers.clear();
            QVERIFY2(detectStragglers(generateStepTimes(c, seed)).stragglers.empty(),
                     qPrintable(QString("healthy seed %1").arg(seed)));
        }
        const auto j = runCalc("stragglers", {{"stragglers", "5:1.3,17:1.2"}, {"seed", "4"}});
        QCOMPARE(j["stragglers"].get<std::vector<int>>(), (std::vector<int>{5, 17}));
        QVERIFY_THROWS_EXCEPTION(CalcError, runCalc("stragglers", {{"stragglers", "5"}}));
        QVERIFY_THROWS_EXCEPTION(CalcError, runCalc("stragglers", {{"stragglers", "99:2"}}));
        QVERIFY_THROWS_EXCEPTION(CalcError, runCalc("stragglers", {{"stragglers", "3:0.5"}}));
        StepTimeConfig bad;
        bad.stragglers = {{64, 2.0}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateStepTimes(bad, 1));
    }
    void blastRadiusOfEveryComponentKind_data() {
        QTest::addColumn<bool>("aligned");
        QTest::newRow("aligned") << true;
        QTest::newRow("misaligned") << false;
    }
    void blastRadiusOfEveryComponentKind() {
        QFETCH(bool, aligned);
        const ClusterSpec spec;
        const ParallelLayout l = llamaLayout(aligned);
        const ClusterFailureModel model(spec, l);
        const int racks = spec.gpus / spec.gpusPerNode / spec.nodesPerRack;
        QCOMPARE(model.count(ComponentKind::Gpu), spec.gpus);
        QCOMPARE(model.count(ComponentKind::Node), spec.gpus / spec.gpusPerNode);
        QCOMPARE(model.count(ComponentKind::Tor), racks);
        // 192-rack pods (Llama 3): the last pod is partial, and has its spines all the same.
        QCOMPARE(model.count(ComponentKind::Spine),
                 (racks + spec.racksPerPod - 1) / spec.racksPerPod * spec.spinesPerPod);
        QCOMPARE(model.count(ComponentKind::Pdu), racks / spec.racksPerPdu);
        QCOMPARE(model.count(ComponentKind::Cooling), racks / spec.racksPerCoolingZone);
        for (const std::string& name : componentKindNames()) {
            const ComponentKind k = parseComponentKind(name);
            const int s = domainGpus(spec, k);
            for (int index : {0, model.count(k) / 2, model.count(k) - 1}) {
                const BlastRadius b = model.fail(model.id(k, index));
                QCOMPARE(int(b.lostGpus.size()), s);
                if (s > 0)
                    QCOMPARE(b.lostGpus.front(), index * s); // domains are consecutive GPUs
                const GroupsBroken expected{
                    distinct(l, Strategy::PP, s) * distinct(l, Strategy::DP, s),
                    distinct(l, Strategy::TP, s) * distinct(l, Strategy::DP, s),
                    distinct(l, Strategy::TP, s) * distinct(l, Strategy::PP, s)};
                QVERIFY2(b.groups == expected, qPrintable(QString::fromStdString(name)));
                QCOMPARE(b.replicasBroken, distinct(l, Strategy::DP, s));
                QCOMPARE(b.jobStops, s > 0 || k == ComponentKind::Storage);
                QCOMPARE(b.restartBlocked,
                         k == ComponentKind::Storage || k == ComponentKind::Scheduler);
                QVERIFY(!b.explanation.empty());
            }
        }
        // The lesson in numbers: a node takes one replica when aligned, eight when not.
        const BlastRadius node = model.fail(model.id(ComponentKind::Node, 3));
        QCOMPARE(node.replicasBroken, aligned ? 1 : spec.gpusPerNode);
        QCOMPARE(node.groups.tp, aligned ? 1 : spec.gpusPerNode);
    }
    void singlePointsOfFailureAreComputed() {
        ClusterSpec spec;
        const ClusterFailureModel model(spec, llamaLayout(true));
        for (const SpofSummary& s : model.singlePointsOfFailure()) {
            QCOMPARE(s.total, model.count(s.kind));
            const bool spof = s.kind != ComponentKind::Spine && s.kind != ComponentKind::Scheduler;
            QCOMPARE(s.spofs, spof ? s.total : 0);
            QVERIFY(!s.why.empty());
        }
        // All spines of one pod together take the pod; one spine per pod makes each a SPOF.
        std::vector<int> pod0;
        for (int i = 0; i < spec.spinesPerPod; ++i)
            pod0.push_back(model.id(ComponentKind::Spine, i));
        QCOMPARE(int(model.fail(pod0).lostGpus.size()),
                 spec.racksPerPod * spec.nodesPerRack * spec.gpusPerNode);
        spec.spinesPerPod = 1;
        const ClusterFailureModel thin(spec, llamaLayout(true));
        QCOMPARE(int(thin.fail(thin.id(ComponentKind::Spine, 2)).lostGpus.size()),
                 domainGpus(spec, ComponentKind::Spine));
        for (const SpofSummary& s : thin.singlePointsOfFailure())
            if (s.kind == ComponentKind::Spine)
                QCOMPARE(s.spofs, s.total);
    }
    // Failure rates from Table 5's counts where it names the component, and the expected loss
    // as an alternating renewal process: the kinds' shares of the wall time down sum to 1 − A.
    void expectedLossesFollowTheRatesAndTheSpares() {
        const ClusterSpec spec;
        const ClusterFailureModel model(spec, llamaLayout(true));
        const double hours = 54 * 24.0;
        QCOMPARE(componentFailureRate(ComponentKind::Gpu, spec).perComponentPerHour,
                 268 / (16384 * hours));
        QCOMPARE(componentFailureRate(ComponentKind::Node, spec).perComponentPerHour,
                 (21 + 32) / (2048 * hours));
        // 1,024 ToRs and 6 pods × 8 spines share the switch/cable row's 35.
        QCOMPARE(componentFailureRate(ComponentKind::Tor, spec).perComponentPerHour,
                 35 / ((1024 + 48) * hours));
        QVERIFY(componentFailureRate(ComponentKind::Gpu, spec).published);
        for (ComponentKind k : {ComponentKind::Tor, ComponentKind::Pdu, ComponentKind::Cooling,
                                ComponentKind::Storage})
            QVERIFY(!componentFailureRate(k, spec).published &&
                    componentFailureRate(k, spec).source.find("assumed") != std::string::npos);

        SparePolicy policy;
        policy.spareGpus = 32;
        policy.repairH = 8;
        policy.restartH = 0.25;
        const LossRanking r = model.expectedLosses(policy);
        QCOMPARE(r.kinds.size(), std::size_t(9));
        double rhoNone = 0, rhoSpares = 0, shareNone = 0, shareSpares = 0;
        for (const KindLoss& l : r.kinds) {
            QCOMPARE(l.failuresPerDay, l.count * l.rate.perComponentPerHour * 24);
            QCOMPARE(l.blastGpus, domainGpus(spec, l.kind));
            // Covered when the GPUs lost fit in the pool: GPU, node, rack, ToR; not a PDU (128),
            // a cooling zone (1,024) or the storage (no GPU to replace; it must come back).
            QCOMPARE(l.sparesCover, l.blastGpus > 0 && l.blastGpus <= 32);
            QCOMPARE(l.outageNoSparesH, l.stopsJob ? 8.0 : 0.0);
            QCOMPARE(l.outageSparesH, l.sparesCover ? 0.25 : l.outageNoSparesH);
            rhoNone += l.failuresPerDay / 24 * l.outageNoSparesH;
            rhoSpares += l.failuresPerDay / 24 * l.outageSparesH;
            shareNone += l.lossNoSpares / (spec.gpus * 24.0);
            shareSpares += l.lossSpares / (spec.gpus * 24.0);
            if (l.kind == ComponentKind::Spine || l.kind == ComponentKind::Scheduler)
                QCOMPARE(l.lossNoSpares, 0.0);
        }
        QVERIFY(qFuzzyCompare(r.availabilityNoSpares, 1 / (1 + rhoNone)));
        QVERIFY(qFuzzyCompare(r.availabilitySpares, 1 / (1 + rhoSpares)));
        QVERIFY(qFuzzyCompare(shareNone, 1 - r.availabilityNoSpares));
        QVERIFY(qFuzzyCompare(shareSpares, 1 - r.availabilitySpares));
        QCOMPARE(r.kinds.front().kind, ComponentKind::Gpu); // the most frequent failure
        // No spares buy nothing; a pool as big as a cooling zone covers it too.
        policy.spareGpus = 0;
        const LossRanking none = model.expectedLosses(policy);
        QCOMPARE(none.availabilitySpares, none.availabilityNoSpares);
        policy.spareGpus = 1024;
        for (const KindLoss& l : model.expectedLosses(policy).kinds)
            if (l.kind == ComponentKind::Cooling)
                QVERIFY(l.sparesCover);
        policy.repairH = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.expectedLosses(policy));
        // A spine's name is not a decimal a slide would read as one number.
        QCOMPARE(
            model.components()[static_cast<std::size_t>(model.id(ComponentKind::Spine, 11))].name,
            std::string("spine 3 of pod 1"));
    }
    void graphNeighboursAndTopology() {
        const ClusterSpec spec;
        const ClusterFailureModel model(spec, llamaLayout(true));
        // A node's direct dependents are its GPUs; a ToR needs its rack and any one spine.
        std::vector<int> gpus;
        for (int g = 0; g < spec.gpusPerNode; ++g)
            gpus.push_back(model.id(ComponentKind::Gpu, spec.gpusPerNode + g));
        QCOMPARE(model.dependentsOf(model.id(ComponentKind::Node, 1)), gpus);
        const auto tor = model.dependenciesOf(model.id(ComponentKind::Tor, 0));
        QCOMPARE(tor.size(), std::size_t(2));
        QCOMPARE(tor[0], std::vector<int>{model.id(ComponentKind::Rack, 0)});
        QCOMPARE(int(tor[1].size()), spec.spinesPerPod);
        QCOMPARE(model.dependenciesOf(model.id(ComponentKind::Rack, 5)).size(), std::size_t(2));
        QVERIFY(model.dependenciesOf(model.id(ComponentKind::Storage, 0)).empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.dependentsOf(-1));
        // A fabric-mapping topology (parallel/cluster_topology.h) gives its nodes and leaf size.
        ClusterTopology t;
        t.nodes = 2048;
        t.nodesPerLeaf = 2;
        const ClusterSpec fromTopology = clusterSpecFor(t);
        QCOMPARE(fromTopology.gpus, 16384);
        QCOMPARE(fromTopology.nodesPerRack, 2);
    }
    void blastRadiusRefusesBadLayouts() {
        ParallelLayout l = llamaLayout(true);
        l.dp = 100;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ClusterFailureModel(ClusterSpec{}, l));
        ClusterSpec odd;
        odd.gpus = 12;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, odd.validate());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseLayoutSizes("tp=8,pp=16"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseLayoutSizes("tp=8,pp=16,dp=0"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseLayoutSizes("tp=8,pp=1e9,dp=1e9"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseLayoutSizes("tp=8,tp=16,dp=2"));
        const ClusterFailureModel model(ClusterSpec{}, llamaLayout(true));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.id(ComponentKind::Node, 2048));
        QVERIFY_THROWS_EXCEPTION(
            CalcError, runCalc("blast-radius", {{"fail", "node"}, {"layout", "tp=8,pp=16,dp=64"}}));
        QVERIFY_THROWS_EXCEPTION(CalcError,
                                 runCalc("blast-radius", {{"fail", "pdu"}, {"index", "9999"}}));
        const auto j = runCalc("blast-radius", {{"fail", "rack"}, {"aligned", "false"}});
        QCOMPARE(j["gpus_lost"].get<int>(), 16);
        QCOMPARE(j["replicas_broken"].get<int>(), 16);
        QCOMPARE(j["job_stops"].get<bool>(), true);
    }
    void hangTriageFindsEveryInjectedCulprit() {
        const HangFault faults[] = {HangFault::DeadRank, HangFault::SkippedCollective,
                                    HangFault::SizeMismatch, HangFault::OrderMismatch};
        int viaMissing = 0, viaMismatch = 0;
        for (HangFault f : faults) {
            for (std::uint64_t seed = 1; seed <= 150; ++seed) {
                HangConfig c;
                c.ranks = 3 + static_cast<int>(mixSeed(seed, 1) % 62);
                c.collectives = 2 + static_cast<int>(mixSeed(seed, 2) % 40);
                c.fault = f;
                c.culprit =
                    static_cast<int>(mixSeed(seed, 3) % static_cast<std::uint64_t>(c.ranks));
                const int last =
                    f == HangFault::OrderMismatch ? c.collectives - 2 : c.collectives - 1;
                c.faultAt =
                    static_cast<int>(mixSeed(seed, 4) % static_cast<std::uint64_t>(last + 1));
                const HangSimulation sim = simulateHang(c, seed);
                const QString what = QString("%1 seed %2").arg(hangFaultName(f).c_str()).arg(seed);
                QVERIFY2(sim.hung, qPrintable(what));
                const HangTriage t = triageHang(sim.ranks);
                QVERIFY2(t.culprits == std::vector<int>{c.culprit}, qPrintable(what));
                QVERIFY(t.steps.size() >= 3);
                QVERIFY(t.steps.back().title.find("Culprit") != std::string::npos);
                for (std::size_t i = 1; i < t.steps.size(); ++i)
                    QVERIFY(t.steps[i].suspects.size() <= t.steps[i - 1].suspects.size());
                for (const TriageStep& s : t.steps)
                    QVERIFY(!s.explanation.empty());
                (sim.ranks[static_cast<std::size_t>(c.culprit)].stateAt(sim.stuckSeq) ==
                         CallState::NotIssued
                     ? viaMissing
                     : viaMismatch)++;
                // Spinning ranks read 100% GPU-Util with a few SMs busy; the stuck call is
                // "started" on every rank that issued it.
                for (const RankFlightRecord& r : sim.ranks) {
                    if (r.stateAt(sim.stuckSeq) == CallState::Started) {
                        QCOMPARE(r.gpuUtil, 100.0);
                        QCOMPARE(r.smActivity, double(c.channels) / c.smCount);
                    } else {
                        QCOMPARE(r.gpuUtil, 0.0);
                    }
                }
                if (f == HangFault::DeadRank) {
                    const RankFlightRecord& dead = sim.ranks[static_cast<std::size_t>(c.culprit)];
                    QVERIFY(!dead.alive);
                    QCOMPARE(int(dead.entries.size()), c.faultAt);
                    QCOMPARE(sim.stuckSeq, c.faultAt);
                }
            }
        }
        QVERIFY(viaMissing > 100 && viaMismatch > 100); // both triage routes exercised
        // Same seed, same recorders; no fault, no hang and no suspects.
        HangConfig c;
        QCOMPARE(simulateHang(c, 9).ranks, simulateHang(c, 9).ranks);
        c.fault = HangFault::None;
        const HangSimulation ok = simulateHang(c, 9);
        QVERIFY(!ok.hung);
        QVERIFY(triageHang(ok.ranks).culprits.empty());
        c.ranks = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateHang(c, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseHangFault("gremlin"));
        const auto j = runCalc("hang", {{"fault", "size"}, {"culprit", "3"}, {"at", "4"}});
        QCOMPARE(j["culprits"].get<std::vector<int>>(), std::vector<int>{3});
        QVERIFY_THROWS_EXCEPTION(CalcError, runCalc("hang", {{"culprit", "20"}}));
    }

    // Each triage step says what it establishes, in the order the triage finds it: the stuck
    // number, then who never called it or that everyone did and how their calls differ, then
    // the culprit. Ranks whose recorders read alike form one group; the culprit stands alone.
    void hangTriageKindsAndRankGroups() {
        using K = TriageKind;
        const std::pair<HangFault, std::vector<K>> expected[] = {
            {HangFault::DeadRank, {K::FirstIncomplete, K::NeverIssued, K::Culprit}},
            {HangFault::SkippedCollective,
             {K::FirstIncomplete, K::AllIssued, K::CompareCalls, K::Culprit}},
            {HangFault::SizeMismatch,
             {K::FirstIncomplete, K::AllIssued, K::CompareCalls, K::Culprit}},
            {HangFault::OrderMismatch,
             {K::FirstIncomplete, K::AllIssued, K::CompareCalls, K::Culprit}},
        };
        for (const auto& [fault, kinds] : expected)
            for (int ranks : {3, 16, 32, 64}) {
                HangConfig c;
                c.fault = fault;
                c.ranks = ranks;
                c.culprit = ranks / 2;
                const HangSimulation sim = simulateHang(c, 7);
                const HangTriage t = triageHang(sim.ranks);
                std::vector<K> got;
                for (const TriageStep& s : t.steps)
                    got.push_back(s.kind);
                QVERIFY2(got == kinds, hangFaultName(fault).c_str());
                QCOMPARE(t.stuckSeq, sim.stuckSeq);
                const auto groups = identicalRankGroups(sim.ranks);
                QCOMPARE(groups.size(), std::size_t{2});
                QCOMPARE(groups[1], std::vector<int>{c.culprit});
                QCOMPARE(int(groups[0].size()), ranks - 1);
                for (int r : groups[0])
                    QCOMPARE(sim.ranks[std::size_t(r)].entries, sim.ranks[0].entries);
            }
        // No fault: every rank reads alike, one group, and the triage says there is no hang.
        HangConfig ok;
        ok.fault = HangFault::None;
        const HangSimulation sim = simulateHang(ok, 7);
        QCOMPARE(identicalRankGroups(sim.ranks).size(), std::size_t{1});
        const HangTriage t = triageHang(sim.ranks);
        QCOMPARE(t.steps.size(), std::size_t{1});
        QVERIFY(t.steps.front().kind == TriageKind::NoHang);
        QCOMPARE(t.stuckSeq, -1);
    }
};

QTEST_GUILESS_MAIN(TestReliabilityModels)
#include "test_reliability_models.moc"
