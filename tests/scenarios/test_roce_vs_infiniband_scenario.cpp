// roce-vs-infiniband roce-vs-infiniband: the frames say what the fabric model says. Each animated
// step's FabricFrame equals a fresh FabricSim stepped frame by frame; InfiniBand never drops or
// pauses; PFC pauses T's uplink and holds the victim far below its fair share; the go-back-N
// chart follows the one formula; the decision panel is recommendFabric's, factor by factor, on
// the very runs the steps animate; each quantity reads one number on every slide; no slide
// names another by its number; bad parameters are refused; build() stays interactive.
#include "engine/text_numbers.h"
#include "fabric/fabric_recommendation.h"
#include "fabric/fabric_sim.h"
#include "fabric/go_back_n.h"
#include "fabric/roce_vs_infiniband_scenario.h"
#include "scenario_test_helpers.h"

#include <QElapsedTimer>
#include <QtTest>
#include <cmath>
#include <regex>
#include <stdexcept>

using namespace wb;
using namespace wb::test;

namespace {

constexpr const char* kId = "roce-vs-infiniband";
constexpr int kFrames = RoceVsInfinibandScenario::kFrames;
enum StepIndex {
    Ib = 0,
    Pfc = 1,
    Slow = 2,
    Dcqcn = 3,
    Lossy = 4,
    Loss = 5,
    Decision = 6,
    WhiteboardStep = 7
};
constexpr int kSlowFrames = RoceVsInfinibandScenario::kSlowFrames;

int framesOf(int step) {
    return step == Slow ? kSlowFrames : kFrames;
}

FabricFrame fabricAt(const Story& s, int step, int k) {
    const double t = k / (framesOf(step) - 1.0);
    const auto f = first<FabricFrame>(s.steps[static_cast<std::size_t>(step)].frames(t));
    if (!f)
        qFatal("step %d has no fabric frame", step);
    return *f;
}

int linkBetween(const FabricFrame& f, const char* from, const char* to) {
    for (std::size_t i = 0; i < f.links.size(); ++i) {
        const FabricFrameLink& l = f.links[i];
        if (f.nodes[static_cast<std::size_t>(l.from)].label == from &&
            f.nodes[static_cast<std::size_t>(l.to)].label == to)
            return static_cast<int>(i);
    }
    qFatal("no link %s→%s", from, to);
}

// The four incast runs as the lesson animates them: kFrames steps of kFabricFrameS each.
FabricSummary steppedRun(FabricKind kind, bool pfc, bool ecn, int senders, double gbps,
                         std::uint64_t seed) {
    FabricConfig c = FabricConfig::incast(kind, pfc, ecn, senders, seed);
    c.linkGbps = gbps;
    FabricSim sim(c);
    for (int k = 0; k < kFrames; ++k)
        sim.step(kFabricFrameS);
    return sim.summary();
}

FabricEvidence steppedEvidence(int senders, double gbps, std::uint64_t seed) {
    return fabricEvidence(senders, gbps,
                          steppedRun(FabricKind::InfiniBand, false, false, senders, gbps, seed),
                          steppedRun(FabricKind::RoCE, false, false, senders, gbps, seed),
                          steppedRun(FabricKind::RoCE, true, false, senders, gbps, seed),
                          steppedRun(FabricKind::RoCE, true, true, senders, gbps, seed));
}

// Every text a step shows at rest, sources included.
std::vector<std::string> everyWordAtRest(const Story& story) {
    std::vector<std::string> out;
    for (const Step& step : story.steps) {
        out.push_back(step.title);
        out.push_back(step.narration);
        for (const Frame& frame : step.frames(1.0).items) {
            if (const auto* f = std::get_if<FactsFrame>(&frame)) {
                out.push_back(f->title);
                for (const FactRow& r : f->rows)
                    out.insert(out.end(), {r.label, r.value, r.source});
            } else if (const auto* c = std::get_if<ChartFrame>(&frame)) {
                out.push_back(c->title);
                out.push_back(c->footnote);
                for (const ChartMarker& m : c->markers)
                    out.push_back(m.label);
            }
        }
    }
    return out;
}

const ChartSeries& seriesNamed(const ChartFrame& c, const std::string& name) {
    for (const ChartSeries& s : c.series)
        if (s.name == name)
            return s;
    qFatal("no series %s", name.c_str());
}

} // namespace

