// scheduler: the scheduler scenario draws what simulateCluster recorded. The Gantt per node never
// holds more GPUs than the cluster (or a node) has, and its GPU-hours are the model's
// allocated GPU-hours; every policy replays the one trace; the metrics on screen are the
// model's; preemption loses at most a contract's interval; bad parameters are refused.
#include "engine/number_format.h"
#include "planning/cluster_scheduler.h"
#include "planning/gang_allocation.h"
#include "planning/gpu_placement.h"
#include "planning/job_trace.h"
#include "scenario_test_helpers.h"

#include <QElapsedTimer>
#include <QtTest>
#include <algorithm>
#include <map>

using namespace wb;
using wb::test::first;

namespace {

const char* const kPolicySteps[] = {"FIFO, first fit: head-of-line blocking",
                                    "Gang scheduling with EASY backfill",
                                    "Topology-aware placement", "Preemption with quotas"};

// The scenario's defaults (parameters()) rebuilt by hand: the test runs the model itself.
std::vector<Job> defaultTrace(int jobs = 300, int nodes = 32) {
    JobTraceConfig t;
    t.jobs = jobs;
    t.clusterGpus = nodes * 8;
    t.seed = 1;
    t.load = 0.9;
    t.teams = 4;
    return generateJobTrace(t);
}
SchedulerConfig defaultConfig(SchedulePolicy p, int nodes = 32) {
    SchedulerConfig c;
    c.cluster.nodes = nodes;
    c.cluster.gpusPerNode = 8;
    c.cluster.nodesPerLeaf = 4;
    c.policy = p;
    return c;
}

std::string pct(double share) {
    return formatSignificant(share * 100.0, 3) + " %";
}
std::string hours(double h) {
    return formatSignificant(h, 3) + " h";
}

const FactRow& row(const FactsFrame& f, const std::string& label) {
    for (const FactRow& r : f.rows)
        if (r.label == label)
            return r;
    qFatal("no row %s", label.c_str());
}

int jobOf(const ScheduleBar& b) { // tips start "job N:"
    return std::stoi(b.tip.substr(4, b.tip.find(':') - 4));
}

// Sweeps the bars' starts and ends: the most GPUs held at once, in all and on one row. A bar's
// label is the GPUs its job held on that node.
std::pair<int, int> peakHeld(const ScheduleFrame& f) {
    std::vector<std::pair<double, int>> all;
    int peakRow = 0;
    for (const ScheduleRow& r : f.rows) {
        std::vector<std::pair<double, int>> edges;
        for (const ScheduleBar& b : r.bars) {
            const int n = std::stoi(b.label);
            edges.emplace_back(b.startS, n);
            edges.emplace_back(b.endS, -n);
        }
        std::sort(edges.begin(), edges.end()); // a release sorts before a take at one time
        int held = 0;
        for (const auto& [t, d] : edges)
            peakRow = std::max(peakRow, held += d);
        all.insert(all.end(), edges.begin(), edges.end());
    }
    std::sort(all.begin(), all.end());
    int held = 0, peak = 0;
    for (const auto& [t, d] : all)
        peak = std::max(peak, held += d);
    return {peak, peakRow};
}

} // namespace

class TestSchedulerScenario : public QObject {
    Q_OBJECT
private slots:
    void ganttNeverHoldsMoreGpusThanExist() {
        for (const char* nodes : {"32", "8"}) {
            for (const char* load : {"0.9", "1.5"}) {
                const Story s = wb::test::build("scheduler", {{"nodes", nodes}, {"load", load}});
                const int gpus = std::stoi(nodes) * 8;
                for (const char* title : kPolicySteps) {
                    const auto g =
                        first<ScheduleFrame>(s.steps[wb::test::stepIndex(s, title)].frames(1.0));
                    QVERIFY(g);
                    QCOMPARE(static_cast<int>(g->rows.size()), std::stoi(nodes));
                    const auto [peak, peakRow] = peakHeld(*g);
                    QVERIFY2(peak <= gpus, title);
                    QVERIFY2(peakRow <= 8, title);
                    QVERIFY(peak > gpus / 2); // the cluster is busy, not empty
                }
            }
        }
    }

