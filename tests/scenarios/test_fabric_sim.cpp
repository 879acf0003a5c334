// The roce-vs-infiniband incast simulation against what the mechanisms must do (FACTS.md §14):
// every packet is accounted for at every step; InfiniBand's credits never drop and keep the
// receiver's link full; RoCE without PFC pays go-back-N's price, predicted from the drop rate and
// the round trip; PFC trades drops for pause frames that climb upstream and stall a victim flow;
// DCQCN cuts the pauses; a seed fixes the run; nonsense is refused.
#include "calc/calc_models.h"
#include "fabric/dcqcn_rate.h"
#include "fabric/fabric_recommendation.h"
#include "fabric/fabric_sim.h"
#include "fabric/go_back_n.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <cmath>
#include <limits>

using namespace wb;

namespace {

FabricConfig roce(bool pfc, bool ecn, int senders = 8, std::uint64_t seed = 1) {
    return FabricConfig::incast(FabricKind::RoCE, pfc, ecn, senders, seed);
}

long long accounted(const FabricCounters& c) {
    return c.delivered + c.discarded + c.dropped + c.corrupted + c.inNetwork;
}

bool within(double measured, double expected, double rel) {
    return std::fabs(measured - expected) <= rel * std::fabs(expected);
}

QByteArray describe(const char* what, double measured, double expected) {
    return QByteArray(what) + ": measured " + QByteArray::number(measured) + ", expected " +
           QByteArray::number(expected);
}

int linkNamed(const FabricSim& sim, const std::string& name) {
    for (std::size_t i = 0; i < sim.links().size(); ++i)
        if (sim.links()[i].name == name)
            return static_cast<int>(i);
    qFatal("no link %s", name.c_str());
}

} // namespace

