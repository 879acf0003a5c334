#include "fabric/fabric_recommendation.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "fabric/fabric_sim.h"

namespace wb {

namespace {

FabricSummary runOnce(FabricKind kind, bool pfc, bool ecn, int senders, double gbps,
                      double durationS, std::uint64_t seed) {
    FabricConfig c = FabricConfig::incast(kind, pfc, ecn, senders, seed);
    c.linkGbps = gbps;
    FabricSim sim(c);
    return sim.run(durationS);
}

std::string percent(double fraction) {
    return fill("%1%", {formatSignificant(100.0 * fraction)});
}

// The rules, without the flip analysis. Ties go to InfiniBand: lossless by construction
// (the model drops nothing there), so the burden of proof is on the tuned Ethernet.
FabricRecommendation decide(const FabricConditions& c, const FabricEvidence& e) {
    FabricRecommendation r;
    const std::string incast =
        fill("%1:1 incast at %2 Gb/s", {std::to_string(e.senders), formatSignificant(e.linkGbps)});
    const bool tuned = c.teamRunsLosslessEthernet;
    r.reasons.push_back(
        {.condition = "team",
         .weight = tuned ? 2 : -2,
         .text =
             tuned ? fill("the team already tunes PFC + ECN: in the %1, DCQCN cut PFC pause "
                          "frames from %2 to %3 and the victim flow got %4 Gb/s instead of %5",
                          {incast, std::to_string(e.pfcPauseFrames),
                           std::to_string(e.dcqcnPauseFrames), formatSignificant(e.dcqcnVictimGbps),
                           formatSignificant(e.pfcVictimGbps)})
                   : fill("nobody has run lossless Ethernet: in the %1, RoCE without PFC lost "
                          "%2 of the goodput (%3 drops, %4 packets resent by go-back-N), and "
                          "PFC alone sent %5 pause frames reaching %6 hops upstream; "
                          "InfiniBand dropped %7 with no tuning",
                          {incast, percent(e.lossyGoodputLoss), std::to_string(e.lossyDropped),
                           std::to_string(e.lossyRetransmitted), std::to_string(e.pfcPauseFrames),
                           std::to_string(e.pfcPauseDepth), std::to_string(e.ibDropped)})});
    if (c.gpus >= kLargeScaleGpus)
        r.reasons.push_back(
            {.condition = "gpus",
             .weight = -1,
             .text = fill("%1 GPUs means more switch tiers, and each is one more hop a pause "
                          "climbs (%2 links paused in a two-switch model); Meta runs 24K GPUs on "
                          "RoCE, but with a dedicated team and its own congestion control "
                          "(Gangidi et al., SIGCOMM '24)",
                          {std::to_string(c.gpus), std::to_string(e.pfcLinksPaused)})});
    if (c.multiTenant) {
        // Tenants share ports, so what one tenant's incast does to another's flow decides.
        // Hop-by-hop flow control alone (PFC, or IB credits without IB's own congestion
        // control, which is not modeled) stalls the victim either way; only end-to-end
        // congestion control that the team tunes (DCQCN here) keeps it near its share.
        const bool isolates = c.teamRunsLosslessEthernet && e.dcqcnVictimGbps > e.ibVictimGbps;
        const std::string held =
            fill("tenants share ports: one tenant's incast held an unrelated flow to %1 Gb/s "
                 "under PFC and %2 Gb/s under IB credits, of a %3 Gb/s fair share (head-of-line "
                 "blocking)",
                 {formatSignificant(e.pfcVictimGbps), formatSignificant(e.ibVictimGbps),
                  formatSignificant(e.victimFairGbps)});
        r.reasons.push_back(
            {.condition = "multi-tenant",
             .weight = isolates ? 1 : -1,
             .text = isolates ? fill("%1; with DCQCN, which this team can run, it kept %2 Gb/s",
                                     {held, formatSignificant(e.dcqcnVictimGbps)})
                              : fill("%1; untuned RoCE spreads pauses across tenants", {held})});
    }
    if (c.vendorLockInConcern)
        r.reasons.push_back({.condition = "vendor-lock-in",
                             .weight = 1,
                             .text = "InfiniBand switches and NICs come from essentially one "
                                     "vendor; RoCE runs on Ethernet from several (not a model "
                                     "output)"});
    if (c.budgetConstrained)
        r.reasons.push_back({.condition = "budget",
                             .weight = 1,
                             .text = "Ethernet switches and optics are commodity parts (not a "
                                     "model output: no prices are modeled)"});
    for (const FabricReason& x : r.reasons)
        r.score += x.weight;
    r.choice = r.score > 0 ? FabricKind::RoCE : FabricKind::InfiniBand;
    return r;
}

} // namespace

FabricEvidence measureFabricEvidence(int senders, double linkGbps, double durationS,
                                     std::uint64_t seed) {
    FabricEvidence e;
    e.senders = senders;
    e.linkGbps = linkGbps;
    e.durationS = durationS;
    const FabricSummary ib =
        runOnce(FabricKind::InfiniBand, false, false, senders, linkGbps, durationS, seed);
    const FabricSummary lossy =
        runOnce(FabricKind::RoCE, false, false, senders, linkGbps, durationS, seed);
    const FabricSummary pfc =
        runOnce(FabricKind::RoCE, true, false, senders, linkGbps, durationS, seed);
    const FabricSummary dcqcn =
        runOnce(FabricKind::RoCE, true, true, senders, linkGbps, durationS, seed);
    e.ibGoodputGbps = ib.goodputGbps;
    e.ibDropped = ib.counters.dropped;
    e.ibVictimGbps = ib.victimGbps;
    e.lossyGoodputGbps = lossy.goodputGbps;
    e.lossyGoodputLoss = ib.goodputGbps > 0 ? 1.0 - lossy.goodputGbps / ib.goodputGbps : 0.0;
    e.lossyDropped = lossy.counters.dropped;
    e.lossyRetransmitted = lossy.counters.retransmitted;
    e.pfcPauseFrames = pfc.counters.pauseFrames;
    e.pfcLinksPaused = pfc.linksPaused;
    e.pfcPauseDepth = pfc.pauseDepth;
    e.pfcVictimGbps = pfc.victimGbps;
    // H0 shares T's uplink with the victim and gets 1/N of R's port; the rest is the victim's.
    e.victimFairGbps = linkGbps * (1.0 - 1.0 / senders);
    e.dcqcnPauseFrames = dcqcn.counters.pauseFrames;
    e.dcqcnVictimGbps = dcqcn.victimGbps;
    return e;
}

FabricRecommendation recommendFabric(const FabricConditions& c, const FabricEvidence& e) {
    FabricRecommendation r = decide(c, e);
    auto tryFlip = [&](const char* name, FabricConditions changed, const std::string& value) {
        if (decide(changed, e).choice != r.choice)
            r.flips.push_back(fill("%1 → %2", {name, value}));
    };
    FabricConditions x = c;
    x.teamRunsLosslessEthernet = !c.teamRunsLosslessEthernet;
    tryFlip("team", x, x.teamRunsLosslessEthernet ? "runs lossless Ethernet" : "does not");
    x = c;
    x.gpus = c.gpus >= kLargeScaleGpus ? kLargeScaleGpus - 1 : kLargeScaleGpus;
    tryFlip("gpus", x,
            fill(x.gpus >= kLargeScaleGpus ? "at least %1" : "fewer than %1",
                 {std::to_string(kLargeScaleGpus)}));
    x = c;
    x.multiTenant = !c.multiTenant;
    tryFlip("multi-tenant", x, x.multiTenant ? "yes" : "no");
    x = c;
    x.vendorLockInConcern = !c.vendorLockInConcern;
    tryFlip("vendor-lock-in", x, x.vendorLockInConcern ? "yes" : "no");
    x = c;
    x.budgetConstrained = !c.budgetConstrained;
    tryFlip("budget", x, x.budgetConstrained ? "constrained" : "not constrained");
    return r;
}

} // namespace wb
