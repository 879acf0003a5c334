// The planning models against the papers (FACTS.md §4, §6, §7, §9, §10): ZeRO's model states
// (Figure 1's example and Table 1's grid), Korthikanti's activation formulas and the savings
// the paper quotes, the layouts a budget forces, the scheduler's conservation of GPUs and jobs
// under every policy on one trace, the checkpoint contract, and the claims check.
#include "calc/calc_models.h"
#include "parallel/memory_budget.h"
#include "parallel/transformer_step.h"
#include "planning/claims_check.h"
#include "planning/cluster_scheduler.h"
#include "planning/gpu_placement.h"
#include "planning/job_trace.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <cmath>
#include <map>
#include <set>

using namespace wb;

namespace {

using wb::test::runCalc;

bool near(double a, double b, double rel = 1e-9) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

// Within half a unit of the last digit the paper prints.
bool printedAs(double value, double printed, double lastDigit) {
    return std::fabs(value - printed) <= lastDigit / 2 + 1e-12;
}

double zeroGb(double psi, int stage, int nd) {
    return modelStatesPerGpu(psi, stage, nd).total() / 1e9;
}

// Korthikanti Table 2, written out here from the paper (not from memory_budget.cpp).
double table2(double s, double b, double h, double a, double t, bool sp, Recompute r) {
    const double sbh = s * b * h;
    if (r == Recompute::Full)
        return 2 * sbh;
    if (r == Recompute::Selective)
        return sp ? sbh * 34 / t : sbh * (10 + 24 / t);
    return sp ? sbh * (34 / t + 5 * a * s / (h * t)) : sbh * (10 + 24 / t + 5 * a * s / (h * t));
}

ActivationShape shape(double s, double b, double h, double a, int t, bool sp, Recompute r) {
    return {.seq = s,
            .microBatch = b,
            .hidden = h,
            .heads = a,
            .tp = t,
            .sequenceParallel = sp,
            .recompute = r};
}

SchedulerConfig cluster(int nodes, SchedulePolicy p, int nodesPerLeaf = 4) {
    SchedulerConfig c;
    c.cluster.nodes = nodes;
    c.cluster.nodesPerLeaf = nodesPerLeaf;
    c.policy = p;
    return c;
}

std::vector<Job> sharedTrace() {
    JobTraceConfig t;
    t.jobs = 3000;
    t.clusterGpus = 256;
    t.seed = 7;
    return generateJobTrace(t);
}

Job job(int id, int gpus, double arrival, double duration, int priority = 0,
        double interval = 1.0) {
    return {.id = id,
            .gpus = gpus,
            .arrivalH = arrival,
            .durationH = duration,
            .priority = priority,
            .team = 0,
            .checkpointIntervalH = interval};
}

const ScheduleEvent* eventOf(const ScheduleResult& r, ScheduleEventKind k, int id, int nth = 0) {
    for (const auto& e : r.events)
        if (e.kind == k && e.job == id && nth-- == 0)
            return &e;
    return nullptr;
}

} // namespace