    void ganttGpuHoursAreTheModelsAllocation() {
        // Σ bar length × GPUs = allocated GPU-hours = utilisation × GPUs × horizon.
        const Story s = wb::test::build("scheduler");
        const std::vector<Job> trace = defaultTrace();
        for (int k = 0; k < 4; ++k) {
            const auto p = static_cast<SchedulePolicy>(k);
            const ScheduleResult r = simulateCluster(trace, defaultConfig(p));
            const auto g =
                first<ScheduleFrame>(s.steps[wb::test::stepIndex(s, kPolicySteps[k])].frames(1.0));
            double gpuH = 0.0;
            for (const ScheduleRow& row : g->rows)
                for (const ScheduleBar& b : row.bars)
                    gpuH += (b.endS - b.startS) / 3600.0 * std::stoi(b.label);
            QVERIFY(std::abs(gpuH - r.utilization * 256 * r.horizonH) < 1e-6 * gpuH);
            QCOMPARE(g->axisUnit, std::string("h"));
            QCOMPARE(g->endS, r.horizonH * 3600.0);
        }
    }

    void everyPolicyReplaysTheSameTrace() {
        const Story s = wb::test::build("scheduler");
        const std::vector<Job> trace = defaultTrace();
        // The trace step: one bar per job, starting at its arrival.
        const auto t = first<ScheduleFrame>(s.steps[0].frames(1.0));
        std::map<int, double> arrivalS;
        for (const ScheduleRow& r : t->rows)
            for (const ScheduleBar& b : r.bars)
                arrivalS[std::stoi(b.label)] = b.startS;
        QCOMPARE(arrivalS.size(), trace.size());
        for (const Job& j : trace)
            QCOMPARE(arrivalS[j.id], j.arrivalH * 3600.0);
        for (const char* title : kPolicySteps) {
            const Frames f = s.steps[wb::test::stepIndex(s, title)].frames(1.0);
            // Every job is accounted for: done + running + waiting = the trace's jobs.
            const std::string counts =
                row(*first<FactsFrame>(f), "jobs done / running / waiting").value;
            int done = 0, running = 0, waiting = 0;
            QCOMPARE(std::sscanf(counts.c_str(), "%d / %d / %d", &done, &running, &waiting), 3);
            QCOMPARE(done + running + waiting, static_cast<int>(trace.size()));
            // No job starts before it arrives.
            const ScheduleFrame g = *first<ScheduleFrame>(f);
            for (const ScheduleRow& r : g.rows)
                for (const ScheduleBar& b : r.bars)
                    QVERIFY(b.startS >= arrivalS[jobOf(b)]);
        }
        // And the model logs the same arrivals under every policy.
        for (int k = 0; k < 4; ++k) {
            const ScheduleResult r =
                simulateCluster(trace, defaultConfig(static_cast<SchedulePolicy>(k)));
            std::vector<double> arrivals;
            for (const ScheduleEvent& e : r.events)
                if (e.kind == ScheduleEventKind::Arrive)
                    arrivals.push_back(e.timeH);
            QCOMPARE(arrivals.size(), trace.size());
            for (const Job& j : trace)
                QCOMPARE(arrivals[static_cast<std::size_t>(j.id)], j.arrivalH);
        }
    }

    void metricsShownAreTheModels() {
        const Story s = wb::test::build("scheduler", {{"nodes", "16"}, {"seed", "7"}});
        const std::vector<Job> trace = defaultTrace(300, 16);
        JobTraceConfig tc;
        tc.jobs = 300;
        tc.clusterGpus = 128;
        tc.seed = 7;
        const std::vector<Job> seeded = generateJobTrace(tc);
        const FactsFrame compare = *first<FactsFrame>(
            s.steps[wb::test::stepIndex(s, "The policies side by side")].frames(1.0));
        for (int k = 0; k < 4; ++k) {
            const auto p = static_cast<SchedulePolicy>(k);
            const ScheduleResult r = simulateCluster(seeded, defaultConfig(p, 16));
            const FactsFrame m =
                *first<FactsFrame>(s.steps[wb::test::stepIndex(s, kPolicySteps[k])].frames(0.5));
            QCOMPARE(row(m, "utilisation (allocated)").value, pct(r.utilization));
            QCOMPARE(row(m, "useful utilisation").value, pct(r.usefulUtilization));
            QCOMPARE(row(m, "fragmentation (stranded)").value, pct(r.fragmentation));
            QCOMPARE(row(m, "mean queueing delay").value, hours(r.meanWaitH));
            QVERIFY(row(m, "jobs done / running / waiting")
                        .source.find(std::to_string(r.preemptions) + " preemptions") !=
                    std::string::npos);
            QCOMPARE(row(compare, schedulePolicyName(p)).value, pct(r.usefulUtilization) + " · " +
                                                                    pct(r.fragmentation) + " · " +
                                                                    hours(r.meanWaitH));
        }
        QVERIFY(trace[3].arrivalH != seeded[3].arrivalH); // the seed reached the trace
    }

