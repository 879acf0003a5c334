// The one seeded generator: the raw engine against the value the C++ standard prints for it,
// mixSeed against SplitMix64's reference output, the hand-written transforms against their
// distributions, and pinned first draws so a change to any transform (which would change every
// seeded model's results) fails here first.
#include "engine/seeded_random.h"

#include <QtTest>
#include <cmath>
#include <set>

using namespace wb;

namespace {

// Mean and variance of n draws.
template <class Draw> std::pair<double, double> moments(Draw draw, int n) {
    double sum = 0.0, sumSq = 0.0;
    for (int i = 0; i < n; ++i) {
        const double x = draw();
        sum += x;
        sumSq += x * x;
    }
    const double mean = sum / n;
    return {mean, sumSq / n - mean * mean};
}

} // namespace

class TestSeededRandom : public QObject {
    Q_OBJECT
private slots:
    void rawDrawsAreTheStandardsMt19937_64() {
        // [rand.predef]: the 10,000th consecutive value of a default-constructed mt19937_64
        // (seed 5489) is 9981545732273789042.
        SeededRandom r(5489);
        r.discard(9999);
        QCOMPARE(r.next(), std::uint64_t{9981545732273789042ULL});
    }

    void discardSkipsRawDraws() {
        SeededRandom a(7), b(7);
        for (int i = 0; i < 100; ++i)
            a.next();
        b.discard(100);
        QCOMPARE(a.next(), b.next());
    }

    void sameSeedSameNumbers() {
        SeededRandom a(42), b(42), c(43);
        bool differs = false;
        for (int i = 0; i < 100; ++i) {
            const double x = a.normal();
            QCOMPARE(x, b.normal());
            differs = differs || x != c.normal();
        }
        QVERIFY(differs);
    }

    void mixSeedIsSplitMix64() {
        // The first outputs of SplitMix64 from state 0 (Vigna's splitmix64.c).
        QCOMPARE(mixSeed(0, 0), std::uint64_t{0xE220A8397B1DCDAFULL});
        QCOMPARE(mixSeed(0, 1), std::uint64_t{0x6E789E6AA1B965F4ULL});
        QCOMPARE(mixSeed(0, 2), std::uint64_t{0x06C45D188009454FULL});
    }

    void firstDrawsArePinned() {
        // uniform and below are exact arithmetic on the raw draws; normal and exponential go
        // through log and sqrt, so they are compared to the last few bits.
        SeededRandom r(42);
        QCOMPARE(r.uniform(), 0x1.82a3befaddcbcp-1);
        QCOMPARE(r.normal(), 0x1.6f501e1f0411cp-1);
        QCOMPARE(r.normal(), 0x1.4d139a2d63185p+0); // the pair's spare, no new draws
        QCOMPARE(r.below(1000), std::uint64_t{136});
        QCOMPARE(r.exponential(2.0), 0x1.2afc2ebddc163p+0);
    }

    void uniformIsInTheHalfOpenUnitInterval() {
        SeededRandom r(1);
        SeededRandom raw(1);
        for (int i = 0; i < 10000; ++i) {
            const double u = r.uniform();
            QVERIFY(u >= 0.0 && u < 1.0);
            QCOMPARE(u, static_cast<double>(raw.next() >> 11) * 0x1.0p-53);
        }
        const auto [mean, variance] = moments([&] { return r.uniform(); }, 200000);
        // 1/2 and 1/12; five standard errors of each estimate.
        QVERIFY2(std::abs(mean - 0.5) < 5 * std::sqrt(1.0 / 12 / 200000),
                 qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(variance - 1.0 / 12) < 5 * std::sqrt(1.0 / 180 / 200000),
                 qPrintable(QString::number(variance)));
    }

    void belowCoversTheRange() {
        SeededRandom r(3);
        std::set<std::uint64_t> seen;
        for (int i = 0; i < 1000; ++i) {
            const std::uint64_t k = r.below(7);
            QVERIFY(k < 7);
            seen.insert(k);
        }
        QCOMPARE(seen.size(), std::size_t{7});
        QCOMPARE(r.below(1), std::uint64_t{0});
    }

    void exponentialHasMeanOneOverRate() {
        SeededRandom r(5);
        const double rate = 4.0;
        const int n = 200000;
        bool positive = true;
        const auto [mean, variance] = moments(
            [&] {
                const double x = r.exponential(rate);
                positive = positive && x >= 0.0 && std::isfinite(x);
                return x;
            },
            n);
        QVERIFY(positive);
        // Mean 1/rate, variance 1/rate²; five standard errors of each estimate (the sample
        // variance's is √((μ₄ − σ⁴)/n) = √(8/n)/rate²).
        QVERIFY2(std::abs(mean - 1 / rate) < 5 * (1 / rate) / std::sqrt(n),
                 qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(variance - 1 / (rate * rate)) < 5 * std::sqrt(8.0 / n) / (rate * rate),
                 qPrintable(QString::number(variance)));
    }

    void normalIsStandard() {
        SeededRandom r(9);
        const int n = 200000;
        const auto [mean, variance] = moments([&] { return r.normal(); }, n);
        // Five standard errors: 1/√n for the mean, √(2/n) for the variance.
        QVERIFY2(std::abs(mean) < 5 / std::sqrt(n), qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(variance - 1) < 5 * std::sqrt(2.0 / n),
                 qPrintable(QString::number(variance)));
    }
};

QTEST_APPLESS_MAIN(TestSeededRandom)
#include "test_seeded_random.moc"
