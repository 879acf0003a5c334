#include "fabric/fabric_recommendation.h"

#include "engine/number_format.h"
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
    return formatSignificant(100.0 * fraction).append("%");
}

// The rules, without the flip analysis. Ties go to InfiniBand: lossless by construction
// (the model drops nothing there), so the burden of proof is on the tuned Ethernet.
FabricRecommendation decide(const FabricConditions& c, const FabricEvidence& e) {
    FabricRecommendation r;
    const std::string incast = std::to_string(e.senders)
                                   .append(":1 incast at ")
                                   .append(formatSignificant(e.linkGbps))
                                   .append(" Gb/s");
    if (c.teamRunsLosslessEthernet) {
        std::string t = "the team already tunes PFC + ECN: in the ";
        t.append(incast)
            .append(", DCQCN cut PFC pause frames from ")
            .append(std::to_string(e.pfcPauseFrames))
            .append(" to ")
            .append(std::to_string(e.dcqcnPauseFrames))
            .append(" and the victim flow got ")
            .append(formatSignificant(e.dcqcnVictimGbps))
            .append(" Gb/s instead of ")
            .append(formatSignificant(e.pfcVictimGbps));
        r.reasons.push_back({"team", 2, t});
    } else {
        std::string t = "nobody has run lossless Ethernet: in the ";
        t.append(incast)
            .append(", RoCE without PFC lost ")
            .append(percent(e.lossyGoodputLoss))
            .append(" of the goodput (")
            .append(std::to_string(e.lossyDropped))
            .append(" drops, ")
            .append(std::to_string(e.lossyRetransmitted))
            .append(" packets resent by go-back-N), and PFC alone sent ")
            .append(std::to_string(e.pfcPauseFrames))
            .append(" pause frames reaching ")
            .append(std::to_string(e.pfcPauseDepth))
            .append(" hops upstream; InfiniBand dropped ")
            .append(std::to_string(e.ibDropped))
            .append(" with no tuning");
        r.reasons.push_back({"team", -2, t});
    }
    if (c.gpus >= kLargeScaleGpus) {
        std::string t = std::to_string(c.gpus);
        t.append(" GPUs means more switch tiers, and each is one more hop a pause climbs (")
            .append(std::to_string(e.pfcLinksPaused))
            .append(" links paused in a two-switch model); Meta runs 24K GPUs on RoCE, but "
                    "with a dedicated team and its own congestion control (Gangidi et al., SIGCOMM "
                    "'24)");
        r.reasons.push_back({"gpus", -1, t});
    }
    if (c.multiTenant) {
        // Tenants share ports, so what one tenant's incast does to another's flow decides.
        // Hop-by-hop flow control alone (PFC, or IB credits without IB's own congestion
        // control, which is not modeled) stalls the victim either way; only end-to-end
        // congestion control that the team tunes (DCQCN here) keeps it near its share.
        const bool isolates = c.teamRunsLosslessEthernet && e.dcqcnVictimGbps > e.ibVictimGbps;
        std::string t = "tenants share ports: one tenant's incast held an unrelated flow to ";
        t.append(formatSignificant(e.pfcVictimGbps))
            .append(" Gb/s under PFC and ")
            .append(formatSignificant(e.ibVictimGbps))
            .append(" Gb/s under IB credits, of a ")
            .append(formatSignificant(e.victimFairGbps))
            .append(" Gb/s fair share (head-of-line blocking)");
        if (isolates)
            t.append("; with DCQCN, which this team can run, it kept ")
                .append(formatSignificant(e.dcqcnVictimGbps))
                .append(" Gb/s");
        else
            t.append("; untuned RoCE spreads pauses across tenants");
        r.reasons.push_back({"multi-tenant", isolates ? 1 : -1, t});
    }
    if (c.vendorLockInConcern)
        r.reasons.push_back({"vendor-lock-in", 1,
                             "InfiniBand switches and NICs come from essentially one vendor; "
                             "RoCE runs on Ethernet from several (not a model output)"});
    if (c.budgetConstrained)
        r.reasons.push_back({"budget", 1,
                             "Ethernet switches and optics are commodity parts (not a model "
                             "output: no prices are modeled)"});
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
        if (decide(changed, e).choice != r.choice) {
            std::string s = name;
            s.append(" → ").append(value);
            r.flips.push_back(s);
        }
    };
    FabricConditions x = c;
    x.teamRunsLosslessEthernet = !c.teamRunsLosslessEthernet;
    tryFlip("team", x, x.teamRunsLosslessEthernet ? "runs lossless Ethernet" : "does not");
    x = c;
    x.gpus = c.gpus >= kLargeScaleGpus ? kLargeScaleGpus - 1 : kLargeScaleGpus;
    std::string gpus = x.gpus >= kLargeScaleGpus ? "at least " : "fewer than ";
    gpus.append(std::to_string(kLargeScaleGpus));
    tryFlip("gpus", x, gpus);
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
