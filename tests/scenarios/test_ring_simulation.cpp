// The ring all-reduce simulation moves real integers: every rank must end with the exact
// element-wise sum, and the contributor masks must follow the algorithm round by round.
#include "collectives/ring_allreduce_sim.h"

#include <QtTest>

using namespace wb;

class TestRingSimulation : public QObject {
    Q_OBJECT
private slots:
    void everyRankEndsWithTheSum() {
        for (int n = 2; n <= RingAllReduceSim::kMaxRanks; ++n) {
            for (std::uint64_t seed : {1ull, 7ull, 12345ull}) {
                const RingAllReduceSim sim(n, 1e6, 3, seed);
                QVERIFY2(sim.verified(), qPrintable(QString("N=%1 seed=%2").arg(n).arg(seed)));
                for (const auto& buf : sim.finalBuffers())
                    QCOMPARE(buf, sim.expectedSum());
                QCOMPARE(sim.rounds().size(), size_t(2 * (n - 1)));
            }
        }
    }
    void reduceScatterLeavesOneFinishedChunkPerRank_data() {
        QTest::addColumn<int>("n");
        for (int n : {2, 3, 5, 16, 64})
            QTest::addRow("%d ranks", n) << n;
    }
    void reduceScatterLeavesOneFinishedChunkPerRank() {
        QFETCH(int, n);
        const RingAllReduceSim sim(n, 1e6);
        const ContributorMask all = n == 64 ? ~ContributorMask{0} : (ContributorMask{1} << n) - 1;
        const auto& after = sim.holdingsBefore(static_cast<size_t>(n - 1));
        for (int r = 0; r < n; ++r) {
            int complete = 0;
            for (int c = 0; c < n; ++c)
                complete += after[size_t(r)][size_t(c)] == all;
            QCOMPARE(complete, 1);
            QCOMPARE(after[size_t(r)][size_t((r + 1) % n)], all);
            // The rule the lesson quotes for rings too large to simulate is the simulation's.
            QCOMPARE(RingAllReduceSim::finishedChunkOf(r, n), (r + 1) % n);
        }
        const auto& end = sim.holdingsBefore(sim.rounds().size());
        for (const auto& rank : end)
            for (auto m : rank)
                QCOMPARE(m, all);
    }
    void eachRoundSendsOneChunkPerRankToTheRight() {
        const int n = 6;
        const RingAllReduceSim sim(n, 6e6);
        for (const auto& round : sim.rounds()) {
            QCOMPARE(round.transfers.size(), size_t(n));
            for (const auto& t : round.transfers)
                QCOMPARE(t.to, (t.from + 1) % n);
        }
    }
    void byteCounterReachesTwoNMinusOneKOverN() {
        const RingAllReduceSim sim(8, 1e9);
        QCOMPARE(sim.bytesTarget(), 1.75e9);
        const RingFrame end = sim.finalFrame();
        QCOMPARE(end.phase, std::string("done"));
        QCOMPARE(end.round, 0);
        QVERIFY(end.transfers.empty());
        for (double b : end.bytesSent)
            QVERIFY(std::fabs(b - 1.75e9) < 1.0);
        // Halfway through round 3 of reduce-scatter: 2.5 chunks sent.
        const RingFrame mid = sim.frameAt(2, 0.5);
        QCOMPARE(mid.phase, std::string("reduce-scatter"));
        QCOMPARE(mid.round, 3);
        QVERIFY(std::fabs(mid.bytesSent[0] - 2.5 * 1e9 / 8) < 1.0);
        QCOMPARE(mid.transfers.size(), size_t(8));
        QCOMPARE(mid.transfers[0].progress, 0.5);
    }
    void rejectsUnsupportedSizes() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RingAllReduceSim(1, 1e6));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RingAllReduceSim(65, 1e6));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RingAllReduceSim(4, 0.0));
    }
};

QTEST_APPLESS_MAIN(TestRingSimulation)
#include "test_ring_simulation.moc"