    void preemptionLosesAtMostTheContract() {
        const Story s = wb::test::build("scheduler", {{"load", "1.2"}});
        const Frames f =
            s.steps[wb::test::stepIndex(s, "Preemption honours the checkpoint contract")].frames(
                1.0);
        const ScheduleFrame g = *first<ScheduleFrame>(f);
        int lostBars = 0;
        for (const ScheduleRow& r : g.rows)
            for (const ScheduleBar& b : r.bars)
                if (b.category == 1) {
                    ++lostBars;
                    // The longest contract is 2 h of work; a spread job takes at most
                    // 1.25 × 1.1 as long in wall time.
                    QVERIFY(b.endS > b.startS);
                    QVERIFY(b.endS - b.startS <= 2.0 * 1.25 * 1.1 * 3600.0 + 1e-6);
                }
        QVERIFY(lostBars > 0);
        // The axis starts on the hour before the first bar, not at 0 with half of it empty.
        double firstBar = g.endS;
        for (const ScheduleRow& r : g.rows)
            for (const ScheduleBar& b : r.bars)
                firstBar = std::min(firstBar, b.startS);
        QVERIFY(g.startS <= firstBar && firstBar - g.startS < 3600.0);
        // ... and ends on the hour after the last bar, not at the horizon with half of it empty.
        double lastBar = 0.0;
        for (const ScheduleRow& r : g.rows)
            for (const ScheduleBar& b : r.bars)
                lastBar = std::max(lastBar, b.endS);
        QVERIFY(g.endS >= lastBar && g.endS - lastBar < 3600.0);
        const double worst =
            std::stod(row(*first<FactsFrame>(f), "largest loss ÷ its contract").value);
        QVERIFY(worst > 0.0 && worst <= 1.0);
    }

    void focusOnlyMovesTheEmphasis() {
        const Story a = wb::test::build("scheduler", {{"focus", "fifo"}});
        const FactsFrame t = *first<FactsFrame>(
            a.steps[wb::test::stepIndex(a, "The policies side by side")].frames(1.0));
        QVERIFY(row(t, "fifo").emphasis);
        QVERIFY(!row(t, "topology").emphasis);
        const Story b = wb::test::build("scheduler", {{"focus", "preemptive"}});
        QVERIFY(a.steps[2].frames(0.5) == b.steps[2].frames(0.5)); // same simulation
    }

    // Why gang scheduling, simulated: granted one GPU at a time, two jobs that each need three
    // quarters of a node take turns and each hold half of it, so neither can start; all or
    // nothing runs one, then the other.
    void partialAllocationDeadlocksAndGangDoesNot() {
        const GangAllocation partial = allocateTwoJobs(8, 6, 1.0, false, 2.0);
        QVERIFY(partial.deadlocked);
        QCOMPARE(partial.heldAtDeadlock, (std::vector<int>{4, 4}));
        QCOMPARE(partial.idleHeld, 8);
        QCOMPARE(partial.jobHoursDone, 0.0);
        for (const GangSegment& seg : partial.segments)
            QVERIFY(!seg.running);
        const GangAllocation gang = allocateTwoJobs(8, 6, 1.0, true, 2.0);
        QVERIFY(!gang.deadlocked);
        QCOMPARE(gang.endH, 2.0);
        QCOMPARE(gang.jobHoursDone, 2.0);
        // Each job runs on exactly its need, the second after the first.
        std::map<int, int> gpusRunning;
        for (const GangSegment& seg : gang.segments) {
            QVERIFY(seg.running);
            ++gpusRunning[seg.job];
            QCOMPARE(seg.fromH, seg.job == 0 ? 0.0 : 1.0);
        }
        QCOMPARE(gpusRunning[0], 6);
        QCOMPARE(gpusRunning[1], 6);
        // Two jobs that fit side by side never deadlock, granted either way.
        const GangAllocation fits = allocateTwoJobs(8, 4, 1.0, false, 2.0);
        QVERIFY(!fits.deadlocked);
        QCOMPARE(fits.endH, 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, allocateTwoJobs(8, 9, 1.0, true, 2.0));
        // The step draws the simulation: one row per GPU, the deadlock's bars all "waiting".
        const Story s = wb::test::build("scheduler");
        const Frames f =
            s.steps[wb::test::stepIndex(s, "Why gang scheduling: a partial allocation deadlocks")]
                .frames(1.0);
        const std::vector<ScheduleFrame> g = wb::test::all<ScheduleFrame>(f);
        QCOMPARE(g.size(), std::size_t(2));
        QCOMPARE(g[0].rows.size(), std::size_t(8));
        for (const ScheduleRow& r : g[0].rows)
            for (const ScheduleBar& b : r.bars)
                QCOMPARE(b.category, 2);
    }

