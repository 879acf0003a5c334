// `warpboard calc fabric | fabric-decision`: the roce-vs-infiniband incast simulation (InfiniBand
// credits vs RoCE with PFC / ECN / DCQCN and go-back-N) and the decision model built on it, as
// JSON.
#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "fabric/fabric_recommendation.h"
#include "fabric/fabric_sim.h"

#include <cmath>
#include <stdexcept>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kFabricModelSource =
    "DCQCN: Zhu et al., SIGCOMM '15 (credits, PFC, RED-ECN Kmin 5 KB / Kmax 200 KB / Pmax 1%, "
    "CNP every 50 us, g = 1/256, timers 55 us, B = 10 MB, F = 5, XON two MTU below XOFF); "
    "go-back-N: Guo et al., RDMA over Commodity Ethernet at Scale, SIGCOMM '16";

constexpr const char* kAssumes =
    "4096-byte packets, 0.5 us per hop, 1 MB lossy egress buffers, PFC XOFF 96 kB per "
    "ingress, IB credits 128 kB per port, 100 us retransmission timeout, DCQCN rate steps "
    "scaled from 40 Gb/s to the link rate; control packets never queue";

// Simulated slots × links: past this a run takes seconds, not milliseconds.
constexpr double kMaxWork = 4e8;

bool yes(const Params& p, const char* name) {
    return p.text(name) == "true";
}

ParamSpec flag(const char* name, const char* label, const char* def) {
    return ParamSpec::choice(name, label, {"true", "false"}, def);
}

FabricConfig configOf(const Params& p) {
    FabricConfig c;
    c.kind = p.text("fabric") == "ib" ? FabricKind::InfiniBand : FabricKind::RoCE;
    c.senders = static_cast<int>(p.integer("senders"));
    c.linkGbps = p.number("gbps");
    c.ecn = c.kind == FabricKind::RoCE && yes(p, "ecn");
    c.pfc = c.kind == FabricKind::RoCE && yes(p, "pfc");
    c.dropRate = p.number("drop-rate");
    c.seed = static_cast<std::uint64_t>(p.integer("seed"));
    if (!(c.dropRate < 1.0))
        throw CalcError("--drop-rate must be below 1 (a link that drops every packet carries "
                        "nothing)");
    try {
        validateFabricConfig(c);
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
    return c;
}

void checkWork(const FabricConfig& c, double durationS, double runs) {
    const double links = c.senders + 4.0;
    if (durationS / c.slotS() * links * runs > kMaxWork) {
        throw CalcError(fill("--duration-us too long for this many senders at this rate (over "
                             "%1 simulated link slots); shorten it",
                             {formatSi(kMaxWork, "")}));
    }
}

Json fabric(const Params& p) {
    const FabricConfig c = configOf(p);
    const double durationS = p.number("duration-us") * 1e-6;
    checkWork(c, durationS, 1);
    FabricSim sim(c);
    const FabricSummary s = sim.run(durationS);
    const FabricCounters& n = s.counters;
    Json j;
    j["model"] = "fabric";
    j["fabric"] = fabricName(c.kind);
    j["flow_control"] = c.kind == FabricKind::InfiniBand ? "credits" : (c.pfc ? "pfc" : "none");
    j["senders"] = c.senders;
    j["gbps"] = c.linkGbps;
    j["ecn"] = c.ecn;
    j["pfc"] = c.pfc;
    j["drop_rate"] = c.dropRate;
    j["seed"] = c.seed;
    j["duration_us"] = s.durationS * 1e6;
    j["goodput_gbps"] = s.goodputGbps;
    j["receiver_link_gbps"] = s.receiverLinkGbps;
    j["victim_gbps"] = s.victimGbps;
    j["victim_fair_share_gbps"] = victimFairShareGbps(c.linkGbps, c.senders);
    j["pause_frames"] = n.pauseFrames;
    j["links_paused"] = s.linksPaused;
    j["pause_depth_hops"] = s.pauseDepth;
    j["dropped"] = n.dropped + n.corrupted;
    j["congestion_drops"] = n.dropped;
    j["injected_drops"] = n.corrupted;
    j["retransmitted"] = n.retransmitted;
    j["retransmitted_bytes"] = static_cast<double>(n.retransmitted) * c.mtuBytes;
    j["go_back_n_rewinds"] = n.rewinds;
    j["timeouts"] = n.timeouts;
    j["ecn_marks"] = n.ecnMarks;
    j["cnps"] = n.cnps;
    j["p50_latency_us"] = s.p50LatencyUs;
    j["p99_latency_us"] = s.p99LatencyUs;
    j["packets_sent"] = n.sent;
    j["packets_delivered"] = n.delivered;
    j["assumes"] = kAssumes;
    j["source"] = kFabricModelSource;
    return j;
}

Json decision(const Params& p) {
    const int senders = static_cast<int>(p.integer("senders"));
    const double gbps = p.number("gbps");
    const double durationS = p.number("duration-us") * 1e-6;
    FabricConfig probe;
    probe.senders = senders;
    probe.linkGbps = gbps;
    checkWork(probe, durationS, 4);
    FabricConditions c;
    c.teamRunsLosslessEthernet = yes(p, "team-lossless-ethernet");
    c.gpus = static_cast<int>(p.integer("gpus"));
    c.multiTenant = yes(p, "multi-tenant");
    c.vendorLockInConcern = yes(p, "vendor-lock-in");
    c.budgetConstrained = yes(p, "budget-constrained");
    c.spreadsFlows = yes(p, "spreads-flows");
    c.inNetworkReduction = yes(p, "in-network-reduction");
    const FabricEvidence e = measureFabricEvidence(senders, gbps, durationS,
                                                   static_cast<std::uint64_t>(p.integer("seed")));
    const FabricRecommendation r = recommendFabric(c, e);
    Json j;
    j["model"] = "fabric-decision";
    j["recommendation"] = fabricName(r.choice);
    j["score"] = r.score;
    j["weights"] = "assumed (judgement): > 0 favours RoCE, < 0 InfiniBand; a score of 0 or less "
                   "chooses InfiniBand";
    Json reasons = Json::array();
    for (const FabricReason& x : r.reasons)
        reasons.push_back({{"condition", x.condition},
                           {"factor", x.factor},
                           {"setting", x.setting},
                           {"weight", x.weight},
                           {"reason", x.text},
                           {"source", x.source}});
    j["reasons"] = reasons;
    Json flips = Json::array();
    for (const FabricFlip& x : r.flips)
        flips.push_back({{"condition", x.condition},
                         {"factor", x.factor},
                         {"setting", x.setting},
                         {"score", x.score}});
    j["flips"] = flips;
    Json ev;
    ev["ib_goodput_gbps"] = e.ibGoodputGbps;
    ev["ib_victim_gbps"] = e.ibVictimGbps;
    ev["roce_lossy_goodput_gbps"] = e.lossyGoodputGbps;
    ev["roce_lossy_goodput_loss"] = e.lossyGoodputLoss;
    ev["roce_lossy_retransmitted"] = e.lossyRetransmitted;
    ev["roce_lossy_victim_gbps"] = e.lossyVictimGbps;
    ev["roce_pfc_pause_frames"] = e.pfcPauseFrames;
    ev["roce_pfc_links_paused"] = e.pfcLinksPaused;
    ev["roce_pfc_pause_depth_hops"] = e.pfcPauseDepth;
    ev["roce_pfc_victim_gbps"] = e.pfcVictimGbps;
    ev["victim_fair_share_gbps"] = e.victimFairGbps;
    ev["roce_dcqcn_pause_frames"] = e.dcqcnPauseFrames;
    ev["roce_dcqcn_victim_gbps"] = e.dcqcnVictimGbps;
    j["evidence"] = ev;
    j["source"] = kFabricModelSource;
    return j;
}

ParamSpec senders() {
    return required(ParamSpec::integer("senders", "Incast senders N", "", 1, 1024, 8));
}

ParamSpec gbps(bool req) {
    auto s = ParamSpec::real("gbps", "Link rate", "Gb/s", 1, 3200, 400);
    return req ? required(s) : s;
}

ParamSpec seed() {
    return ParamSpec::integer("seed", "Random seed", "", 0, 9.0e15, 1);
}

ParamSpec duration(double def) {
    return ParamSpec::real("duration-us", "Simulated time", "µs", 1, 1e5, def);
}

} // namespace

