// The warp-scheduler simulation: exact issue cycles on tiny programs, latency hiding by TLP
// and ILP, and the "25 % occupancy with ILP 4 beats 75 % with ILP 1" claim.
#include "gpu/warp_scheduler_sim.h"

#include <QtTest>
#include <stdexcept>

using namespace wb;

namespace {
WarpSchedulerResult simulate(int warps, int ilp, int computePerLoad = 32, int latency = 500,
                             int cycles = 4000,
                             SchedulerPolicy policy = SchedulerPolicy::OldestFirst) {
    WarpSchedulerConfig c;
    c.warps = warps;
    c.ilp = ilp;
    c.computePerLoad = computePerLoad;
    c.memoryLatency = latency;
    c.cycles = cycles;
    c.policy = policy;
    return WarpSchedulerSim(c).result();
}

std::vector<int> issueCycles(const IssueTimelineFrame& f, int scheduler) {
    std::vector<int> cycles;
    for (int c = 0; c < f.cycles; ++c)
        if (f.issued[std::size_t(scheduler)][std::size_t(c)] >= 0)
            cycles.push_back(c);
    return cycles;
}
} // namespace

class TestWarpSchedulerSim : public QObject {
    Q_OBJECT
private slots:
    void exactIssueCycles() {
        // One warp: load at 0, its use 10 cycles later, the next load right after.
        const auto one = simulate(1, 1, 1, 10, 24);
        QCOMPARE(issueCycles(one.timeline, 0), (std::vector<int>{0, 10, 11, 21, 22}));
        for (int s = 1; s < 4; ++s)
            QVERIFY(issueCycles(one.timeline, s).empty());
        // ILP 2, two dependent FMAs (4 cycles) per value, chains interleaved:
        // loads 0, 1; first uses at 10, 11; second uses at 14, 15; next loads 16, 17.
        const auto two = simulate(1, 2, 2, 10, 18);
        QCOMPARE(issueCycles(two.timeline, 0), (std::vector<int>{0, 1, 10, 11, 14, 15, 16, 17}));
    }

    void invariants() {
        const auto r = simulate(13, 2);
        long long issued = 0;
        for (int s = 0; s < 4; ++s)
            for (int id : r.timeline.issued[std::size_t(s)])
                if (id >= 0) {
                    QCOMPARE(id % 4, s); // warps are assigned round-robin to schedulers
                    ++issued;
                }
        QCOMPARE(issued, r.issuedSlots);
        long long perWarp = 0;
        for (long long n : r.instructionsPerWarp)
            perWarp += n;
        QCOMPARE(perWarp, issued);
        QCOMPARE(r.timeline.warpsPerScheduler, 4);
        QCOMPARE(r.utilization, double(issued) / (4.0 * 4000));
        // The frame shows the steady state, the figure the lesson's panel quotes beside it.
        QCOMPARE(r.timeline.utilization, r.steadyUtilization);
        QCOMPARE(r.timeline.shownUpTo, 4000);
    }

    void oneWarpCollapses() {
        const auto r = simulate(1, 1);
        QVERIFY(r.utilization < 0.02);
        QVERIFY(r.timeline.caption.find("1 warp (2 % occupancy), ILP 1") != std::string::npos);
    }

    void moreWarpsOrMoreIlpRecover() {
        double previous = 0.0;
        for (int warps : {1, 4, 16, 48, 64}) {
            const double u = simulate(warps, 1).steadyUtilization;
            QVERIFY(u > previous);
            previous = u;
        }
        QVERIFY(simulate(64, 1).steadyUtilization > 0.8);
        previous = 0.0;
        for (int ilp : {1, 2, 4}) {
            const double u = simulate(16, ilp).steadyUtilization;
            QVERIFY(u > previous);
            previous = u;
        }
        QVERIFY(simulate(16, 4).steadyUtilization > 0.8);
    }

    // 16 warps (25 %) × ILP 4 keep 64 loads in flight, 48 warps (75 %) × ILP 1 only 48:
    // the low-occupancy kernel issues more, both in a balanced kernel (32 FMAs per value)
    // and in a memory-bound one (1 FMA per value), at 400 to 600 cycles of latency.
    void lowOccupancyWithIlpBeatsHighOccupancy() {
        for (int latency : {400, 500, 600})
            for (int compute : {1, 32}) {
                const auto low = simulate(16, 4, compute, latency);
                const auto high = simulate(48, 1, compute, latency);
                QVERIFY(low.steadyUtilization > high.steadyUtilization);
                QVERIFY(low.utilization > high.utilization);
                QVERIFY(low.averageLoadsInFlight > high.averageLoadsInFlight);
            }
        // Balanced kernel at 500 cycles: ≈ 85 % against ≈ 65 % of issue slots.
        QVERIFY(simulate(16, 4).steadyUtilization > 0.8);
        QVERIFY(simulate(48, 1).steadyUtilization < 0.7);
    }

    void policies() {
        // Loose round robin keeps warps in lockstep, so they all wait on memory together:
        // oldest-first hides latency better with the same warps.
        const auto gto = simulate(64, 1);
        const auto lrr = simulate(64, 1, 32, 500, 4000, SchedulerPolicy::RoundRobin);
        QVERIFY(gto.steadyUtilization > lrr.steadyUtilization);
        QVERIFY(lrr.steadyUtilization > 0.3);
    }

    void deterministicAndPlayback() {
        const auto a = simulate(24, 2);
        const auto b = simulate(24, 2);
        QCOMPARE(a.timeline, b.timeline);
        WarpSchedulerConfig c;
        c.cycles = 1000;
        const WarpSchedulerSim sim(c);
        QCOMPARE(sim.frameAt(0.0).shownUpTo, 0);
        QCOMPARE(sim.frameAt(0.5).shownUpTo, 500);
        QCOMPARE(sim.frameAt(2.0).shownUpTo, 1000);
        QCOMPARE(sim.frameAt(0.25), sim.frameAt(0.25));
    }

    void invalidConfig() {
        WarpSchedulerConfig c;
        c.warps = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WarpSchedulerSim{c});
        c.warps = 65;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WarpSchedulerSim{c});
        c.warps = 8;
        c.ilp = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WarpSchedulerSim{c});
        c.ilp = 1;
        c.memoryLatency = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WarpSchedulerSim{c});
    }
};

QTEST_APPLESS_MAIN(TestWarpSchedulerSim)
#include "test_warp_scheduler_sim.moc"