class TestPlanningModels : public QObject {
    Q_OBJECT
private slots:
    void zeroPaperExample() {
        // ZeRO Figure 1 / §5: Ψ = 7.5B, N_d = 64, K = 12: 120, 31.4, 16.6, 1.9 GB per GPU.
        const double printed[] = {120, 31.4, 16.6, 1.9};
        for (int stage = 0; stage < 4; ++stage) {
            const auto j = runCalc(
                "memory",
                {{"params", "7.5e9"}, {"gpus", "64"}, {"zero", std::to_string(stage).c_str()}});
            QVERIFY2(printedAs(j["total_gb"].get<double>(), printed[stage], stage ? 0.1 : 1),
                     j.dump().c_str());
            QCOMPARE(j["total_gb"].get<double>(), j["weights_gb"].get<double>() +
                                                      j["gradients_gb"].get<double>() +
                                                      j["optimizer_gb"].get<double>());
        }
        // §3.1: 2Ψ + 2Ψ + 12Ψ; GPT-2 1.5B needs ≥ 24 GB of model states, 3 GB of fp16 weights.
        const ModelStates gpt2 = modelStatesPerGpu(1.5e9, 0, 1);
        QCOMPARE(gpt2.total(), 24e9);
        QCOMPARE(gpt2.weights, 3e9);
    }
    void zeroTable1Grid() {
        // FACTS §6, Table 1 for 7.5B, printed to the digit shown.
        const int nd[] = {1, 4, 16, 64, 256, 1024};
        const double os[] = {120, 52.5, 35.6, 31.4, 30.4, 30.1};
        const double osg[] = {120, 41.3, 21.6, 16.6, 15.4, 15.1};
        const double osgp[] = {120, 30, 7.5, 1.88, 0.47, 0.12};
        const double osgpDigit[] = {1, 1, 0.1, 0.01, 0.01, 0.01};
        for (int i = 0; i < 6; ++i) {
            QVERIFY2(printedAs(zeroGb(7.5e9, 1, nd[i]), os[i], i ? 0.1 : 1),
                     QByteArray::number(nd[i]).constData());
            QVERIFY2(printedAs(zeroGb(7.5e9, 2, nd[i]), osg[i], i ? 0.1 : 1),
                     QByteArray::number(nd[i]).constData());
            QVERIFY(printedAs(zeroGb(7.5e9, 3, nd[i]), osgp[i], osgpDigit[i]));
        }
        // §1: P_os → 4×, P_os+g → 8×, P_os+g+p → N_d× as N_d grows.
        QVERIFY(near(zeroGb(1e9, 0, 1) / zeroGb(1e9, 1, 1 << 30), 4.0, 1e-6));
        QVERIFY(near(zeroGb(1e9, 0, 1) / zeroGb(1e9, 2, 1 << 30), 8.0, 1e-6));
        QVERIFY(near(zeroGb(1e9, 0, 1) / zeroGb(1e9, 3, 512), 512.0));
    }
    void zeroShardsOneStateMorePerStage() {
        const double psi = 1e9;
        const ModelStates s1 = modelStatesPerGpu(psi, 1, 8), s2 = modelStatesPerGpu(psi, 2, 8),
                          s3 = modelStatesPerGpu(psi, 3, 8);
        QCOMPARE(s1.weights, 2 * psi);
        QCOMPARE(s1.gradients, 2 * psi);
        QCOMPARE(s1.optimizer, 12 * psi / 8);
        QCOMPARE(s2.gradients, 2 * psi / 8);
        QCOMPARE(s2.weights, 2 * psi);
        QCOMPARE(s3.weights, 2 * psi / 8);
        // fp32 Adam keeps 4 + 4 + 8 bytes: the same 16Ψ, split differently.
        const auto fp32 = stateBytesPerParam(Optimizer::Adam, TrainingPrecision::Fp32);
        QCOMPARE(fp32.total(), 16.0);
        QCOMPARE(fp32.weights, 4.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelStatesPerGpu(psi, 4, 8));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelStatesPerGpu(psi, 1, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelStatesPerGpu(std::nan(""), 1, 8));
    }
    void activationFormulasPerVariant() {
        // GPT-3 175B (a = 96, s = 2048, h = 12288), b = 1, t = 8: every Table 2 row.
        const double s = 2048, b = 1, h = 12288, a = 96;
        for (int t : {1, 8})
            for (bool sp : {false, true})
                for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                    const double got = activationBytesPerLayer(shape(s, b, h, a, t, sp, r));
                    QVERIFY2(near(got, table2(s, b, h, a, t, sp, r)),
                             qPrintable(QString("t=%1 sp=%2 r=%3").arg(t).arg(sp).arg(int(r))));
                }
        // No parallelism from the per-block terms: attention 11sbh + 5as²b, MLP 19sbh,
        // LayerNorms 4sbh.
        const double sbh = s * b * h;
        QVERIFY(near(activationBytesPerLayer(shape(s, b, h, a, 1, false, Recompute::None)),
                     11 * sbh + 5 * a * s * s * b + 19 * sbh + 4 * sbh));
        QCOMPARE(activationBytesPerLayer(shape(s, b, h, a, 8, true, Recompute::Full)), 2 * sbh);
        // Eq. 5: the first 1F1B stage holds L layers; interleaving × (1 + (p−1)/(p·m)).
        const ActivationShape x = shape(s, b, h, a, 8, true, Recompute::None);
        QVERIFY(near(activationBytesFirstStage(x, 96, 8), sbh * 96 / 8 * (34 + 5 * a * s / h)));
        QVERIFY(near(activationBytesFirstStage(x, 96, 8, 2, 16),
                     activationBytesFirstStage(x, 96) * (1 + 7.0 / (8 * 16))));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            activationBytesPerLayer(shape(0, b, h, a, 1, false, Recompute::None)));
    }
    void activationSavingsThePaperQuotes() {
        // §5: 5as/h is 80 for GPT-3 and 64 for MT-NLG; selective recomputation saves 70 % and
        // 65 %; with sequence parallelism the total reduction is about 5×.
        auto saving = [](double a, double s, double h) {
            const double none =
                activationBytesPerLayer(shape(s, 1, h, a, 1, false, Recompute::None));
            const double sel =
                activationBytesPerLayer(shape(s, 1, h, a, 1, false, Recompute::Selective));
            return 1 - sel / none;
        };
        QVERIFY(printedAs(100 * saving(96, 2048, 12288), 70, 1));
        QVERIFY(printedAs(100 * saving(128, 2048, 20480), 65, 1));
        const double tpOnly =
            activationBytesPerLayer(shape(2048, 1, 12288, 96, 8, false, Recompute::None));
        const double both =
            activationBytesPerLayer(shape(2048, 1, 12288, 96, 8, true, Recompute::Selective));
        QVERIFY2(tpOnly / both > 4.5 && tpOnly / both < 6,
                 QByteArray::number(tpOnly / both).constData());
    }
    void stepModelCallsTheSameFormulas() {
        TransformerConfig m;
        m.params = 7e9;
        m.globalBatch = 512;
        ParallelLayout l;
        l.tp = 8;
        l.dp = 8;
        l.zero = 2;
        ClusterTopology t;
        t.nodes = 8;
        const StepEstimate e = estimateStep(m, l, t, 989e12, 0.5);
        QCOMPARE(e.modelStateBytesPerGpu, modelStatesPerGpu(7e9 / 8, 2, 8).total());
        QCOMPARE(e.activationBytesPerGpu,
                 activationBytesFirstStage(shape(4096, 1, 4096, 32, 8, true, Recompute::None), 32));
        QCOMPARE(e.flops6nd, trainingFlops(7e9, 512.0 * 4096));
    }
    void calcActivationsJson() {
        const auto j = runCalc("activations", {{"seq", "2048"},
                                               {"micro-batch", "1"},
                                               {"hidden", "12288"},
                                               {"heads", "96"},
                                               {"layers", "96"},
                                               {"tp", "8"},
                                               {"sp", "true"},
                                               {"recompute", "selective"}});
        const double sbh = 2048.0 * 12288;
        QCOMPARE(j["bytes_per_layer"].get<double>(), sbh * 34 / 8);
        QVERIFY(near(j["total_gb"].get<double>(), sbh * 34 / 8 * 96 / 1e9));
        QVERIFY_THROWS_EXCEPTION(CalcError, runCalc("activations", {{"seq", "2048"},
                                                                    {"micro-batch", "1"},
                                                                    {"hidden", "4096"},
                                                                    {"heads", "32"},
                                                                    {"layers", "32"},
                                                                    {"tp", "3"}}));
        QVERIFY_THROWS_EXCEPTION(
            CalcError,
            runCalc("memory", {{"params", "7e9"}, {"gpus", "10"}, {"zero", "1"}, {"tp", "4"}}));
        const auto fits = runCalc(
            "memory", {{"params", "7.5e9"}, {"gpus", "8"}, {"zero", "0"}, {"gpu", "h100-sxm"}});
        QCOMPARE(fits["model_states_fit"].get<bool>(), false); // 120 GB > 80 GB
    }
    void layoutsABudgetForces() {
        MemoryModel m; // 7.5B, 32 layers, h 4096, 32 heads, s 2048, b 1
        m.shape.params = 7.5e9;
        m.shape.seq = 2048;
        const double hbm = 80e9;
        LayoutCostBasis basis; // 8-GPU nodes, the step model's H100 links
        basis.peakFlops = 989e12;
        const auto fits = layoutsThatFit(m, 64, hbm, basis);
        QVERIFY(!fits.empty());
        for (const LayoutFit& f : fits) {
            QVERIFY(f.budget.total() <= hbm);
            QCOMPARE(f.layout.gpus(), 64);
        }
        // 16Ψ = 120 GB cannot fit an 80 GB GPU without sharding; ZeRO-1 (31.4 GB) leaves room
        // for L·sbh(34 + 5as/h) = 30.6 GB of activations and 2 GB of buffers.
        const MemoryLayout first = fits.front().layout;
        QCOMPARE(first.tp * first.pp, 1);
        QCOMPARE(first.zero, 1);
        QVERIFY(first.recompute == Recompute::None);
        MemoryLayout zero0 = first;
        zero0.zero = 0;
        QVERIFY(memoryBudget(m, zero0).total() > hbm);
        // A 1T model on 8 GPUs: 16 TB of states over 640 GB of HBM fits no layout.
        m.shape.params = 1e12;
        QVERIFY(layoutsThatFit(m, 8, hbm, basis).empty());
        // The same through calc: the forced layout and every listed budget under HBM.
        const auto j = runCalc("memory-fit", {{"params", "7.5e9"},
                                              {"gpus", "64"},
                                              {"layers", "32"},
                                              {"hidden", "4096"},
                                              {"heads", "32"},
                                              {"seq", "2048"},
                                              {"gpu", "h100-sxm"}});
        QCOMPARE(j["forced"].get<std::string>(), layoutName(first));
        for (const auto& l : j["layouts"])
            QVERIFY(l["total_gb"].get<double>() <= 80.0);
        const auto none = runCalc("memory-fit", {{"params", "1e12"},
                                                 {"gpus", "8"},
                                                 {"layers", "32"},
                                                 {"hidden", "4096"},
                                                 {"heads", "32"},
                                                 {"seq", "2048"},
                                                 {"gpu", "h100-sxm"}});
        QVERIFY(none["forced"].is_null());
        QCOMPARE(none["layouts_fitting"].get<int>(), 0);
        MemoryLayout bad;
        bad.tp = 3;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, memoryBudget(m, bad));
    }
    void placementAndFragmentationGauge() {
        ClusterTopology t;
        t.nodes = 4;
        t.nodesPerLeaf = 2;
        GpuPlacement p(t);
        p.take({0, 8}); // one GPU busy on nodes 0 and 1
        // First fit: a node's worth on the first node with room, a larger job on the lowest
        // free GPUs across partly used nodes; packing keeps one NVLink domain per node's worth.
        QCOMPARE(p.firstFit(4), (std::vector<int>{1, 2, 3, 4}));
        QCOMPARE(p.firstFit(8), (std::vector<int>{16, 17, 18, 19, 20, 21, 22, 23}));
        QCOMPARE(p.firstFit(12), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13}));
        QCOMPARE(p.nodesSpanned(p.firstFit(12)), 2);
        QCOMPARE(p.nodesSpanned(p.packed(4)), 1);
        QCOMPARE(p.nodeOf(p.packed(4).front()), 0); // best fit: a partly used node
        QCOMPARE(p.leavesSpanned(p.packed(16)), 1); // nodes 2 and 3 share leaf 1
        // A waiting 8-GPU job cannot use the 7 + 7 free GPUs of nodes 0 and 1: 14 stranded.
        QCOMPARE(p.stranded(8, 0), 14);
        QCOMPARE(p.stranded(4, 0), 0);
        QCOMPARE(p.stranded(0, 3), 30); // three whole nodes needed, two free: all stranded
        QCOMPARE(p.stranded(0, 0), 0);  // nothing waits: idle, not fragmented
        QVERIFY_THROWS_EXCEPTION(std::logic_error, p.take({8}));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, p.release({2}));
    }
    void schedulerConservesGpusAtEveryEvent() {
        const auto trace = sharedTrace();
        for (const std::string& name : schedulePolicyNames()) {
            const ScheduleResult r = simulateCluster(trace, cluster(32, parseSchedulePolicy(name)));
            std::vector<int> owner(256, -1);
            std::map<int, std::vector<int>> held;
            int allocated = 0;
            for (const ScheduleEvent& e : r.events) {
                if (e.kind == ScheduleEventKind::Start) {
                    QCOMPARE(int(e.gpus.size()), trace[std::size_t(e.job)].gpus); // gang
                    for (int g : e.gpus) {
                        QVERIFY2(owner[std::size_t(g)] < 0,
                                 qPrintable(QString::fromStdString(name)));
                        owner[std::size_t(g)] = e.job;
                    }
                    held[e.job] = e.gpus;
                    allocated += int(e.gpus.size());
                } else if (e.kind != ScheduleEventKind::Arrive) {
                    QCOMPARE(e.gpus, held[e.job]); // releases exactly what it held
                    for (int g : e.gpus)
                        owner[std::size_t(g)] = -1;
                    held.erase(e.job);
                    allocated -= int(e.gpus.size());
                }
                QVERIFY(allocated >= 0 && allocated <= 256);
                QCOMPARE(e.allocatedGpus, allocated);
            }
        }
    }
    void schedulerConservesJobs() {
        const auto trace = sharedTrace();
        for (const std::string& name : schedulePolicyNames()) {
            const ScheduleResult r = simulateCluster(trace, cluster(32, parseSchedulePolicy(name)));
            // The horizon is the last arrival: every job has arrived and is done, running or
            // queued, exactly once.
            QCOMPARE(r.jobsDone + r.jobsRunning + r.jobsWaiting, int(trace.size()));
            std::map<ScheduleEventKind, int> count;
            for (const auto& e : r.events)
                ++count[e.kind];
            QCOMPARE(count[ScheduleEventKind::Arrive], int(trace.size()));
            QCOMPARE(count[ScheduleEventKind::Finish], r.jobsDone);
            QCOMPARE(count[ScheduleEventKind::Start] - count[ScheduleEventKind::Preempt] -
                         count[ScheduleEventKind::Finish],
                     r.jobsRunning);
            for (const JobOutcome& o : r.jobs)
                if (o.finishH >= 0) // never faster than its work at full speed
                    QVERIFY(o.finishH >= trace[std::size_t(o.id)].arrivalH +
                                             trace[std::size_t(o.id)].durationH - 1e-9);
            QVERIFY(r.utilization > 0 && r.utilization <= 1);
            QVERIFY(r.usefulUtilization <= r.utilization + 1e-12);
            QVERIFY(r.fragmentation >= 0 && r.fragmentation <= 1);
            // The gauge over time: stranded GPUs are free ones, and only while jobs wait.
            QVERIFY(!r.samples.empty());
            for (const ClusterSample& c : r.samples) {
                QVERIFY(c.strandedGpus >= 0 && c.strandedGpus <= 256 - c.allocatedGpus);
                if (c.waitingJobs == 0)
                    QCOMPARE(c.strandedGpus, 0);
            }
        }
    }
    void eachPolicyOnTheSameTrace() {
        const auto trace = sharedTrace();
        std::map<std::string, ScheduleResult> r;
        for (const std::string& name : schedulePolicyNames())
            r[name] = simulateCluster(trace, cluster(32, parseSchedulePolicy(name)));
        // One trace: the arrivals are the same events for every policy.
        for (const auto& [name, res] : r) {
            std::vector<std::pair<double, int>> arrivals;
            for (const auto& e : res.events)
                if (e.kind == ScheduleEventKind::Arrive)
                    arrivals.emplace_back(e.timeH, e.job);
            QCOMPARE(int(arrivals.size()), int(trace.size()));
            QCOMPARE(arrivals.back().first, trace.back().arrivalH);
        }
        // fifo starts jobs strictly in arrival order (ids are arrival order).
        int last = -1;
        for (const auto& e : r["fifo"].events)
            if (e.kind == ScheduleEventKind::Start) {
                QVERIFY(e.job > last);
                last = e.job;
            }
        // Topology-aware placement: ≤ 8 GPUs inside one node, larger jobs on whole nodes.
        for (const char* name : {"topology", "preemptive"}) {
            GpuPlacement shapeOf(cluster(32, SchedulePolicy::Topology).cluster);
            for (const auto& e : r[name].events)
                if (e.kind == ScheduleEventKind::Start) {
                    QCOMPARE(shapeOf.nodesSpanned(e.gpus), shapeOf.nodesNeeded(int(e.gpus.size())));
                    QCOMPARE(r[name].jobs[std::size_t(e.job)].slowdown >= 1.0, true);
                }
        }
        // Only the preemptive policy preempts, and it does on this trace.
        QCOMPARE(r["fifo"].preemptions + r["gang-backfill"].preemptions + r["topology"].preemptions,
                 0);
        QVERIFY(r["preemptive"].preemptions > 0);
        // Backfilling lets jobs past a blocked head: less waiting than strict FIFO.
        QVERIFY(r["gang-backfill"].meanWaitH < r["fifo"].meanWaitH);
        // Naive first-fit scatters jobs across nodes, which then run slower; packed jobs less so.
        QVERIFY(r["fifo"].usefulUtilization < r["fifo"].utilization);
        QVERIFY(r["topology"].usefulUtilization / r["topology"].utilization >
                r["fifo"].usefulUtilization / r["fifo"].utilization);
        // Same seed, same result; another seed, another trace.
        const ScheduleResult again = simulateCluster(trace, cluster(32, SchedulePolicy::Topology));
        QCOMPARE(again.meanWaitH, r["topology"].meanWaitH);
        QCOMPARE(again.events.size(), r["topology"].events.size());
        JobTraceConfig other;
        other.jobs = 3000;
        other.clusterGpus = 256;
        other.seed = 8;
        QVERIFY(generateJobTrace(other)[5].durationH != trace[5].durationH);
    }
    void backfillNeverDelaysTheReservation() {
        // 16 GPUs. Job 0 holds 8 until t = 10; job 1 needs all 16 (reserved at t = 10);
        // job 2 (4 GPUs, 2 h) ends before the reservation and backfills; job 3 (4 GPUs, 20 h)
        // would delay job 1 and must wait. FIFO starts nothing past the blocked job 1.
        std::vector<Job> t = {job(0, 8, 0, 10), job(1, 16, 1, 5), job(2, 4, 2, 2), job(3, 4, 3, 20),
                              job(4, 1, 30, 1)};
        SchedulerConfig c = cluster(2, SchedulePolicy::GangBackfill);
        const ScheduleResult b = simulateCluster(t, c);
        QCOMPARE(b.jobs[2].firstStartH, 2.0);
        QCOMPARE(b.jobs[1].firstStartH, 10.0);
        QCOMPARE(b.jobs[3].firstStartH, 15.0);
        c.policy = SchedulePolicy::Fifo;
        const ScheduleResult f = simulateCluster(t, c);
        QCOMPARE(f.jobs[2].firstStartH, 15.0);
        QCOMPARE(f.jobs[1].firstStartH, 10.0);
    }
    void preemptionHonoursTheCheckpointContract() {
        // A low-priority job on all 8 GPUs, checkpointing every hour, is preempted at 2.5 h by
        // a high-priority job: it keeps 2 h of work, loses 0.5 h, resumes when the other ends.
        std::vector<Job> t = {job(0, 8, 0, 10, 0, 1.0), job(1, 8, 2.5, 1, 2)};
        SchedulerConfig c = cluster(1, SchedulePolicy::Preemptive);
        c.horizonH = 100;
        const ScheduleResult r = simulateCluster(t, c);
        const ScheduleEvent* p = eventOf(r, ScheduleEventKind::Preempt, 0);
        QVERIFY(p);
        QCOMPARE(p->timeH, 2.5);
        QCOMPARE(p->lostWorkH, 0.5);
        QCOMPARE(r.jobs[1].firstStartH, 2.5);
        QCOMPARE(eventOf(r, ScheduleEventKind::Start, 0, 1)->timeH, 3.5);
        QCOMPARE(r.jobs[0].finishH, 3.5 + (10 - 2));
        QCOMPARE(r.jobsDone, 2);
        // On the shared trace, no preemption ever loses more than the job's contract.
        const auto trace = sharedTrace();
        const ScheduleResult big = simulateCluster(trace, cluster(32, SchedulePolicy::Preemptive));
        for (const auto& e : big.events)
            if (e.kind == ScheduleEventKind::Preempt) {
                QVERIFY(e.lostWorkH >= 0);
                QVERIFY(e.lostWorkH < trace[std::size_t(e.job)].checkpointIntervalH + 1e-9);
            }
        // Equal priorities and no quota pressure: nobody is preempted.
        t[1].priority = 0;
        QCOMPARE(simulateCluster(t, c).preemptions, 0);
    }
    void quotaLetsATeamReclaimItsShare() {
        // Two teams with half the GPUs each. Team 0 borrows all 8; when team 1 asks for its 4,
        // within quota, the borrowed job (same priority) is preempted; without the preemptive
        // policy team 1 waits for it to finish.
        std::vector<Job> t = {job(0, 8, 0, 10), job(1, 4, 1, 1)};
        t[1].team = 1;
        SchedulerConfig c = cluster(1, SchedulePolicy::Preemptive);
        c.teamQuota = {0.5, 0.5};
        c.horizonH = 100;
        const ScheduleResult r = simulateCluster(t, c);
        QCOMPARE(r.jobs[1].firstStartH, 1.0);
        QCOMPARE(r.jobs[0].preemptions, 1);
        QCOMPARE(r.jobs[0].lostWorkH, 0.0); // preempted exactly at its first checkpoint
        c.policy = SchedulePolicy::Topology;
        QCOMPARE(simulateCluster(t, c).jobs[1].firstStartH, 10.0);
        // A team already at its quota cannot preempt for more.
        t[1].gpus = 8;
        c.policy = SchedulePolicy::Preemptive;
        QCOMPARE(simulateCluster(t, c).preemptions, 0);
    }
    void schedulerRefusesBadInput() {
        auto c = cluster(1, SchedulePolicy::Fifo);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateCluster({job(0, 16, 0, 1)}, c));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateCluster({job(0, 1, 0, 0)}, c));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateCluster({}, c));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 simulateCluster({job(0, 1, 5, 1), job(1, 1, 1, 1)}, c));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSchedulePolicy("random"));
        QVERIFY_THROWS_EXCEPTION(
            CalcError, runCalc("schedule", {{"policy", "fifo"}, {"jobs", "100"}, {"gpus", "12"}}));
        const auto j = runCalc(
            "schedule", {{"policy", "topology"}, {"jobs", "300"}, {"gpus", "64"}, {"seed", "3"}});
        for (const char* k : {"utilization", "fragmentation"})
            QVERIFY(j[k].get<double>() >= 0 && j[k].get<double>() <= 1);
        QVERIFY(j["mean_wait_h"].get<double>() >= 0);
        QVERIFY(j["jobs_done"].get<int>() > 0 && j["jobs_done"].get<int>() <= 300);
    }
    // `calc schedule --spread-slowdown`: the assumed factor reaches the model. A larger one
    // wastes more GPU-hours on the same spread placements (first fit on the same trace), and
    // the JSON says which factor it assumed.
    void scheduleCalcTakesTheSpreadSlowdown() {
        auto run = [](const char* slowdown) {
            return runCalc("schedule", {{"policy", "fifo"},
                                        {"jobs", "300"},
                                        {"gpus", "256"},
                                        {"spread-slowdown", slowdown}});
        };
        const auto flat = run("1"), steep = run("2");
        QVERIFY(steep["slowdown_loss"].get<double>() > flat["slowdown_loss"].get<double>());
        QVERIFY(steep["useful_utilization"].get<double>() <
                flat["useful_utilization"].get<double>());
        QVERIFY(steep["assumes"].get<std::string>().find("runs 2x slower") != std::string::npos);
        QVERIFY(flat["assumes"].get<std::string>().find("runs 1x slower") != std::string::npos);
        for (const auto* j : {&flat, &steep})
            QVERIFY((*j)["fgd_fragmentation"].get<double>() >= 0 &&
                    (*j)["fgd_fragmentation"].get<double>() <= 1);
        Params p(findCalcModel("schedule")->arguments);
        QVERIFY(p.set("spread-slowdown", "0.5")); // refused: a slowdown below 1 is a speed-up
    }
    void claimsMegatronGpt3() {
        // Megatron-LM §5: GPT-3 175B on 300B tokens with 1,024 A100s takes 34 days. 6ND over
        // 1,024 × 312 TFLOP/s × 34 days is about a third of peak: consistent.
        const ClaimsGpu a100{"A100", 312e12, 80e9};
        Claims c;
        c.gpus = 1024;
        c.params = 175e9;
        c.tokens = 300e9;
        c.days = 34;
        const ClaimsVerdict ok = checkClaims(c, a100);
        QVERIFY(near(ok.impliedMfu, 6 * 175e9 * 300e9 / (1024 * 312e12 * 34 * 86400)));
        QVERIFY(ok.consistent);
        QVERIFY(ok.issues.empty());
        // Their 140 TFLOP/s per GPU counts recomputation (8TP, not 6TP): called MFU, 45 % is
        // inconsistent with 34 days, and the issue names the days it would need.
        c.mfu = 140.0 / 312.0;
        const ClaimsVerdict hfu = checkClaims(c, a100);
        QVERIFY(!hfu.consistent);
        QVERIFY(near(hfu.daysAtClaimedMfu, 34.0 * 6 / 8, 0.01));
        // The same run in 5 days would need more than 100 % of the peak.
        c.mfu.reset();
        c.days = 5;
        const ClaimsVerdict fast = checkClaims(c, a100);
        QVERIFY(fast.impliedMfu > 1);
        QVERIFY(!fast.consistent);
        QVERIFY(QString::fromStdString(fast.issues.front()).startsWith("physically impossible"));
        QVERIFY(QString::fromStdString(fast.issues.front()).contains("11.4 days"));
    }
    void claimsImpossibleAndImprobable() {
        const ClaimsGpu h100{"H100", 989.4e12, 80e9};
        Claims c;
        c.gpus = 16384;
        c.params = 405e9;
        c.tokens = 1e12;
        c.days = 54;
        c.mfu = 0.99;   // a fraction: 1.3 is rejected (below)
        c.failures = 0; // Llama 3 saw 419 unexpected interruptions in 54 days on 16,384 GPUs
        c.checkpointBytes = 100e9; // less than 2 bytes × 405B
        const ClaimsVerdict v = checkClaims(c, h100);
        QVERIFY(near(v.expectedFailures, 419.0));
        auto has = [&](const char* word) {
            for (const auto& i : v.issues)
                if (QString::fromStdString(i).contains(word))
                    return true;
            return false;
        };
        QVERIFY(has("the MFU is inflated"));
        QVERIFY(has("improbable"));
        QVERIFY(has("smaller than the BF16 weights"));
        c.mfu = 1.3; // 130 %: a percentage typed as a fraction
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkClaims(c, h100));
        // 419 seen is what the rate predicts: no issue about failures.
        c.failures = 419;
        c.mfu.reset();
        c.checkpointBytes.reset();
        QVERIFY(checkClaims(c, h100).issues.empty());
        // Weights + Adam state (14 bytes × 405B = 5.7 TB) in half a second is 11 TB/s, above
        // the 7 TB/s peak of Llama 3's storage.
        c.checkpointBytes = 14 * 405e9;
        c.checkpointSeconds = 0.5;
        QVERIFY(!checkClaims(c, h100).consistent);
        // A 1T model on 8 GPUs: 16 TB of states do not fit 8 × 80 GB even fully sharded.
        Claims small;
        small.gpus = 8;
        small.params = 1e12;
        small.tokens = 1e9;
        small.days = 1000;
        QVERIFY(QString::fromStdString(checkClaims(small, h100).issues.front()).contains("HBM"));
        small.days = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkClaims(small, h100));
        const auto j = runCalc("claims", {{"gpus", "1024"},
                                          {"params", "175e9"},
                                          {"tokens", "300e9"},
                                          {"days", "5"},
                                          {"gpu", "a100-sxm-80gb"}});
        QCOMPARE(j["consistent"].get<bool>(), false);
        QVERIFY(j["implied_mfu"].get<double>() > 1);
        QVERIFY(!j["issues"].empty());
        Params bad(findCalcModel("claims")->arguments);
        QVERIFY(bad.set("days", "0").has_value());
        QVERIFY(bad.set("params", "nan").has_value());
    }
};

QTEST_GUILESS_MAIN(TestPlanningModels)
#include "test_planning_models.moc"