    // FGD's fragmentation (Weng et al., ATC '23): the free GPUs of the nodes a task size cannot
    // use, weighted by how often the size arrives.
    void fragmentationFollowsFgdsDefinition() {
        ClusterTopology t;
        t.nodes = 2;
        t.gpusPerNode = 8;
        t.nodesPerLeaf = 2;
        GpuPlacement g(t);
        g.take({0, 1, 2, 3, 4});          // node 0: 3 free; node 1: 8 free
        QCOMPARE(g.fragmentedFor(2), 0);  // both nodes fit 2
        QCOMPARE(g.fragmentedFor(4), 3);  // node 0's 3 free cannot hold 4
        QCOMPARE(g.fragmentedFor(8), 3);  // nor 8
        QCOMPARE(g.fragmentedFor(16), 3); // a two-node job needs whole free nodes
        QCOMPARE(g.fragmentedGpus({{2, 0.5}, {4, 0.5}}), 1.5);
        g.release({0, 1, 2, 3, 4});
        QCOMPARE(g.fragmentedFor(16), 0); // an idle cluster has no fragments
    }

    // Allocated GPU-hours are useful, slowed down by a spread placement, or thrown away by a
    // preemption; with no slowdown at all nothing is lost to spreading.
    void utilisationSplitsIntoUsefulSlowdownAndLost() {
        const std::vector<Job> trace = defaultTrace();
        for (int k = 0; k < 4; ++k) {
            SchedulerConfig c = defaultConfig(static_cast<SchedulePolicy>(k));
            const ScheduleResult r = simulateCluster(trace, c);
            QVERIFY(std::abs(r.utilization - r.usefulUtilization - r.slowdownLoss -
                             r.preemptionLoss) < 1e-9);
            QVERIFY(r.fgdFragmentation >= 0 && r.fgdFragmentation <= 1);
            QVERIFY(r.fgdShareOfFree >= r.fgdFragmentation);
            // Jobs wait at some point in every run of this trace, so the measure is defined.
            QVERIFY(r.fgdWhileWaiting > 0 && r.fgdWhileWaiting <= 1);
            c.spreadSlowdown = 1.0;
            c.crossLeafSlowdown = 1.0;
            const ScheduleResult flat = simulateCluster(trace, c);
            QVERIFY(flat.slowdownLoss < 1e-12);
            if (k == 0)
                QVERIFY(r.spreadStarts > 0); // first fit spreads large jobs on this trace
        }
    }

    // The review's case: with no spread slowdown first fit may win, and the narration must
    // say who wins from the numbers, never credit a slowdown that is not there.
    void topologyNarrationFollowsTheWinner() {
        for (const char* slowdown : {"1", "1.25", "2"}) {
            const Story s = wb::test::build("scheduler", {{"spread-slowdown", slowdown}});
            SchedulerConfig c = defaultConfig(SchedulePolicy::GangBackfill);
            c.spreadSlowdown = std::stod(slowdown);
            const ScheduleResult gang = simulateCluster(defaultTrace(), c);
            c.policy = SchedulePolicy::Topology;
            const ScheduleResult topo = simulateCluster(defaultTrace(), c);
            const std::string n =
                s.steps[wb::test::stepIndex(s, "Topology-aware placement")].narration;
            const double gap = topo.usefulUtilization - gang.usefulUtilization;
            const char* verdict = gap > 0.005    ? "packing wins"
                                  : gap < -0.005 ? "first fit wins"
                                                 : "neither wins";
            QVERIFY2(n.find(verdict) != std::string::npos, n.c_str());
            QVERIFY2(n.find("assumed") != std::string::npos, n.c_str());
            QVERIFY(n.find(pct(gang.slowdownLoss)) != std::string::npos);
        }
        // The slide labels the slowdown as assumed where it shows what it cost.
        const Story s = wb::test::build("scheduler");
        const FactsFrame m = *first<FactsFrame>(
            s.steps[wb::test::stepIndex(s, "Gang scheduling with EASY backfill")].frames(1.0));
        QVERIFY(row(m, "lost to the spread slowdown (assumed)").value.find('%') !=
                std::string::npos);
    }