class TestRoceVsInfinibandScenario : public QObject {
    Q_OBJECT
private slots:
    void isRegisteredWithEightSteps() {
        const Scenario* s = findScenario(kId);
        QVERIFY(s != nullptr);
        QVERIFY(s->group() == ScenarioGroup::CollectivesAndFabrics);
        const Story story = s->build(s->defaultParams());
        QCOMPARE(story.steps.size(), std::size_t(8));
        QCOMPARE(QString::fromStdString(story.steps[WhiteboardStep].title),
                 QString(kWhiteboardTitle));
        QVERIFY(story.provenance.rfind("modeled on CPU: packet-level incast", 0) == 0);
    }

    // Every animated step shows what a fresh simulation of the same fabric does, frame by frame.
    void framesAgreeWithTheModel_data() {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("pfc");
        QTest::addColumn<bool>("ecn");
        QTest::newRow("ib") << int(Ib) << int(FabricKind::InfiniBand) << false << false;
        QTest::newRow("pfc") << int(Pfc) << int(FabricKind::RoCE) << true << false;
        QTest::newRow("dcqcn") << int(Dcqcn) << int(FabricKind::RoCE) << true << true;
        QTest::newRow("lossy") << int(Lossy) << int(FabricKind::RoCE) << false << false;
        QTest::newRow("pfc, slowed down") << int(Slow) << int(FabricKind::RoCE) << true << false;
    }
    void framesAgreeWithTheModel() {
        QFETCH(int, step);
        QFETCH(int, kind);
        QFETCH(bool, pfc);
        QFETCH(bool, ecn);
        const Story story = build(kId, {{"senders", "6"}, {"gbps", "200"}, {"seed", "7"}});
        FabricConfig c = FabricConfig::incast(static_cast<FabricKind>(kind), pfc, ecn, 6, 7);
        c.linkGbps = 200;
        FabricSim sim(c);
        const bool ib = c.kind == FabricKind::InfiniBand;
        const double frameS =
            step == Slow ? RoceVsInfinibandScenario::kSlowFrameSlots * c.slotS() : kFabricFrameS;
        for (int k = 0; k < framesOf(step); ++k) {
            const FabricStepStats& s = sim.step(frameS);
            if (k % 7 != 3)
                continue;
            const FabricFrame f = fabricAt(story, step, k);
            QCOMPARE(f.links.size(), s.links.size());
            QCOMPARE(f.flows.size(), s.flows.size());
            for (std::size_t i = 0; i < s.links.size(); ++i) {
                const FabricFrameLink& l = f.links[i];
                QCOMPARE(l.utilisation, s.links[i].utilisation);
                QCOMPARE(l.queueBytes, s.links[i].queueBytes);
                QCOMPARE(l.ingressBytes, s.links[i].ingressBytes);
                const FabricStall expected = !s.links[i].paused ? FabricStall::None
                                             : ib               ? FabricStall::NoCredit
                                                                : FabricStall::Paused;
                QVERIFY(l.stall == expected);
                QCOMPARE(QString::fromStdString(f.nodes[static_cast<std::size_t>(l.from)].label),
                         QString::fromStdString(sim.links()[i].from));
                QCOMPARE(QString::fromStdString(f.nodes[static_cast<std::size_t>(l.to)].label),
                         QString::fromStdString(sim.links()[i].to));
            }
            for (std::size_t i = 0; i < s.flows.size(); ++i) {
                QCOMPARE(f.flows[i].goodputGbps, s.flows[i].goodputGbps);
                QCOMPARE(f.flows[i].rateGbps, s.flows[i].rateGbps);
                QCOMPARE(f.flows[i].victim, sim.flows()[i].victim);
            }
            const std::string counters = f.counters;
            QVERIFY(counters.find("pause frames " + std::to_string(s.counters.pauseFrames)) !=
                    std::string::npos);
        }
    }

