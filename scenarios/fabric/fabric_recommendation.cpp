#include "fabric/fabric_recommendation.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <cmath>

namespace wb {

namespace {

constexpr const char* kDcqcnPaper = "Zhu et al., DCQCN, SIGCOMM '15";
constexpr const char* kLlama3Network = "Grattafiori et al., Llama 3, 2024 §3.3.1";
constexpr const char* kMetaRoce = "Gangidi et al., SIGCOMM '24";
constexpr const char* kSharpPaper = "Graham et al., SHArP, COM-HPC '16";

FabricSummary runFabricOnce(FabricKind kind, bool pfc, bool ecn, int senders, double gbps,
                            double durationS, std::uint64_t seed) {
    FabricConfig c = FabricConfig::incast(kind, pfc, ecn, senders, seed);
    c.linkGbps = gbps;
    FabricSim sim(c);
    return sim.run(durationS);
}

std::string decisionGbps(double gbps) {
    return fill("%1 Gb/s", {formatSignificant(gbps, 3)});
}

// Which of two victim goodputs isolates tenants better: +1 when `roce` beats `ib` by more than
// kVictimMargin of the fair share, −1 when IB does, 0 when both stall it about alike.
int victimVerdict(double roce, double ib, double fair) {
    if (roce - ib > kVictimMargin * fair)
        return 1;
    if (ib - roce > kVictimMargin * fair)
        return -1;
    return 0;
}

// The seven factors, in the order the panel lists them. Ties go to InfiniBand: lossless by
// construction (the model drops nothing there), so the burden of proof is on the tuned Ethernet.
FabricRecommendation decideFabric(const FabricConditions& c, const FabricEvidence& e) {
    FabricRecommendation r;
    const bool tuned = c.teamRunsLosslessEthernet;
    const std::string thisIncast = fill("this incast; %1", {kDcqcnPaper});
    r.reasons.push_back(
        {.condition = "team-lossless-ethernet",
         .factor = "operations skill",
         .setting = tuned ? "team runs lossless Ethernet" : "no lossless-Ethernet team",
         .weight = tuned ? 2 : -2,
         .text = tuned ? fill("the team tunes PFC + ECN: DCQCN cut pause frames from %1 to %2 "
                              "and lifted the victim from %3 to %4",
                              {std::to_string(e.pfcPauseFrames), std::to_string(e.dcqcnPauseFrames),
                               decisionGbps(e.pfcVictimGbps), decisionGbps(e.dcqcnVictimGbps)})
                       : fill("nobody here has run lossless Ethernet: without PFC the incast lost "
                              "%1 of its goodput to drops and go-back-N, PFC alone sent %2 pause "
                              "frames, and IB dropped %3 untuned",
                              {formatShare(e.lossyGoodputLoss), std::to_string(e.pfcPauseFrames),
                               std::to_string(e.ibDropped)}),
         .source = thisIncast});
    r.reasons.push_back(
        {.condition = "gpus",
         .factor = "scale",
         .setting = fill("%1 GPUs", {std::to_string(c.gpus)}),
         .weight = 0,
         .text = fill("favours neither: Meta trains on a RoCE cluster of 24K GPUs, and here IB's "
                      "credits held the victim to %1 as PFC held it to %2 (fair share %3)",
                      {decisionGbps(e.ibVictimGbps), decisionGbps(e.pfcVictimGbps),
                       decisionGbps(e.victimFairGbps)}),
         .source = fill("%1; %2", {kLlama3Network, kMetaRoce})});
    {
        // Tenants share ports, so what one tenant's incast does to another's flow decides.
        // The team's best RoCE (DCQCN if it can tune it, else PFC alone) against IB's credits
        // (IB's own congestion control is not modeled).
        const double roce = tuned ? e.dcqcnVictimGbps : e.pfcVictimGbps;
        const int verdict =
            c.multiTenant ? victimVerdict(roce, e.ibVictimGbps, e.victimFairGbps) : 0;
        const std::string measured =
            fill("another tenant's flow got %1 under IB and %2 under %3 (fair share %4)",
                 {decisionGbps(e.ibVictimGbps), decisionGbps(roce),
                  tuned ? "DCQCN" : "PFC alone, untuned", decisionGbps(e.victimFairGbps)});
        r.reasons.push_back(
            {.condition = "multi-tenant",
             .factor = "congestion control, tenants",
             .setting = c.multiTenant ? "multi-tenant" : "one tenant",
             .weight = verdict,
             .text = !c.multiTenant ? std::string("one job owns the fabric: no other tenant's "
                                                  "flow is the victim")
                     : verdict > 0  ? fill("%1: RoCE isolates tenants better", {measured})
                     : verdict < 0  ? fill("%1: IB isolates tenants better", {measured})
                                    : fill("%1: about alike", {measured}),
             .source = thisIncast});
    }
    r.reasons.push_back(
        {.condition = "spreads-flows",
         .factor = "adaptive routing",
         .setting = c.spreadsFlows ? "many flows per GPU pair" : "one flow per GPU pair",
         .weight = c.spreadsFlows ? 0 : -1,
         .text = c.spreadsFlows
                     ? std::string("many flows per GPU pair, as Meta spreads them with enhanced "
                                   "ECMP, let per-flow hashing balance the links")
                     : std::string("few large flows: ECMP pins each to one path and colliding "
                                   "flows share it; IB switches route adaptively (not simulated)"),
         .source = kLlama3Network});
    r.reasons.push_back(
        {.condition = "in-network-reduction",
         .factor = "in-network reduction (SHARP)",
         .setting = c.inNetworkReduction ? "would use SHARP" : "not needed",
         .weight = c.inNetworkReduction ? -1 : 0,
         .text = c.inNetworkReduction
                     ? std::string("IB switches can sum the all-reduce: each GPU sends its buffer "
                                   "up once instead of nearly twice around a ring")
                     : std::string("not all-reduce-bound: reduction in the switches buys little"),
         .source = kSharpPaper});
    r.reasons.push_back({.condition = "vendor-lock-in",
                         .factor = "vendor lock-in",
                         .setting = c.vendorLockInConcern ? "a concern" : "not a concern",
                         .weight = c.vendorLockInConcern ? 1 : 0,
                         .text = c.vendorLockInConcern
                                     ? std::string("IB comes from essentially one vendor, "
                                                   "Ethernet switches from several")
                                     : std::string("one supplier is acceptable here"),
                         .source = "judgement, not a model output"});
    const bool large = c.gpus >= kLargeScaleGpus;
    r.reasons.push_back(
        {.condition = "budget-constrained",
         .factor = "cost",
         .setting = c.budgetConstrained ? "budget-constrained" : "budget not binding",
         .weight = !c.budgetConstrained ? 0
                   : large              ? 2
                                        : 1,
         .text = !c.budgetConstrained ? std::string("the budget does not decide it")
                 : large ? fill("Ethernet parts are commodity, and at %1 GPUs (at least %2) the "
                                "fabric is a large line item: it weighs double",
                                {std::to_string(c.gpus), std::to_string(kLargeScaleGpus)})
                         : std::string("Ethernet switches and optics are commodity parts"),
         .source = "judgement, no prices modeled"});
    for (const FabricReason& x : r.reasons)
        r.score += x.weight;
    r.choice = r.score > 0 ? FabricKind::RoCE : FabricKind::InfiniBand;
    return r;
}

} // namespace

std::string fabricChoiceWords(FabricKind k) {
    return k == FabricKind::InfiniBand ? "InfiniBand" : "RoCE (lossless Ethernet)";
}

FabricEvidence fabricEvidence(int senders, double linkGbps, const FabricSummary& ib,
                              const FabricSummary& lossy, const FabricSummary& pfc,
                              const FabricSummary& dcqcn) {
    FabricEvidence e;
    e.senders = senders;
    e.linkGbps = linkGbps;
    e.durationS = ib.durationS;
    e.ibGoodputGbps = ib.goodputGbps;
    e.ibDropped = ib.counters.dropped;
    e.ibVictimGbps = ib.victimGbps;
    e.lossyGoodputGbps = lossy.goodputGbps;
    e.lossyGoodputLoss = ib.goodputGbps > 0 ? 1.0 - lossy.goodputGbps / ib.goodputGbps : 0.0;
    e.lossyDropped = lossy.counters.dropped;
    e.lossyRetransmitted = lossy.counters.retransmitted;
    e.lossyVictimGbps = lossy.victimGbps;
    e.pfcPauseFrames = pfc.counters.pauseFrames;
    e.pfcLinksPaused = pfc.linksPaused;
    e.pfcPauseDepth = pfc.pauseDepth;
    e.pfcVictimGbps = pfc.victimGbps;
    e.victimFairGbps = victimFairShareGbps(linkGbps, senders);
    e.dcqcnPauseFrames = dcqcn.counters.pauseFrames;
    e.dcqcnVictimGbps = dcqcn.victimGbps;
    return e;
}

FabricEvidence measureFabricEvidence(int senders, double linkGbps, double durationS,
                                     std::uint64_t seed) {
    auto run = [&](FabricKind kind, bool pfc, bool ecn) {
        return runFabricOnce(kind, pfc, ecn, senders, linkGbps, durationS, seed);
    };
    return fabricEvidence(senders, linkGbps, run(FabricKind::InfiniBand, false, false),
                          run(FabricKind::RoCE, false, false), run(FabricKind::RoCE, true, false),
                          run(FabricKind::RoCE, true, true));
}

FabricRecommendation recommendFabric(const FabricConditions& c, const FabricEvidence& e) {
    FabricRecommendation r = decideFabric(c, e);
    auto tryFlip = [&](const FabricConditions& changed, const char* condition) {
        const FabricRecommendation d = decideFabric(changed, e);
        if (d.choice == r.choice)
            return;
        for (const FabricReason& x : d.reasons)
            if (x.condition == condition)
                r.flips.push_back({.condition = condition,
                                   .factor = x.factor,
                                   .setting = x.setting,
                                   .score = d.score});
    };
    // Each yes/no condition turned over, then scale moved across kLargeScaleGpus.
    struct Toggle {
        bool FabricConditions::*field;
        const char* condition;
    };
    static constexpr Toggle kToggles[] = {
        {&FabricConditions::teamRunsLosslessEthernet, "team-lossless-ethernet"},
        {&FabricConditions::multiTenant, "multi-tenant"},
        {&FabricConditions::spreadsFlows, "spreads-flows"},
        {&FabricConditions::inNetworkReduction, "in-network-reduction"},
        {&FabricConditions::vendorLockInConcern, "vendor-lock-in"},
        {&FabricConditions::budgetConstrained, "budget-constrained"},
    };
    for (const Toggle& t : kToggles) {
        FabricConditions x = c;
        x.*t.field = !(c.*t.field);
        tryFlip(x, t.condition);
    }
    FabricConditions x = c;
    x.gpus = c.gpus >= kLargeScaleGpus ? kLargeScaleGpus - 1 : kLargeScaleGpus;
    tryFlip(x, "gpus");
    return r;
}

} // namespace wb