    // The fragmentation step shows each policy's FGD fragmentation as the model measured it
    // and FGD's own figure derived from its abstract: 290 GPUs ÷ 49 % of 6,200 ≈ 9.5 %.
    void fragmentationStepQuotesTheModelAndFgd() {
        const Story s = wb::test::build("scheduler");
        const FactsFrame f = *first<FactsFrame>(
            s.steps[wb::test::stepIndex(s, "Fragmentation, measured as FGD defines it")].frames(
                1.0));
        QCOMPARE(row(f, "FGD's baseline packers").value, pct(290.0 / 0.49 / 6200.0));
        QCOMPARE(row(f, "FGD's baseline packers").value, std::string("9.55 %"));
        for (int k = 0; k < 4; ++k) {
            const auto p = static_cast<SchedulePolicy>(k);
            const ScheduleResult r = simulateCluster(defaultTrace(), defaultConfig(p));
            QCOMPARE(row(f, schedulePolicyName(p)).value,
                     pct(r.fgdFragmentation) + " · " + pct(r.fgdWhileWaiting));
        }
    }

    // Quota use per team over time is the model's: the teams' GPUs add up to the allocated
    // GPUs after every event, and the chart's last points are the last sample's shares.
    void quotaChartIsTheModelsTeamShare() {
        const ScheduleResult r =
            simulateCluster(defaultTrace(), defaultConfig(SchedulePolicy::Preemptive));
        for (const ClusterSample& x : r.samples) {
            int sum = 0;
            for (int g : x.teamGpus)
                sum += g;
            QCOMPARE(sum, x.allocatedGpus);
        }
        const Story s = wb::test::build("scheduler");
        const ChartFrame c = *first<ChartFrame>(
            s.steps[wb::test::stepIndex(s, "Preemption with quotas")].frames(1.0));
        QCOMPARE(c.series.size(), std::size_t(8)); // each team and its quota
        for (std::size_t k = 0; k < 4; ++k) {
            const ChartSeries& team = c.series[2 * k];
            QCOMPARE(team.points.back().y, 100.0 * r.samples.back().teamGpus[k] / 256.0);
            QCOMPARE(c.series[2 * k + 1].points.front().y, 100.0 * SchedulerConfig{}.teamQuota[k]);
        }
    }

    // The comparison no longer squeezes four panels into one step.
    void comparisonPanelsHaveRoom() {
        const Story s = wb::test::build("scheduler");
        for (const char* title : {"The policies side by side"})
            QVERIFY(s.steps[wb::test::stepIndex(s, title)].frames(1.0).items.size() <= 2);
    }

    void badParametersAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 wb::test::build("scheduler", {{"nodes-per-leaf", "5"}}));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            wb::test::build("scheduler", {{"nodes", "8"}, {"nodes-per-leaf", "16"}}));
        Params p = findScenario("scheduler")->defaultParams();
        QVERIFY(p.set("nodes", "65"));     // more rows than a Gantt stays readable with
        QVERIFY(p.set("focus", "random")); // not a policy
        QVERIFY(p.set("load", "0"));
    }

    void buildingStaysFast() {
        QElapsedTimer timer;
        timer.start();
        const Story s = wb::test::build("scheduler");
        const qint64 ms = timer.elapsed();
        qInfo("default build: %lld ms", ms);
        QVERIFY(!s.steps.empty());
        QVERIFY2(ms < 1000, "the GUI rebuilds on every parameter change");
    }
};

QTEST_APPLESS_MAIN(TestSchedulerScenario)
#include "test_scheduler_scenario.moc"