    void infinibandNeitherDropsNorPauses() {
        const Story story = build(kId);
        long long creditWaits = 0;
        for (int k = 0; k < kFrames; ++k) {
            const FabricFrame f = fabricAt(story, Ib, k);
            for (const FabricFrameLink& l : f.links) {
                QVERIFY(l.stall != FabricStall::Paused);
                QCOMPARE(l.drops, 0LL);
                QCOMPARE(l.pauses, 0LL);
                QCOMPARE(l.resent, 0LL);
                QVERIFY(l.queueBytes <= l.queueCapBytes || l.queueCapBytes == 0);
                creditWaits += l.stall == FabricStall::NoCredit ? 1 : 0;
            }
        }
        QVERIFY(creditWaits > 0); // credits do hold transmitters back, without a drop
    }

    // PFC alone: at some moment S pauses T's uplink (and T pauses its hosts: the pause climbs),
    // and the victim, which never uses R's port, gets far less than its fair share.
    void pfcPausesTheUplinkAndStallsTheVictim() {
        const Story story = build(kId);
        bool uplinkPaused = false, hostPausedByT = false;
        double victimGoodput = 0;
        long long drops = 0;
        for (int k = 0; k < kFrames; ++k) {
            const FabricFrame f = fabricAt(story, Pfc, k);
            uplinkPaused |= f.links[static_cast<std::size_t>(linkBetween(f, "T", "S"))].stall ==
                            FabricStall::Paused;
            hostPausedByT |= f.links[static_cast<std::size_t>(linkBetween(f, "VS", "T"))].stall ==
                             FabricStall::Paused;
            for (const FabricFrameLink& l : f.links)
                drops += l.drops;
            for (const FabricFrameFlow& fl : f.flows)
                if (fl.victim)
                    victimGoodput += fl.goodputGbps / kFrames;
        }
        QVERIFY(uplinkPaused);
        QVERIFY(hostPausedByT);
        QCOMPARE(drops, 0LL);
        const double fair = 400.0 * (1.0 - 1.0 / 8.0);
        QVERIFY2(victimGoodput < 0.5 * fair,
                 qPrintable(QString("victim %1 Gb/s, fair share %2").arg(victimGoodput).arg(fair)));
    }

    // Slowed down, the pause starts at S's host ports and only later holds T's uplink, and
    // from then on T keeps the victim's sender paused; the table lists the ports in that order.
    void slowMotionShowsThePauseClimbing() {
        const Story story = build(kId);
        int hostPortPaused = -1, uplinkPaused = -1, after = 0;
        double victimHeld = 0;
        for (int k = 0; k < kSlowFrames; ++k) {
            const FabricFrame f = fabricAt(story, Slow, k);
            const auto held = [&](const char* from, const char* to) {
                return f.links[static_cast<std::size_t>(linkBetween(f, from, to))].stall ==
                       FabricStall::Paused;
            };
            if (hostPortPaused < 0 && held("H3", "S"))
                hostPortPaused = k;
            if (uplinkPaused < 0 && held("T", "S"))
                uplinkPaused = k;
            if (uplinkPaused >= 0 && k > uplinkPaused) {
                victimHeld +=
                    f.links[static_cast<std::size_t>(linkBetween(f, "VS", "T"))].stalledFraction;
                ++after;
            }
        }
        QVERIFY(hostPortPaused >= 0);
        QVERIFY(uplinkPaused > hostPortPaused);
        QVERIFY(uplinkPaused < kSlowFrames - 10);
        qInfo("victim's sender held %.2f of the time after T's uplink was paused",
              victimHeld / after);
        QVERIFY(victimHeld / after >
                0.5); // T can hardly drain: the victim is held most of the time
        const auto table = first<FactsFrame>(story.steps[Slow].frames(1.0));
        QVERIFY(table.has_value());
        QCOMPARE(QString::fromStdString(table->rows.front().label), QString("7 host ports of S"));
        QVERIFY(table->rows.front().value.rfind("7 paused", 0) == 0);
        const auto before = first<FactsFrame>(story.steps[Slow].frames(0.0));
        QCOMPARE(QString::fromStdString(before->rows.front().value), QString("not yet"));
    }