void appendFabricCalcModels(std::vector<CalcModel>& v) {
    v.push_back({"fabric",
                 "an N:1 incast plus a victim flow on InfiniBand (credits) or RoCE (PFC, "
                 "ECN/DCQCN, go-back-N), simulated packet by packet",
                 {required(ParamSpec::choice("fabric", "Fabric", {"ib", "roce"}, "roce")),
                  senders(), gbps(true), flag("ecn", "RoCE: ECN marking + DCQCN", "true"),
                  flag("pfc", "RoCE: priority flow control", "true"),
                  ParamSpec::real("drop-rate", "Injected loss per packet", "", 0, 1, 0), seed(),
                  duration(1000)},
                 fabric});
    v.push_back({"fabric-decision",
                 "InfiniBand or RoCE for a cluster: the reasons, tied to the incast model, and "
                 "the conditions that flip the answer",
                 {flag("team-lossless-ethernet", "Team has run PFC + ECN in production", "false"),
                  ParamSpec::integer("gpus", "GPUs in the cluster", "", 1, 1e7, 1024),
                  flag("multi-tenant", "Several tenants share the fabric", "false"),
                  flag("spreads-flows",
                       "The collective library spreads each GPU pair over many flows", "false"),
                  flag("in-network-reduction",
                       "All-reduce-bound: would use reduction in the switches (SHARP)", "false"),
                  flag("vendor-lock-in", "Single-vendor lock-in is a concern", "false"),
                  flag("budget-constrained", "Budget is the binding constraint", "false"),
                  ParamSpec::integer("senders", "Incast senders N for the evidence", "", 2, 256, 8),
                  gbps(false), seed(), duration(500)},
                 decision});
}

} // namespace wb
