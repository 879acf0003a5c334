// Mixture of experts (moe-routing, FACTS.md §8) against figures derived here, not read from the
// model: Switch's capacity ⌈k·T/E·C⌉ from integer arithmetic, drops as the excess over capacity,
// Zipf loads derived by hand, all-to-all bytes from T·k·h·b·(N−1)/N; the toy router collapses
// without balancing and stays (or comes back) balanced with the aux loss or DeepSeek's bias,
// under several seeds; every run is reproducible from its seed.
#include "moe/capacity_dispatcher.h"
#include "moe/expert_parallel_traffic.h"
#include "moe/moe_routing_sim.h"
#include "moe/skewed_routing.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <numeric>

using namespace wb;

namespace {

long long sum(const std::vector<long long>& v) {
    return std::accumulate(v.begin(), v.end(), 0LL);
}

// Mean of the max load fraction over the last n steps: one step can spike by chance.
double recentMaxLoad(const MoeRoutingSim& s, int n = 50) {
    const auto& h = s.history();
    double m = 0;
    for (std::size_t i = h.size() - static_cast<std::size_t>(n); i < h.size(); ++i)
        m += h[i].maxLoadFraction;
    return m / n;
}

MoeRoutingConfig routerConfig(int experts, int k, std::uint64_t seed, Balancing b) {
    MoeRoutingConfig c;
    c.experts = experts;
    c.topK = k;
    c.seed = seed;
    c.balancing = b;
    return c;
}

const std::initializer_list<std::pair<int, int>> kShapes = {{16, 2}, {8, 1}, {32, 4}};
const std::initializer_list<std::uint64_t> kSeeds = {1, 2, 3, 4};

} // namespace