    void dcqcnMarksAndPausesLessThanPfcAlone() {
        const Story story = build(kId);
        long long pfcPauses = 0, dcqcnPauses = 0, marks = 0, cnps = 0;
        for (int k = 0; k < kFrames; ++k) {
            for (const FabricFrameLink& l : fabricAt(story, Pfc, k).links)
                pfcPauses += l.pauses;
            for (const FabricFrameLink& l : fabricAt(story, Dcqcn, k).links) {
                dcqcnPauses += l.pauses;
                marks += l.ecnMarks;
                cnps += l.cnps;
            }
        }
        QVERIFY(marks > 0);
        QVERIFY(cnps > 0);
        QVERIFY(dcqcnPauses < pfcPauses);
    }

    // The loss chart: the prediction is the formula, and both simulated transports follow it.
    void lossChartFollowsGoBackN() {
        const Story story = build(kId, {{"gbps", "400"}, {"drop-rate", "0.02"}});
        const auto chart = first<ChartFrame>(story.steps[Loss].frames(0.5));
        QVERIFY(chart.has_value());
        FabricConfig c = FabricConfig::incast(FabricKind::RoCE, false, false, 1, 1);
        c.victim = false;
        const double w = goBackNResentPerLoss(FabricSim(c).roundTripSlots(0));
        const ChartSeries& predicted = seriesNamed(*chart, "go-back-N prediction");
        QVERIFY(predicted.points.size() > 10);
        for (const ChartPoint& p : predicted.points)
            QVERIFY(std::fabs(p.y - 400 * goBackNGoodputFraction(p.x / 100, w)) < 1e-9);
        for (const char* name : {"RoCE (simulated)", "InfiniBand (simulated)"}) {
            const ChartSeries& s = seriesNamed(*chart, name);
            QCOMPARE(static_cast<int>(s.points.size()), RoceVsInfinibandScenario::kSweepPoints);
            for (const ChartPoint& p : s.points) {
                const double expected = 400 * goBackNGoodputFraction(p.x / 100, w);
                QVERIFY2(std::fabs(p.y - expected) <= 0.07 * expected,
                         qPrintable(QString("%1 at %2 %: %3 Gb/s, formula %4")
                                        .arg(name)
                                        .arg(p.x)
                                        .arg(p.y)
                                        .arg(expected)));
            }
            QVERIFY(s.points.back().y < 0.5 * s.points.front().y); // 5 % loss costs over half
        }
        // The lossy incast drops packets and rewinds.
        long long drops = 0, resent = 0;
        for (int k = 0; k < kFrames; ++k)
            for (const FabricFrameLink& l : fabricAt(story, Lossy, k).links) {
                drops += l.drops;
                resent += l.resent;
            }
        QVERIFY(drops > 0);
        QVERIFY(resent > drops); // a drop costs a window of resends
    }