class TestFabricSim : public QObject {
    Q_OBJECT
private slots:
    void conservationHoldsAtEveryStep_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("pfc");
        QTest::addColumn<bool>("ecn");
        QTest::addColumn<double>("drop");
        QTest::addColumn<qulonglong>("seed");
        for (qulonglong seed : {1u, 7u, 42u}) {
            const QByteArray s = " seed " + QByteArray::number(seed);
            QTest::newRow("ib" + s) << 0 << false << false << 0.0 << seed;
            QTest::newRow("ib lossy link" + s) << 0 << false << false << 0.01 << seed;
            QTest::newRow("roce lossy" + s) << 1 << false << false << 0.0 << seed;
            QTest::newRow("roce lossy + drops" + s) << 1 << false << false << 0.02 << seed;
            QTest::newRow("roce pfc" + s) << 1 << true << false << 0.0 << seed;
            QTest::newRow("roce pfc ecn + drops" + s) << 1 << true << true << 0.005 << seed;
            QTest::newRow("roce ecn only" + s) << 1 << false << true << 0.0 << seed;
        }
    }
    void conservationHoldsAtEveryStep() {
        QFETCH(int, kind);
        QFETCH(bool, pfc);
        QFETCH(bool, ecn);
        QFETCH(double, drop);
        QFETCH(qulonglong, seed);
        FabricConfig c = FabricConfig::incast(kind == 0 ? FabricKind::InfiniBand : FabricKind::RoCE,
                                              pfc, ecn, 8, seed);
        c.dropRate = drop;
        FabricSim sim(c);
        FabricCounters before;
        for (int i = 0; i < 400; ++i) {
            const FabricStepStats& s = sim.step(1e-6 + 1e-7 * (i % 7)); // uneven steps
            const FabricCounters& n = s.counters;
            QVERIFY2(n.sent == accounted(n), QByteArray::number(i));
            // Queued packets the view shows are part of what is in the network.
            double queued = 0;
            for (const auto& l : s.links)
                queued += l.queueBytes;
            QVERIFY(queued / c.mtuBytes <= static_cast<double>(n.inNetwork) + 1e-9);
            // Totals only grow.
            QVERIFY(n.sent >= before.sent && n.delivered >= before.delivered &&
                    n.dropped >= before.dropped && n.retransmitted >= before.retransmitted);
            before = n;
        }
        QVERIFY(before.delivered > 0);
        if (drop > 0)
            QVERIFY(before.corrupted > 0);
    }

    void infinibandNeverDropsAndFillsTheReceiverLink_data() {
        QTest::addColumn<int>("senders");
        QTest::addColumn<double>("gbps");
        QTest::newRow("2 x 400") << 2 << 400.0;
        QTest::newRow("8 x 400") << 8 << 400.0;
        QTest::newRow("32 x 400") << 32 << 400.0;
        QTest::newRow("16 x 100") << 16 << 100.0;
    }
    void infinibandNeverDropsAndFillsTheReceiverLink() {
        QFETCH(int, senders);
        QFETCH(double, gbps);
        FabricConfig c = FabricConfig::incast(FabricKind::InfiniBand, false, false, senders);
        c.linkGbps = gbps;
        FabricSim sim(c);
        const FabricSummary s = sim.run(1e-3);
        QCOMPARE(s.counters.dropped, 0LL);
        QCOMPARE(s.counters.retransmitted, 0LL);
        QCOMPARE(s.counters.pauseFrames, 0LL); // credits, not pause frames
        // R's link carries one packet per slot once the first one arrives a path away.
        QVERIFY2(s.goodputGbps >= 0.99 * gbps, describe("goodput", s.goodputGbps, gbps));
        QVERIFY(s.goodputGbps <= gbps * (1 + 1e-12));
        // The same incast on lossy RoCE does drop: the comparison is not vacuous.
        FabricConfig lossy = c;
        lossy.kind = FabricKind::RoCE;
        lossy.pfc = lossy.ecn = false;
        FabricSim l(lossy);
        QVERIFY(l.run(1e-3).counters.dropped > 0);
    }

    // One sender, no congestion, loss p at the receiver. Go-back-N: a loss is noticed when
    // the next packet arrives and the NAK gets back, one round trip later; the sender has sent
    // RTT + 1 packets from the lost one on, and resends them all. A delivered packet costs,
    // on average, 1 + (RTT + 1)·p/(1 − p) packet times, so goodput / link = 1 / that.
    void goBackNLossMatchesTheDropRate_data() {
        QTest::addColumn<double>("p");
        QTest::newRow("p=0.002") << 0.002;
        QTest::newRow("p=0.01") << 0.01;
        QTest::newRow("p=0.03") << 0.03;
    }
    void goBackNLossMatchesTheDropRate() {
        QFETCH(double, p);
        FabricConfig c = roce(false, false, 1, 3);
        c.victim = false;
        c.dropRate = p;
        FabricSim sim(c);
        const FabricSummary s = sim.run(5e-3);
        const double w = goBackNResentPerLoss(sim.roundTripSlots(0));
        QCOMPARE(w, sim.roundTripSlots(0) + 1.0);
        const double expectedFraction = goBackNGoodputFraction(p, w);
        QVERIFY(std::fabs(expectedFraction - 1.0 / (1.0 + w * p / (1.0 - p))) < 1e-12);
        const double fraction = s.goodputGbps / c.linkGbps;
        QVERIFY2(within(fraction, expectedFraction, 0.05),
                 describe("goodput fraction", fraction, expectedFraction));
        // Each rewind resends the RTT + 1 packets sent since the lost one.
        const double perRewind =
            static_cast<double>(s.counters.retransmitted) / static_cast<double>(s.counters.rewinds);
        QVERIFY2(within(perRewind, w, 0.03), describe("resent per rewind", perRewind, w));
        // Rewinds happen once per lost in-order packet: p/(1 − p) per delivered packet.
        const double rewinds = static_cast<double>(s.counters.delivered) * p / (1.0 - p);
        QVERIFY2(within(static_cast<double>(s.counters.rewinds), rewinds, 0.2),
                 describe("rewinds", static_cast<double>(s.counters.rewinds), rewinds));
        QCOMPARE(s.counters.dropped, 0LL); // no congestion: all loss is injected
        QCOMPARE(s.counters.timeouts, 0LL);
        // Sent minus resent is what got through once: the goodput (up to one window).
        const double sentGbps =
            static_cast<double>(s.counters.sent) * c.mtuBytes * 8 / s.durationS / 1e9;
        const double resentGbps =
            static_cast<double>(s.counters.retransmitted) * c.mtuBytes * 8 / s.durationS / 1e9;
        QVERIFY(within(sentGbps - resentGbps, s.goodputGbps, 0.05));
    }

    void pfcTradesDropsForPausesThatBlockTheVictim() {
        FabricSim pfc(roce(true, false));
        const FabricSummary s = pfc.run(1e-3);
        QCOMPARE(s.counters.dropped, 0LL);
        QVERIFY(s.counters.pauseFrames > 0);
        QVERIFY(s.counters.resumeFrames > 0);
        // The pause climbs: S pauses T's uplink, then T pauses the senders behind it.
        QCOMPARE(s.pauseDepth, 2);
        QVERIFY(s.linksPaused >= 3);
        // The victim never crosses R's port yet gets far less than its fair share, and less
        // than with no incast at all (one sender: nothing to pause for).
        const double fair = 400.0 * (1.0 - 1.0 / 8.0);
        QVERIFY2(s.victimGbps < 0.5 * fair, describe("victim", s.victimGbps, fair));
        FabricSim calm(roce(true, false, 1));
        const FabricSummary alone = calm.run(1e-3);
        QVERIFY2(s.victimGbps < 0.5 * alone.victimGbps,
                 describe("victim vs no incast", s.victimGbps, alone.victimGbps));
        // Without PFC the same incast drops packets instead.
        FabricSim lossy(roce(false, false));
        QVERIFY(lossy.run(1e-3).counters.dropped > 0);
    }

    void ecnAndDcqcnCutPauseFrames_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("senders");
        QTest::newRow("8 senders seed 1") << 1 << 8;
        QTest::newRow("8 senders seed 2") << 2 << 8;
        QTest::newRow("16 senders seed 3") << 3 << 16;
    }
    void ecnAndDcqcnCutPauseFrames() {
        QFETCH(int, seed);
        QFETCH(int, senders);
        const auto sd = static_cast<std::uint64_t>(seed);
        FabricSim alone(roce(true, false, senders, sd));
        FabricSim withEcn(roce(true, true, senders, sd));
        const FabricSummary a = alone.run(2e-3);
        const FabricSummary b = withEcn.run(2e-3);
        QVERIFY(b.counters.ecnMarks > 0 && b.counters.cnps > 0);
        QVERIFY2(b.counters.pauseFrames * 2 < a.counters.pauseFrames,
                 describe("pauses with DCQCN", static_cast<double>(b.counters.pauseFrames),
                          static_cast<double>(a.counters.pauseFrames)));
        QVERIFY(b.victimGbps > a.victimGbps); // less head-of-line blocking
        QCOMPARE(b.counters.dropped, 0LL);
        // The incast senders were slowed below line rate by CNPs.
        const FabricStepStats& st = withEcn.step(20e-6);
        QVERIFY(st.flows[1].rateGbps < 400.0);
    }

    void dcqcnRateFollowsThePaper() {
        const DcqcnParams p;
        const double line = 400e9, slot = 4096 * 8 / line;
        DcqcnRate r(p, line, slot);
        QCOMPARE(r.rateBps(), line); // no slow start
        r.onCnp(0);
        QCOMPARE(r.rateBps(), line / 2); // α starts at 1: RC(1 − α/2)
        QCOMPARE(r.targetBps(), line);
        QCOMPARE(r.alpha(), (1 - p.g) + p.g);
        // Fast recovery: each timer period halves the gap to the target.
        const auto period = static_cast<std::int64_t>(std::llround(p.rateTimerS / slot));
        r.onTick(period);
        QVERIFY(within(r.rateBps(), line * 0.75, 1e-9));
        r.onTick(2 * period);
        QVERIFY(within(r.rateBps(), line * 0.875, 1e-9));
        for (std::int64_t t = 3; t < 200; ++t) {
            r.onTick(t * period);
            QVERIFY(r.rateBps() <= line);
        }
        QVERIFY(r.rateBps() > 0.99 * line);
        QVERIFY(r.alpha() < 0.9); // decays without CNPs
    }

    void stepsExposeWhatTheViewDraws() {
        FabricSim sim(roce(true, false));
        const int uplink = linkNamed(sim, "T→S");
        const int toR = linkNamed(sim, "S→R");
        QCOMPARE(sim.flows().size(), std::size_t(9));
        QVERIFY(sim.flows()[static_cast<std::size_t>(sim.victimFlow())].victim);
        bool sawPause = false, sawUplinkPaused = false;
        for (int i = 0; i < 50; ++i) {
            const FabricStepStats& s = sim.step(20e-6);
            QCOMPARE(s.links.size(), sim.links().size());
            QCOMPARE(s.flows.size(), sim.flows().size());
            for (const auto& l : s.links) {
                QVERIFY(l.utilisation >= 0 && l.utilisation <= 1);
                QVERIFY(l.pausedFraction >= 0 && l.pausedFraction <= 1);
            }
            for (const FabricEvent& e : s.events) {
                QVERIFY(e.timeS >= s.startS - 1e-15 && e.timeS <= s.endS + 1e-15);
                sawPause |= e.kind == FabricEventKind::PauseSent && e.link == uplink;
            }
            sawUplinkPaused |= s.links[static_cast<std::size_t>(uplink)].paused;
            if (i > 2) // R's port is the bottleneck and stays busy
                QVERIFY(s.links[static_cast<std::size_t>(toR)].utilisation > 0.95);
        }
        QVERIFY(sawPause && sawUplinkPaused);
    }

    void aSeedFixesTheRun() {
        FabricConfig c = roce(true, true);
        c.dropRate = 0.01;
        FabricSim a(c), b(c);
        for (int i = 0; i < 100; ++i)
            QVERIFY(a.step(20e-6) == b.step(20e-6));
        c.seed = 2;
        FabricSim other(c);
        other.run(2e-3);
        QVERIFY(!(other.counters() == a.counters()));
    }

    // The go-back-N prediction at its ends: no loss costs nothing, each loss costs w packets
    // (so the fraction is 1/(1 + w) when every other packet is lost), nonsense is refused.
    void goBackNFormulaLimits() {
        QCOMPARE(goBackNGoodputFraction(0.0, 37), 1.0);
        QVERIFY(std::fabs(goBackNGoodputFraction(0.5, 37) - 1.0 / 38.0) < 1e-12);
        QVERIFY(goBackNGoodputFraction(0.01, 73) < goBackNGoodputFraction(0.01, 37));
        QCOMPARE(goBackNResentPerLoss(0), 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, goBackNGoodputFraction(1.0, 37));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, goBackNGoodputFraction(-0.1, 37));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, goBackNGoodputFraction(0.1, 0.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, goBackNResentPerLoss(-1));
    }

    void nonsenseIsRefused() {
        auto refused = [](auto change) {
            FabricConfig c;
            change(c);
            try {
                FabricSim sim(c);
            } catch (const std::invalid_argument&) {
                return true;
            }
            return false;
        };
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(refused([](FabricConfig& c) { c.senders = 0; }));
        QVERIFY(refused([](FabricConfig& c) { c.senders = 100000; }));
        QVERIFY(refused([](FabricConfig& c) { c.linkGbps = -400; }));
        QVERIFY(refused([&](FabricConfig& c) { c.linkGbps = nan; }));
        QVERIFY(refused([](FabricConfig& c) { c.dropRate = 1.0; }));
        QVERIFY(refused([](FabricConfig& c) { c.dropRate = -0.1; }));
        QVERIFY(refused([&](FabricConfig& c) { c.dropRate = nan; }));
        QVERIFY(refused([](FabricConfig& c) { c.mtuBytes = 10; }));
        QVERIFY(!refused([](FabricConfig&) {}));
        FabricSim sim{FabricConfig{}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sim.step(nan));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sim.step(-1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sim.step(3600)); // an hour: 4e10 slots
        // The calc model turns them into CalcError (exit 2 on the command line).
        QVERIFY_THROWS_EXCEPTION(CalcError, test::runCalc("fabric", {{"fabric", "roce"},
                                                                     {"senders", "4"},
                                                                     {"gbps", "400"},
                                                                     {"drop-rate", "1"}}));
        QVERIFY_THROWS_EXCEPTION(CalcError, test::runCalc("fabric", {{"fabric", "ib"},
                                                                     {"senders", "1024"},
                                                                     {"gbps", "3200"},
                                                                     {"duration-us", "100000"}}));
    }

    void calcReportsTheSimulation() {
        const auto j = test::runCalc("fabric", {{"fabric", "roce"},
                                                {"senders", "8"},
                                                {"gbps", "400"},
                                                {"pfc", "false"},
                                                {"ecn", "false"},
                                                {"drop-rate", "0.001"},
                                                {"seed", "5"}});
        FabricConfig c = roce(false, false, 8, 5);
        c.dropRate = 0.001;
        FabricSim sim(c);
        const FabricSummary s = sim.run(1e-3); // the calc's default duration
        QCOMPARE(j["goodput_gbps"].get<double>(), s.goodputGbps);
        QCOMPARE(j["pause_frames"].get<long long>(), 0LL);
        QCOMPARE(j["dropped"].get<long long>(), s.counters.dropped + s.counters.corrupted);
        QCOMPARE(j["retransmitted"].get<long long>(), s.counters.retransmitted);
        QCOMPARE(j["p99_latency_us"].get<double>(), s.p99LatencyUs);
        QVERIFY(j["source"].get<std::string>().find("SIGCOMM") != std::string::npos);
        // IB ignores --pfc / --ecn: credits are its flow control.
        const auto ib = test::runCalc(
            "fabric", {{"fabric", "ib"}, {"senders", "8"}, {"gbps", "400"}, {"pfc", "true"}});
        QCOMPARE(ib["flow_control"].get<std::string>(), std::string("credits"));
        QCOMPARE(ib["pause_frames"].get<long long>(), 0LL);
    }

    void recommendationRestsOnTheModel() {
        const FabricEvidence e = measureFabricEvidence(8, 400, 500e-6, 1);
        QVERIFY(e.lossyGoodputLoss > 0.2); // go-back-N under incast without PFC
        QVERIFY(e.pfcPauseFrames > e.dcqcnPauseFrames);
        QVERIFY(e.pfcVictimGbps < e.victimFairGbps);
        QCOMPARE(e.ibDropped, 0LL);
        QCOMPARE(e.victimFairGbps, victimFairShareGbps(400, 8));

        FabricConditions novice;
        const FabricRecommendation a = recommendFabric(novice, e);
        QCOMPARE(a.choice, FabricKind::InfiniBand);
        QVERIFY(a.reasons.front().text.find(std::to_string(e.pfcPauseFrames)) != std::string::npos);
        FabricConditions expert;
        expert.teamRunsLosslessEthernet = true;
        expert.vendorLockInConcern = true;
        const FabricRecommendation b = recommendFabric(expert, e);
        QCOMPARE(b.choice, FabricKind::RoCE);
        QVERIFY(b.reasons.front().text.find(std::to_string(e.dcqcnPauseFrames)) !=
                std::string::npos);
        // A listed flip is exactly a single change of condition that changes the choice.
        FabricConditions tenantsAtScale = expert;
        tenantsAtScale.vendorLockInConcern = false;
        tenantsAtScale.multiTenant = true;
        tenantsAtScale.gpus = 16384;
        FabricConditions frugalNovice = novice;
        frugalNovice.vendorLockInConcern = frugalNovice.budgetConstrained = true;
        FabricConditions everything = expert;
        everything.multiTenant = everything.spreadsFlows = everything.inNetworkReduction =
            everything.budgetConstrained = true;
        for (const FabricConditions& c :
             {novice, expert, tenantsAtScale, frugalNovice, everything}) {
            const FabricRecommendation r = recommendFabric(c, e);
            QCOMPARE(r.reasons.size(), std::size_t(7)); // every factor, always listed
            int score = 0;
            for (const FabricReason& x : r.reasons)
                score += x.weight;
            QCOMPARE(r.score, score);
            QCOMPARE(r.choice, score > 0 ? FabricKind::RoCE : FabricKind::InfiniBand);
            for (int k = 0; k < 7; ++k) {
                FabricConditions x = c;
                const char* name = "";
                switch (k) {
                case 0:
                    x.teamRunsLosslessEthernet = !c.teamRunsLosslessEthernet;
                    name = "team-lossless-ethernet";
                    break;
                case 1:
                    x.gpus = c.gpus >= kLargeScaleGpus ? 1024 : 16384;
                    name = "gpus";
                    break;
                case 2:
                    x.multiTenant = !c.multiTenant;
                    name = "multi-tenant";
                    break;
                case 3:
                    x.spreadsFlows = !c.spreadsFlows;
                    name = "spreads-flows";
                    break;
                case 4:
                    x.inNetworkReduction = !c.inNetworkReduction;
                    name = "in-network-reduction";
                    break;
                case 5:
                    x.vendorLockInConcern = !c.vendorLockInConcern;
                    name = "vendor-lock-in";
                    break;
                default:
                    x.budgetConstrained = !c.budgetConstrained;
                    name = "budget-constrained";
                }
                const FabricRecommendation changed = recommendFabric(x, e);
                const bool flips = changed.choice != r.choice;
                bool listed = false;
                for (const FabricFlip& f : r.flips)
                    if (f.condition == name) {
                        listed = true;
                        QCOMPARE(f.score, changed.score);
                    }
                QVERIFY2(flips == listed, name);
            }
        }
        // Tenants at scale with a team that tunes DCQCN: the victim evidence favours RoCE here
        // only because DCQCN kept the victim well above what IB's credits left it.
        const FabricRecommendation t = recommendFabric(tenantsAtScale, e);
        const bool dcqcnIsolates =
            e.dcqcnVictimGbps - e.ibVictimGbps > kVictimMargin * e.victimFairGbps;
        QCOMPARE(t.reasons[2].weight, dcqcnIsolates ? 1 : 0);
        QVERIFY(!recommendFabric(frugalNovice, e).flips.empty());
    }

    // Review: scale counted toward InfiniBand although Meta trains Llama 3 on a 24K-GPU RoCE
    // fabric (Grattafiori et al. 2024 §3.3.1), and the simulation shows IB's credits starving the
    // victim as PFC does. Scale now favours neither fabric by itself: more GPUs never move the
    // score toward InfiniBand, and with a budget constraint they move it toward Ethernet.
    void scaleNeverFavoursInfiniband() {
        const FabricEvidence e = measureFabricEvidence(8, 400, 500e-6, 1);
        for (bool budget : {false, true}) {
            FabricConditions c;
            c.budgetConstrained = budget;
            int last = -1000;
            for (int gpus : {64, 1024, kLargeScaleGpus - 1, kLargeScaleGpus, 24576, 100000}) {
                c.gpus = gpus;
                const FabricRecommendation r = recommendFabric(c, e);
                QCOMPARE(r.reasons[1].condition, std::string("gpus"));
                QCOMPARE(r.reasons[1].weight, 0);
                QVERIFY(r.score >= last);
                last = r.score;
            }
        }
    }

    // Review: only "team runs lossless Ethernet" could flip the answer. The reviewer's case
    // (100,000 GPUs, multi-tenant, vendor lock-in, budget-constrained, no lossless-Ethernet
    // team) now lists more than one flip, and a team without lossless-Ethernet experience can
    // still land on RoCE when cost at scale, lock-in and flow spreading all weigh for it.
    void moreThanTheTeamCanFlipIt() {
        const FabricEvidence e = measureFabricEvidence(8, 400, 500e-6, 1);
        FabricConditions c;
        c.gpus = 100000;
        c.multiTenant = c.vendorLockInConcern = c.budgetConstrained = true;
        const FabricRecommendation r = recommendFabric(c, e);
        QVERIFY(r.flips.size() >= 2);
        bool other = false;
        for (const FabricFlip& f : r.flips)
            other |= f.condition != "team-lossless-ethernet";
        QVERIFY(other);
        FabricConditions frugal = c;
        frugal.multiTenant = false;
        frugal.spreadsFlows = true;
        QCOMPARE(recommendFabric(frugal, e).choice, FabricKind::RoCE);
        // SHARP and one-flow-per-pair traffic lean to InfiniBand even for an Ethernet team.
        FabricConditions sharp;
        sharp.teamRunsLosslessEthernet = true;
        sharp.inNetworkReduction = true;
        QCOMPARE(recommendFabric(sharp, e).choice, FabricKind::InfiniBand);
    }

    // Review: `calc fabric --senders 1` reported a victim fair share of 0. One formula,
    // link·(1 − 1/max(N, 2)), in calc fabric, calc fabric-decision and the chart.
    void calcVictimFairShareIsOneFormula() {
        const auto one = test::runCalc(
            "fabric",
            {{"fabric", "roce"}, {"senders", "1"}, {"gbps", "400"}, {"duration-us", "50"}});
        QCOMPARE(one["victim_fair_share_gbps"].get<double>(), 200.0);
        const auto eight = test::runCalc(
            "fabric", {{"fabric", "ib"}, {"senders", "8"}, {"gbps", "400"}, {"duration-us", "50"}});
        QCOMPARE(eight["victim_fair_share_gbps"].get<double>(), 400.0 * (1.0 - 1.0 / 8.0));
        const auto d = test::runCalc("fabric-decision", {{"senders", "4"}, {"duration-us", "50"}});
        QCOMPARE(d["evidence"]["victim_fair_share_gbps"].get<double>(),
                 victimFairShareGbps(400, 4));
        QCOMPARE(d["reasons"].size(), std::size_t(7));
        QVERIFY(d["weights"].get<std::string>().find("assumed") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestFabricSim)
#include "test_fabric_sim.moc"