class TestMoeRouting : public QObject {
    Q_OBJECT
private slots:
    void capacityIsSwitchEq3() {
        // C = p/q exactly: ⌈k·T·p / (E·q)⌉ in integers.
        struct Case {
            long long t;
            int e, k;
            long long p, q;
        };
        for (const Case c :
             {Case{1000, 8, 2, 11, 10}, Case{1000, 8, 2, 5, 4}, Case{4096, 64, 2, 1, 1},
              Case{10, 3, 1, 1, 1}, Case{4096, 64, 8, 3, 2}, Case{1, 2048, 1, 1, 1}}) {
            const long long num = c.k * c.t * c.p, den = c.e * c.q;
            const long long expected = (num + den - 1) / den;
            QCOMPARE(expertCapacity(c.t, c.e, c.k, double(c.p) / double(c.q)), expected);
        }
        // 1·100·1.1/10 is 11.000000000000002 in doubles: a plain ceil would say 12.
        QCOMPARE(expertCapacity(100, 10, 1, 1.1), 11LL);
        QCOMPARE(expertCapacity(100, 5, 2, 1.1), 44LL); // 44.00000000000001
        // A large capacity a little above an integer is still rounded up: 10⁸ + 10⁻⁴.
        QCOMPARE(expertCapacity(100'000'000, 1, 1, 1.000000000001), 100'000'001LL);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertCapacity(0, 8, 2, 1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertCapacity(10, 8, 9, 1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertCapacity(10, 8, 0, 1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertCapacity(10, 8, 2, std::nan("")));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertCapacity(10, 8, 2, -1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertCapacity(10, 8, 2, 0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertCapacity(10, 8, 2, INFINITY));
    }

    void uniformRoutingWithEnoughCapacityDropsNothing() {
        for (long long t : {1LL, 7LL, 1000LL, 4097LL})
            for (auto [e, k] :
                 {std::pair{8, 1}, std::pair{8, 2}, std::pair{64, 8}, std::pair{3, 3}})
                for (double c : {1.0, 1.25, 2.0}) {
                    const ExpertDispatch d = dispatchSkewed(t, e, k, c, 0.0, 7);
                    QCOMPARE(d.droppedAssignments, 0LL);
                    QCOMPARE(d.tokensFullyDropped, 0LL);
                    QCOMPARE(sum(d.routed), k * t);
                    const long long lo = k * t / e, hi = (k * t + e - 1) / e;
                    for (long long load : d.routed)
                        QVERIFY(load == lo || load == hi);
                }
        // Half the capacity a fair share needs: each of 8 experts keeps 63 of its 125.
        const ExpertDispatch half = dispatchSkewed(1000, 8, 1, 0.5, 0.0, 1);
        QCOMPARE(half.capacity, 63LL);
        QCOMPARE(half.droppedAssignments, 8 * (125LL - 63));
    }

    void skewPutsTheExcessOfHotExpertsIntoDrops() {
        // Zipf (Z = 1) over 4 experts: shares 1 : 1/2 : 1/3 : 1/4 of 25/12 → 12/25, 6/25, 4/25,
        // 3/25 of 1000 tokens; capacity 250 at C = 1, so only expert 0 drops, 480 − 250.
        const ExpertDispatch d = dispatchSkewed(1000, 4, 1, 1.0, 1.0, 3);
        QCOMPARE(d.routed, (std::vector<long long>{480, 240, 160, 120}));
        QCOMPARE(d.capacity, 250LL);
        QCOMPARE(d.dropped, (std::vector<long long>{230, 0, 0, 0}));
        QCOMPARE(d.droppedAssignments, 230LL);
        QCOMPARE(d.tokensFullyDropped, 230LL); // top-1: a dropped assignment is a dropped token
        // Top-3 of 4 with Z = 4: expert 0 would want 254 of 100 tokens' 300 picks, expert 1
        // then 159 of the other 200; both are capped at 100 (a token picks distinct experts)
        // and the last 100 split 1/81 : 1/256 → 75.97, 24.03.
        QCOMPARE(skewedExpertLoads(100, 4, 3, 4.0), (std::vector<long long>{100, 100, 76, 24}));
        // In general: drops are the excess over capacity, loads fall with the expert index.
        for (double z : {0.5, 1.0, 2.0})
            for (int k : {1, 2, 4}) {
                const ExpertDispatch s = dispatchSkewed(5000, 16, k, 1.25, z, 11);
                long long excess = 0;
                for (std::size_t i = 0; i < s.routed.size(); ++i) {
                    QCOMPARE(s.dropped[i], std::max(0LL, s.routed[i] - s.capacity));
                    QVERIFY(s.routed[i] <= 5000);
                    if (i > 0)
                        QVERIFY(s.routed[i] <= s.routed[i - 1]);
                    excess += std::max(0LL, s.routed[i] - s.capacity);
                }
                QCOMPARE(s.droppedAssignments, excess);
                QVERIFY(s.droppedAssignments >= s.routed[0] - s.capacity);
                QVERIFY(s.tokensFullyDropped <= s.droppedAssignments / k);
            }
        // Counting alone gives the same drops as laying the tokens out.
        for (double z : {0.0, 1.0, 3.0}) {
            const ExpertDispatch laid = dispatchSkewed(2000, 8, 2, 1.1, z, 4);
            const ExpertDispatch counted = dispatchCounts(2000, 8, 2, 1.1, z);
            QCOMPARE(counted.routed, laid.routed);
            QCOMPARE(counted.kept, laid.kept);
            QCOMPARE(counted.dropped, laid.dropped);
            QCOMPARE(counted.tokensFullyDropped, -1LL);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, skewedExpertLoads(10, 4, 1, -1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, skewedExpertLoads(10, 4, 1, NAN));
    }

    void arrivalOrderDecidesWhichTokensLoseEveryExpert() {
        const ExpertDispatch a = dispatchSkewed(3000, 8, 2, 1.0, 1.5, 1);
        const ExpertDispatch b = dispatchSkewed(3000, 8, 2, 1.0, 1.5, 1);
        QCOMPARE(a.tokensFullyDropped, b.tokensFullyDropped);
        QCOMPARE(a.dropped, b.dropped);
        // Another seed reorders the tokens: the counts per expert cannot change.
        const ExpertDispatch c = dispatchSkewed(3000, 8, 2, 1.0, 1.5, 2);
        QCOMPARE(c.dropped, a.dropped);
        QVERIFY(a.tokensFullyDropped > 0);
    }

    void dispatcherKeepsTheFirstArrivals() {
        CapacityDispatcher d(2, 2);
        QVERIFY(d.admit(0));
        QVERIFY(d.admit(1));
        d.finishToken();
        QVERIFY(d.admit(0));
        d.finishToken();
        QVERIFY(!d.admit(0)); // third token for expert 0: full
        d.finishToken();
        QCOMPARE(d.result().tokensFullyDropped, 1LL);
        QCOMPARE(d.result().kept, (std::vector<long long>{2, 1}));
    }

    void allToAllBytesByFormula() {
        const long long t = 4096;
        const int e = 16, k = 2, n = 4;
        ExpertParallelSetup s;
        s.gpus = n;
        s.hidden = 1024;
        s.bytesPerValue = 2;
        s.topology.nodes = 1;
        s.topology.gpusPerNode = 8;
        const double perGpu = double(t) / n * k * 1024 * 2; // a GPU's dispatch buffer
        const auto uniform = skewedExpertLoads(t, e, k, 0.0);
        const ExpertParallelTraffic u = expertParallelAllToAll(uniform, k, s);
        QCOMPARE(u.dispatchBytes, double(t) * k * 1024 * 2 * (n - 1) / n);
        QCOMPARE(u.totalBytes, 2 * u.dispatchBytes);
        for (double sent : u.sentPerGpu)
            QCOMPARE(sent, perGpu * (n - 1) / n);
        const ClusterCollectiveCost c =
            clusterCollective(s.topology, Collective::AllToAll, {0, n, 1}, perGpu);
        QCOMPARE(u.timeS, 2 * c.cost.timeS);
        // Skew moves no more bytes in total, but the hot GPU receives more and sets the time.
        const auto skewed = skewedExpertLoads(t, e, k, 1.0);
        const ExpertParallelTraffic z = expertParallelAllToAll(skewed, k, s);
        QVERIFY(std::fabs(z.dispatchBytes - u.dispatchBytes) <= 1e-9 * u.dispatchBytes);
        const double share0 = double(skewed[0] + skewed[1] + skewed[2] + skewed[3]) / (k * t);
        QVERIFY(std::fabs(z.receivedPerGpu[0] - perGpu * share0 * (n - 1)) <= 1e-6);
        QVERIFY(z.timeS > u.timeS);
        // The time splits into (N−1)·α per all-to-all and the busiest GPU's bytes over B.
        QCOMPARE(u.latencyS, 2 * c.cost.latencyS);
        QCOMPARE(u.bandwidthS, 2 * c.cost.bandwidthS);
        QVERIFY(std::fabs(u.latencyS + u.bandwidthS - u.timeS) <= 1e-12);
        // A batch of B tokens with the loads' shares: bytes scale with B, shares stay.
        const ExpertParallelTraffic big = expertParallelAllToAll(skewed, k, s, 64.0 * t);
        QVERIFY(std::fabs(big.totalBytes - 64 * z.totalBytes) <= 1e-9 * big.totalBytes);
        for (std::size_t g = 0; g < big.receivedPerGpu.size(); ++g)
            QVERIFY(std::fabs(big.receivedPerGpu[g] - 64 * z.receivedPerGpu[g]) <=
                    1e-9 * big.totalBytes);
        // Latency-bound for a small batch, bandwidth-bound for a large one.
        const ExpertParallelTraffic tiny = expertParallelAllToAll(uniform, k, s, 16);
        QVERIFY(tiny.latencyS > tiny.bandwidthS);
        QVERIFY(big.bandwidthS > big.latencyS);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertParallelAllToAll(uniform, k, s, -1));
        // One GPU: nothing leaves it.
        s.gpus = 1;
        const ExpertParallelTraffic one = expertParallelAllToAll(uniform, k, s);
        QCOMPARE(one.totalBytes, 0.0);
        QCOMPARE(one.timeS, 0.0);
        s.gpus = 3; // does not divide 16 experts
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expertParallelAllToAll(uniform, k, s));
    }

    void firstStepRoutesToTheTopKLogits() {
        MoeRoutingConfig c = routerConfig(16, 3, 5, Balancing::None);
        c.routerNoise = 0.0;
        MoeRoutingSim sim(c);
        const std::vector<double> gate = sim.gate(), x = sim.tokens();
        sim.step();
        const auto d = static_cast<std::size_t>(c.dim);
        for (std::size_t t = 0; t < static_cast<std::size_t>(c.tokens); ++t) {
            std::vector<std::pair<double, int>> logit;
            for (int e = 0; e < c.experts; ++e) {
                double s = 0;
                for (std::size_t i = 0; i < d; ++i)
                    s += gate[static_cast<std::size_t>(e) * d + i] * x[t * d + i];
                logit.push_back({-s, e});
            }
            std::sort(logit.begin(), logit.end());
            for (std::size_t j = 0; j < 3; ++j)
                QCOMPARE(sim.choices()[t * 3 + j], logit[j].second);
        }
    }

    void collapsesWithoutBalancing() {
        for (auto [e, k] : kShapes)
            for (std::uint64_t seed : kSeeds) {
                MoeRoutingSim sim(routerConfig(e, k, seed, Balancing::None));
                sim.run(300);
                const MoeStepRecord& last = sim.history().back();
                // One expert in every token's choices: 1/k of all assignments (1/E is fair).
                const QString why = QString("E=%1 k=%2 seed %3: max load %4")
                                        .arg(e)
                                        .arg(k)
                                        .arg(seed)
                                        .arg(last.maxLoadFraction);
                QVERIFY2(last.maxLoadFraction >= 0.8 / k, qPrintable(why));
                QVERIFY(last.loadEntropy < 0.8 * std::log(e));
                QVERIFY(last.auxLoss > 3 * 1e-2); // α·E·Σf·P far above its uniform value α
                // It started fair: the collapse is learned, not built in.
                QVERIFY(sim.history().front().maxLoadFraction < 3.0 / e);
            }
    }

    void balancingKeepsTheLoadEven_data() {
        QTest::addColumn<int>("balancing");
        QTest::newRow("aux-loss") << static_cast<int>(Balancing::AuxLoss);
        QTest::newRow("bias") << static_cast<int>(Balancing::Bias);
    }
    void balancingKeepsTheLoadEven() {
        QFETCH(int, balancing);
        const auto b = static_cast<Balancing>(balancing);
        for (auto [e, k] : kShapes)
            for (std::uint64_t seed : kSeeds) {
                MoeRoutingSim sim(routerConfig(e, k, seed, b));
                sim.run(300);
                const double recent = recentMaxLoad(sim);
                const QString why =
                    QString("E=%1 k=%2 seed %3: max load %4").arg(e).arg(k).arg(seed).arg(recent);
                QVERIFY2(recent <= 2.0 / e, qPrintable(why)); // within 2× a fair share
                QCOMPARE(sim.history().back().activeExperts, e);
                // Near uniform, the Switch loss sits near its minimum α.
                QVERIFY(std::fabs(sim.history().back().auxLoss - 1e-2) < 2e-3);
            }
    }

    void balancingPullsACollapsedRouterBack_data() { balancingKeepsTheLoadEven_data(); }
    void balancingPullsACollapsedRouterBack() {
        QFETCH(int, balancing);
        const auto b = static_cast<Balancing>(balancing);
        for (std::uint64_t seed : kSeeds) {
            MoeRoutingSim sim(routerConfig(16, 2, seed, Balancing::None));
            sim.run(200);
            QVERIFY(sim.history().back().maxLoadFraction >= 0.3);
            sim.setBalancing(b);
            sim.run(250);
            // From 8× a fair share back to about 2× or less.
            QVERIFY2(recentMaxLoad(sim) <= 2.25 / 16, qPrintable(QString::number(seed)));
            // The bias went down for the expert that had taken over.
            const auto& bias = sim.bias();
            if (b == Balancing::Bias)
                QVERIFY(*std::min_element(bias.begin(), bias.end()) < -0.5);
            else
                QVERIFY(std::all_of(bias.begin(), bias.end(), [](double v) { return v == 0; }));
        }
    }

    void recordsAddUp() {
        MoeRoutingConfig c = routerConfig(16, 2, 9, Balancing::None);
        c.capacityFactor = 1.25;
        MoeRoutingSim sim(c);
        sim.run(150);
        const long long cap = (2LL * 512 * 5 + 16 * 4 - 1) / (16 * 4); // ⌈2·512/16·5/4⌉ = 80
        bool sawDrops = false;
        for (const MoeStepRecord& r : sim.history()) {
            QCOMPARE(sum(r.load), 2LL * 512);
            double entropy = 0, maxFraction = 0;
            for (std::size_t e = 0; e < r.load.size(); ++e) {
                QCOMPARE(r.dropped[e], std::max(0LL, r.load[e] - cap));
                sawDrops = sawDrops || r.dropped[e] > 0;
                const double f = double(r.load[e]) / 1024;
                maxFraction = std::max(maxFraction, f);
                if (f > 0)
                    entropy -= f * std::log(f);
            }
            QCOMPARE(r.maxLoadFraction, maxFraction);
            QVERIFY(std::fabs(r.loadEntropy - entropy) < 1e-12);
            QVERIFY(r.loadEntropy <= std::log(16.0) + 1e-12);
        }
        QVERIFY(sawDrops); // the router drifts past capacity without balancing
        // The last step's kept flags: an expert keeps its first `cap` tokens, in token order.
        std::vector<long long> seen(16, 0);
        for (std::size_t a = 0; a < sim.choices().size(); ++a) {
            const auto e = static_cast<std::size_t>(sim.choices()[a]);
            QCOMPARE(sim.keptChoices()[a] == 1, ++seen[e] <= cap);
        }
        QCOMPARE(sim.stepsDone(), 150);
        QCOMPARE(sim.history().back().step, 150);
    }

    void sameSeedSameRun() {
        for (Balancing b : {Balancing::None, Balancing::AuxLoss, Balancing::Bias}) {
            MoeRoutingSim a(routerConfig(16, 2, 42, b)), again(routerConfig(16, 2, 42, b));
            a.run(60);
            again.run(60);
            QCOMPARE(a.gate(), again.gate());
            QCOMPARE(a.bias(), again.bias());
            for (std::size_t i = 0; i < a.history().size(); ++i) {
                QCOMPARE(a.history()[i].load, again.history()[i].load);
                QCOMPARE(a.history()[i].taskLoss, again.history()[i].taskLoss);
                QCOMPARE(a.history()[i].auxLoss, again.history()[i].auxLoss);
            }
            MoeRoutingSim other(routerConfig(16, 2, 43, b));
            other.run(60);
            QVERIFY(other.gate() != a.gate());
        }
        MoeRoutingSim a(routerConfig(16, 2, 42, Balancing::None));
        QCOMPARE(a.servingBatch(256, 5).perExpert, a.servingBatch(256, 5).perExpert);
    }

    void servingBatchesShowTheStraggler() {
        MoeRoutingSim collapsed(routerConfig(16, 2, 1, Balancing::None));
        collapsed.run(300);
        MoeRoutingSim balanced(routerConfig(16, 2, 1, Balancing::Bias));
        balanced.run(300);
        for (const MoeRoutingSim* s : {&collapsed, &balanced}) {
            const MoeServingBatch b = s->servingBatch(512, 77);
            QCOMPARE(sum(b.perExpert), 2LL * 512);
            QCOMPARE(b.largest, *std::max_element(b.perExpert.begin(), b.perExpert.end()));
            QCOMPARE(b.mean, 2.0 * 512 / 16);
        }
        // Collapsed: one expert runs every request (8× a fair batch). Balanced: serving routes
        // as in training (noisy top-k), so a fresh batch is about as even as the last training
        // step, whose tokens came from the same clusters.
        QVERIFY(collapsed.servingBatch(512, 77).straggler >= 0.8 * 16 / 2);
        const MoeStepRecord& last = balanced.history().back();
        const double trained = last.maxLoadFraction * 16;
        QVERIFY2(balanced.servingBatch(512, 77).straggler < 1.5 * trained,
                 qPrintable(QString::number(balanced.servingBatch(512, 77).straggler)));
    }

    void uniformServingIsBinomial() {
        // k distinct experts per request: counts sum to k·B, none above B, and the mean count
        // per expert over many batches is k·B/E; the largest of one batch exceeds it by
        // randomness alone, about a few standard deviations √(k·B/E·(1 − k/E)).
        const int b = 512, e = 16, k = 2;
        double meanLargest = 0.0;
        std::vector<double> perExpert(e, 0.0);
        const int batches = 200;
        for (int i = 0; i < batches; ++i) {
            const MoeServingBatch u = uniformServingBatch(b, e, k, static_cast<std::uint64_t>(i));
            QCOMPARE(sum(u.perExpert), static_cast<long long>(k) * b);
            QVERIFY(*std::max_element(u.perExpert.begin(), u.perExpert.end()) <= b);
            QCOMPARE(u.mean, double(k) * b / e);
            meanLargest += static_cast<double>(u.largest) / batches;
            for (std::size_t j = 0; j < perExpert.size(); ++j)
                perExpert[j] += static_cast<double>(u.perExpert[j]) / batches;
        }
        const double mean = double(k) * b / e;
        const double sd = std::sqrt(mean * (1.0 - double(k) / e));
        for (double m : perExpert)
            QVERIFY2(std::fabs(m - mean) < 4 * sd / std::sqrt(double(batches)),
                     qPrintable(QString::number(m)));
        QVERIFY2(meanLargest > mean + sd && meanLargest < mean + 3.5 * sd,
                 qPrintable(QString::number(meanLargest)));
        // k = E: every request uses every expert, so nothing varies.
        QCOMPARE(uniformServingBatch(100, 4, 4, 1).straggler, 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, uniformServingBatch(10, 4, 5, 1));
    }

    void badConfigurationsAreRefused() {
        const auto refused = [](auto change) {
            MoeRoutingConfig c;
            change(c);
            try {
                MoeRoutingSim sim(c);
            } catch (const std::invalid_argument&) {
                return true;
            }
            return false;
        };
        QVERIFY(refused([](MoeRoutingConfig& c) { c.topK = 17; }));
        QVERIFY(refused([](MoeRoutingConfig& c) { c.topK = 0; }));
        QVERIFY(refused([](MoeRoutingConfig& c) { c.tokens = 0; }));
        QVERIFY(refused([](MoeRoutingConfig& c) { c.experts = 1; }));
        QVERIFY(refused([](MoeRoutingConfig& c) { c.capacityFactor = std::nan(""); }));
        QVERIFY(refused([](MoeRoutingConfig& c) { c.learningRate = -1; }));
        QVERIFY(refused([](MoeRoutingConfig& c) { c.usageMemory = 1.0; }));
        QVERIFY(refused([](MoeRoutingConfig& c) { c.dim = 100000; }));
        QVERIFY(!refused([](MoeRoutingConfig&) {}));
        MoeRoutingSim sim{MoeRoutingConfig{}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sim.servingBatch(0, 1));
        QCOMPARE(parseBalancing("aux-loss"), std::optional<Balancing>(Balancing::AuxLoss));
        QCOMPARE(balancingName(Balancing::Bias), std::string("bias"));
        QVERIFY(!parseBalancing("random"));
    }

    void calcMoe() {
        const auto j = wb::test::runCalc("moe", {{"tokens", "1000"},
                                                 {"experts", "4"},
                                                 {"top-k", "1"},
                                                 {"capacity-factor", "1"},
                                                 {"skew", "1"},
                                                 {"hidden", "1024"},
                                                 {"bytes-per-value", "2"},
                                                 {"ep", "4"}});
        QCOMPARE(j["capacity_per_expert"].get<long long>(), 250LL);
        QCOMPARE(j["dropped_tokens"].get<long long>(), 230LL);
        QCOMPARE(j["alltoall_bytes"].get<double>(), 2.0 * 1000 * 1 * 1024 * 2 * 3 / 4);
        const auto u = wb::test::runCalc(
            "moe",
            {{"tokens", "4096"}, {"experts", "64"}, {"top-k", "2"}, {"capacity-factor", "1.0"}});
        QCOMPARE(u["capacity_per_expert"].get<long long>(), 2LL * 4096 / 64);
        QCOMPARE(u["dropped_tokens"].get<long long>(), 0LL);
        QCOMPARE(u["ep_gpus"].get<int>(), 8); // gcd(64, 8) by default
        QCOMPARE(u["tokens_fully_dropped"].get<long long>(), 0LL);
        // A DeepSeek-V3-sized batch (63M tokens, 8 of 256 experts) is counted, not laid out.
        const auto big = wb::test::runCalc("moe", {{"tokens", "62914560"},
                                                   {"experts", "256"},
                                                   {"top-k", "8"},
                                                   {"capacity-factor", "1.0"},
                                                   {"skew", "0.5"}});
        QVERIFY(big["tokens_fully_dropped"].is_null());
        QVERIFY(big["dropped_tokens"].get<long long>() > 0);
        // The regime is named from the α-β split: the big batch moves gigabytes per GPU.
        QCOMPARE(big["alltoall_regime"].get<std::string>(), std::string("bandwidth"));
        QVERIFY(big["alltoall_bandwidth_s"].get<double>() >
                big["alltoall_latency_s"].get<double>());
        QVERIFY(std::fabs(big["alltoall_bandwidth_s"].get<double>() +
                          big["alltoall_latency_s"].get<double>() -
                          big["alltoall_time_s"].get<double>()) <=
                1e-9 * big["alltoall_time_s"].get<double>());
        QCOMPARE(u["alltoall_bytes"].get<double>(), 2.0 * 4096 * 2 * 4096 * 2 * 7 / 8);
        QVERIFY_THROWS_EXCEPTION(CalcError, wb::test::runCalc("moe", {{"tokens", "10"},
                                                                      {"experts", "4"},
                                                                      {"top-k", "5"},
                                                                      {"capacity-factor", "1"}}));
        QVERIFY_THROWS_EXCEPTION(CalcError, wb::test::runCalc("moe", {{"tokens", "10"},
                                                                      {"experts", "8"},
                                                                      {"top-k", "2"},
                                                                      {"capacity-factor", "1"},
                                                                      {"ep", "3"}}));
        // Out-of-range values never reach the model: Params refuses them.
        Params p(findCalcModel("moe")->arguments);
        QVERIFY(p.set("tokens", "0"));
        QVERIFY(p.set("capacity-factor", "nan"));
        QVERIFY(p.set("capacity-factor", "-1"));
        QVERIFY(p.set("tokens", "1e13"));
    }
};

QTEST_APPLESS_MAIN(TestMoeRouting)
#include "test_moe_routing.moc"