    // The panel is recommendFabric's answer for the same conditions on the evidence of the very
    // runs the steps animate: every factor with its weight, then the flips.
    void decisionPanelIsTheRecommendation_data() {
        QTest::addColumn<QStringList>("conditions");
        const QStringList keys{"team-lossless-ethernet", "multi-tenant",   "spreads-flows",
                               "in-network-reduction",   "vendor-lock-in", "budget-constrained"};
        QTest::newRow("defaults") << QStringList{};
        QTest::newRow("ethernet shop")
            << QStringList{"team-lossless-ethernet", "multi-tenant", "vendor-lock-in"};
        QTest::newRow("large, tenants, frugal")
            << QStringList{"gpus=16384", "multi-tenant", "budget-constrained", "spreads-flows"};
        QTest::newRow("everything") << keys;
    }
    void decisionPanelIsTheRecommendation() {
        QFETCH(QStringList, conditions);
        std::vector<std::pair<std::string, std::string>> params;
        FabricConditions c;
        for (const QString& x : conditions) {
            if (x.startsWith("gpus=")) {
                params.emplace_back("gpus", x.mid(5).toStdString());
                c.gpus = x.mid(5).toInt();
                continue;
            }
            params.emplace_back(x.toStdString(), "yes");
            c.teamRunsLosslessEthernet |= x == "team-lossless-ethernet";
            c.multiTenant |= x == "multi-tenant";
            c.spreadsFlows |= x == "spreads-flows";
            c.inNetworkReduction |= x == "in-network-reduction";
            c.vendorLockInConcern |= x == "vendor-lock-in";
            c.budgetConstrained |= x == "budget-constrained";
        }
        const Scenario& scenario = *findScenario(kId);
        Params p = scenario.defaultParams();
        for (const auto& [k, v] : params)
            QVERIFY(!p.set(k, v).has_value());
        const Story story = scenario.build(p, ScenarioInputs::shipped());
        const FabricRecommendation r = recommendFabric(c, steppedEvidence(8, 400, 1));
        const auto panel = first<FactsFrame>(story.steps[Decision].frames(0.5));
        QVERIFY(panel.has_value());
        QVERIFY(panel->title.rfind(fabricChoiceWords(r.choice), 0) == 0);
        // A negative score is written with a minus sign, not a hyphen.
        const std::string score = r.score < 0 ? std::string("−").append(std::to_string(-r.score))
                                              : std::to_string(r.score);
        QVERIFY2(panel->title.find("score " + score) != std::string::npos, panel->title.c_str());
        QVERIFY(panel->title.find("score -") == std::string::npos);
        QVERIFY(panel->title.find("assumed") != std::string::npos);
        const std::vector<FactRow>& rows = panel->rows;
        QCOMPARE(r.reasons.size(), std::size_t(7));
        QCOMPARE(rows.size(), r.reasons.size() + 1 + std::max<std::size_t>(1, r.flips.size()));
        for (std::size_t i = 0; i < r.reasons.size(); ++i) {
            const FabricReason& x = r.reasons[i];
            QVERIFY(rows[i].label.rfind(x.factor, 0) == 0);
            QVERIFY(rows[i].label.find(x.setting) != std::string::npos);
            QVERIFY(rows[i].source.rfind(x.text, 0) == 0);
            const std::string sign = x.weight > 0 ? "RoCE +" : x.weight < 0 ? "IB −" : "neither, 0";
            QVERIFY2(rows[i].value.rfind(sign, 0) == 0, rows[i].value.c_str());
        }
        const std::size_t firstFlip = r.reasons.size() + 1;
        if (r.flips.empty())
            QCOMPARE(QString::fromStdString(rows[firstFlip].value), QString("no single change"));
        for (std::size_t i = 0; i < r.flips.size(); ++i)
            QCOMPARE(QString::fromStdString(rows[firstFlip + i].value),
                     QString::fromStdString(r.flips[i].setting));
        // The check question's score is the panel's.
        QCOMPARE(story.checks.back().answer, static_cast<double>(r.score));
    }

    // One number per quantity: the victim's goodput reads the same on the chart of its step,
    // in the evidence table and on the whiteboard, and it is the run's own summary.
    void eachQuantityReadsOneNumber() {
        const Story story = build(kId);
        const FabricEvidence e = steppedEvidence(8, 400, 1);
        const auto markerShows = [&](int step, double gbps) {
            for (const Frame& frame : story.steps[static_cast<std::size_t>(step)].frames(1.0).items)
                if (const auto* c = std::get_if<ChartFrame>(&frame))
                    for (const ChartMarker& m : c->markers)
                        if (m.label.rfind("victim mean ", 0) == 0) {
                            const auto q = quotedNumbers(m.label);
                            return q.size() == 1 && shows(q[0], gbps);
                        }
            return false;
        };
        QVERIFY(markerShows(Ib, e.ibVictimGbps));
        QVERIFY(markerShows(Pfc, e.pfcVictimGbps));
        QVERIFY(markerShows(Dcqcn, e.dcqcnVictimGbps));
        // The whiteboard quotes the same three.
        const auto board = first<FactsFrame>(story.steps[WhiteboardStep].frames(1.0));
        QVERIFY(board.has_value());
        const auto quotes = [&](double gbps) {
            for (const FactRow& r : board->rows)
                for (const QuotedNumber& q : quotedNumbers(r.label))
                    if (q.scale == 1e9 && shows(q, gbps))
                        return true;
            return false;
        };
        QVERIFY(quotes(e.ibVictimGbps) && quotes(e.pfcVictimGbps) && quotes(e.dcqcnVictimGbps));
        // Every "… Gb/s" a resting slide quotes next to "victim" is one of those three.
        for (const std::string& w : everyWordAtRest(story))
            for (std::size_t at = w.find("victim"); at != std::string::npos;
                 at = w.find("victim", at + 1)) {
                const auto after = quotedNumbers(w.substr(at, 40));
                if (after.empty() || after[0].scale != 1e9)
                    continue;
                bool known = false;
                for (double v : {e.ibVictimGbps, e.pfcVictimGbps, e.dcqcnVictimGbps,
                                 e.lossyVictimGbps, e.victimFairGbps})
                    known |= shows(after[0], v);
                QVERIFY2(known, w.c_str());
            }
    }

