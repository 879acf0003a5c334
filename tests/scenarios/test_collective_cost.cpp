// Collective costs against FACTS.md §3: nccl-tests busbw factors, ring byte counts and the
// α-β formulas, computed here independently from their textbook form.
#include "collectives/collective_cost.h"

#include <QtTest>
#include <cmath>

using namespace wb;

class TestCollectiveCost : public QObject {
    Q_OBJECT
private slots:
    void busbwFactorsMatchNcclTests() {
        QCOMPARE(busbwFactor(Collective::AllReduce, 2), 1.0);
        QCOMPARE(busbwFactor(Collective::AllReduce, 4), 1.5);
        QCOMPARE(busbwFactor(Collective::AllReduce, 8), 1.75);
        QCOMPARE(busbwFactor(Collective::AllGather, 8), 7.0 / 8.0);
        QCOMPARE(busbwFactor(Collective::ReduceScatter, 4), 0.75);
        QCOMPARE(busbwFactor(Collective::AllToAll, 16), 15.0 / 16.0);
        QCOMPARE(busbwFactor(Collective::Broadcast, 8), 1.0);
        QCOMPARE(busbwFactor(Collective::Reduce, 8), 1.0);
    }
    void ringBytesPerRank() {
        // FACTS §3.1: N = 8, K = 1 GB → 1.75 GB per GPU.
        const auto c = allReduceCost(AllReduceAlgorithm::Ring, 8, 1e9, AlphaBeta{});
        QCOMPARE(c.bytesSentPerRank, 1.75e9);
        QCOMPARE(c.steps, 14);
        // Tends to 2K as N grows.
        const auto big = allReduceCost(AllReduceAlgorithm::Ring, 1024, 1e9, AlphaBeta{});
        QVERIFY(std::fabs(big.bytesSentPerRank - 2e9) < 2e9 / 500);
    }
    // Patarasuk & Yuan (JPDC 2009): no all-reduce sends less than 2(N−1)K/N per rank; the ring
    // meets the bound exactly and both trees stay above it.
    void theRingMeetsTheLowerBound() {
        QCOMPARE(allReduceLowerBoundBytes(4, 1e9), 1.5e9);
        QCOMPARE(allReduceLowerBoundBytes(1, 1e9), 0.0);
        for (int n : {2, 3, 8, 64, 1024}) {
            const double bound = allReduceLowerBoundBytes(n, 1e6);
            QVERIFY(bound < 2e6);
            QCOMPARE(allReduceCost(AllReduceAlgorithm::Ring, n, 1e6, {}).bytesSentPerRank, bound);
            for (auto a : {AllReduceAlgorithm::Tree, AllReduceAlgorithm::DoubleBinaryTree})
                QVERIFY(allReduceCost(a, n, 1e6, {}).bytesSentPerRank >= bound);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, allReduceLowerBoundBytes(0, 1.0));
    }

    void ringTimeIsAlphaBeta_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("k");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("bw");
        QTest::newRow("2 ranks") << 2 << 1e6 << 5e-6 << 50e9;
        QTest::newRow("8 ranks 1GB") << 8 << 1e9 << 5e-6 << 50e9;
        QTest::newRow("1024 ranks tiny") << 1024 << 1e3 << 2e-6 << 400e9;
    }
    void ringTimeIsAlphaBeta() {
        QFETCH(int, n);
        QFETCH(double, k);
        QFETCH(double, alpha);
        QFETCH(double, bw);
        const auto c = allReduceCost(AllReduceAlgorithm::Ring, n, k, {alpha, bw});
        const double expected = 2.0 * (n - 1) * alpha + 2.0 * (n - 1) / n * k / bw;
        QVERIFY(std::fabs(c.timeS - expected) <= 1e-12 * expected);
        QVERIFY(std::fabs(c.algbwBytesPerS - k / expected) <= 1e-9 * c.algbwBytesPerS);
        QVERIFY(std::fabs(c.busbwBytesPerS - c.algbwBytesPerS * 2.0 * (n - 1) / n) <=
                1e-9 * c.busbwBytesPerS);
    }
    void treesHaveLogLatency() {
        const AlphaBeta ab{5e-6, 50e9};
        // ⌈log₂ 9⌉ = 4: 8 latency steps.
        const auto dbt = allReduceCost(AllReduceAlgorithm::DoubleBinaryTree, 9, 1e8, ab);
        QCOMPARE(dbt.steps, 8);
        QVERIFY(std::fabs(dbt.timeS - (8 * 5e-6 + 2 * 1e8 / 50e9)) < 1e-15);
        const auto tree = allReduceCost(AllReduceAlgorithm::Tree, 8, 1e8, ab);
        QCOMPARE(tree.steps, 6);
        QVERIFY(std::fabs(tree.timeS - (6 * 5e-6 + 3 * 1e8 / 50e9)) < 1e-15);
        QCOMPARE(ceilLog2(1), 0);
        QCOMPARE(ceilLog2(2), 1);
        QCOMPARE(ceilLog2(1024), 10);
        QCOMPARE(ceilLog2(1025), 11);
    }
    void crossoverIsWhereCostsMeet() {
        const AlphaBeta ab{5e-6, 50e9};
        const auto k =
            crossoverBytes(AllReduceAlgorithm::Ring, AllReduceAlgorithm::DoubleBinaryTree, 8, ab);
        QVERIFY(k.has_value());
        // 14α vs 6α latency, 1.75/B vs 2/B per byte: K* = 8α·B/0.25 = 8 MB.
        QVERIFY(std::fabs(*k - 8e6) < 1.0);
        const double ring = allReduceCost(AllReduceAlgorithm::Ring, 8, *k, ab).timeS;
        const double dbt = allReduceCost(AllReduceAlgorithm::DoubleBinaryTree, 8, *k, ab).timeS;
        QVERIFY(std::fabs(ring - dbt) < 1e-12);
        // Below it the tree is faster, above it the ring.
        QVERIFY(allReduceCost(AllReduceAlgorithm::DoubleBinaryTree, 8, *k / 10, ab).timeS <
                allReduceCost(AllReduceAlgorithm::Ring, 8, *k / 10, ab).timeS);
        QVERIFY(allReduceCost(AllReduceAlgorithm::Ring, 8, *k * 10, ab).timeS <
                allReduceCost(AllReduceAlgorithm::DoubleBinaryTree, 8, *k * 10, ab).timeS);
        // With 2 ranks both have 2α latency and the ring sends fewer bytes: no crossover.
        QVERIFY(
            !crossoverBytes(AllReduceAlgorithm::Ring, AllReduceAlgorithm::DoubleBinaryTree, 2, ab));
    }
    void rejectsNonsense() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 allReduceCost(AllReduceAlgorithm::Ring, 1, 1e6, AlphaBeta{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 allReduceCost(AllReduceAlgorithm::Ring, 8, -1, AlphaBeta{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 allReduceCost(AllReduceAlgorithm::Ring, 8, NAN, AlphaBeta{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 allReduceCost(AllReduceAlgorithm::Ring, 8, 1e6, {1e-6, 0.0}));
    }
    void namesRoundTrip() {
        for (const auto& name : allReduceAlgorithmNames())
            QCOMPARE(algorithmName(*parseAllReduceAlgorithm(name)), name);
        QVERIFY(!parseAllReduceAlgorithm("butterfly"));
        QCOMPARE(collectiveNames().size(), size_t(6));
        QVERIFY(parseCollective("alltoall"));
        QVERIFY(!parseCollective("allToAll"));
    }
};

QTEST_APPLESS_MAIN(TestCollectiveCost)
#include "test_collective_cost.moc"