    // A slide never points at another by number ("step 4"): steps are named by their title.
    void noSlideNamesAStepByNumber() {
        const Story story = build(kId);
        const std::regex byNumber(R"(\bsteps? \d)", std::regex::icase);
        for (const std::string& w : everyWordAtRest(story))
            QVERIFY2(!std::regex_search(w, byNumber), w.c_str());
        QVERIFY(!std::regex_search(findScenario(kId)->answer(), byNumber));
    }

    // The victim's fair share is one formula, link·(1 − 1/max(N, 2)), in the chart, the
    // evidence and calc.
    void victimFairShareIsOneFormula() {
        QCOMPARE(victimFairShareGbps(400, 8), 350.0);
        QCOMPARE(victimFairShareGbps(400, 2), 200.0);
        QCOMPARE(victimFairShareGbps(400, 1), 200.0); // the lone sender and the victim split T
        const Story story = build(kId, {{"senders", "4"}, {"gbps", "200"}});
        const auto chart = first<ChartFrame>(story.steps[Ib].frames(1.0));
        QVERIFY(chart.has_value());
        QCOMPARE(seriesNamed(*chart, "fair share").points.front().y, victimFairShareGbps(200, 4));
        QCOMPARE(story.checks.front().answer, victimFairShareGbps(200, 4));
    }

    void badParametersAreRefused() {
        const Scenario& s = *findScenario(kId);
        Params p = s.defaultParams();
        QVERIFY(p.set("senders", "0").has_value());
        QVERIFY(p.set("drop-rate", "0.5").has_value());
        QVERIFY(p.set("gbps", "-1").has_value());
        QVERIFY(p.set("multi-tenant", "maybe").has_value());
        // Past the specs' ranges, the models refuse too, naming what is wrong.
        std::vector<ParamSpec> wide = s.parameters();
        for (ParamSpec& spec : wide)
            if (spec.kind != ParamSpec::Kind::Choice) {
                spec.min = -1e9;
                spec.max = 1e9;
            }
        for (const auto& [name, value] : std::vector<std::pair<const char*, double>>{
                 {"senders", 0}, {"gbps", 0}, {"drop-rate", 0.2}, {"senders", 5000}}) {
            Params q(wide);
            QVERIFY(!q.setNumber(name, value).has_value());
            bool refused = false;
            try {
                s.build(q);
            } catch (const std::invalid_argument& e) {
                refused = std::string(e.what()).find("must") != std::string::npos;
            }
            QVERIFY2(refused, name);
        }
    }

    // frames(t) only indexes precomputed runs; build() simulates everything once.
    void buildIsInteractive() {
        const Scenario& s = *findScenario(kId);
        QElapsedTimer timer;
        timer.start();
        const Story story = s.build(s.defaultParams());
        const qint64 buildMs = timer.elapsed();
        timer.restart();
        for (int i = 0; i < 240; ++i)
            (void)story.steps[Pfc].frames(i / 239.0);
        const double frameMs = static_cast<double>(timer.nsecsElapsed()) / 1e6 / 240;
        qInfo("build %lld ms, frames(t) %.3f ms", buildMs, frameMs);
        QVERIFY2(buildMs < 2000, qPrintable(QString::number(buildMs)));
        QVERIFY2(frameMs < 4.0, qPrintable(QString::number(frameMs)));
    }
};

QTEST_APPLESS_MAIN(TestRoceVsInfinibandScenario)
#include "test_roce_vs_infiniband_scenario.moc"
