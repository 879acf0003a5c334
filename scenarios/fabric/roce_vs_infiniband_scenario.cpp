#include "fabric/roce_vs_infiniband_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "engine/to_index.h"
#include "fabric/fabric_recommendation.h"
#include "fabric/fabric_sim.h"
#include "fabric/go_back_n.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

using Style = ChartSeries::Style;

constexpr const char* kDcqcnSource = "Zhu et al., DCQCN, SIGCOMM '15";
constexpr const char* kGoBackNSource =
    "go-back-N: Guo et al., RDMA over Commodity Ethernet at Scale, SIGCOMM '16";
// Fabric time each loss-rate point of the go-back-N sweep runs: a few hundred losses at 1 %.
constexpr double kSweepS = 3e-3;
constexpr double kMaxSweepDropRate = 0.05;
// Events of this many frames flash on a link, so a badge stays up long enough to read.
constexpr int kRecentFrames = 3;

std::string gbpsText(double gbps) {
    return fill("%1 Gb/s", {formatSignificant(gbps, 3)});
}

struct LinkEvents {
    long long pauses = 0, marks = 0, cnps = 0, drops = 0, resent = 0;
};

// One simulated run, cut into animation frames of equal fabric time.
struct Run {
    FabricConfig config;
    std::vector<FabricLinkInfo> links;
    std::vector<FabricFlowInfo> flows;
    int victim = -1;
    std::vector<FabricStepStats> frames;         // events moved into `events`
    std::vector<std::vector<LinkEvents>> events; // per frame, per link
    std::vector<double> firstPauseS;             // per link: its first PFC pause, -1 if none
    double frameS = 0;
    FabricSummary summary;
};

Run simulate(const FabricConfig& c, int frames, double frameS) {
    FabricSim sim(c);
    Run r;
    r.config = c;
    r.links = sim.links();
    r.flows = sim.flows();
    r.victim = sim.victimFlow();
    r.firstPauseS.assign(r.links.size(), -1.0);
    r.frameS = frameS;
    r.frames.reserve(static_cast<std::size_t>(frames));
    for (int i = 0; i < frames; ++i) {
        FabricStepStats s = sim.step(frameS);
        std::vector<LinkEvents> ev(r.links.size());
        for (const FabricEvent& e : s.events) {
            // CNPs and rewinds belong to a flow: show them on its sender's link.
            const int link = e.link >= 0   ? e.link
                             : e.flow >= 0 ? r.flows[toIndex(e.flow)].path.front()
                                           : -1;
            if (link < 0)
                continue;
            LinkEvents& x = ev[toIndex(link)];
            switch (e.kind) {
            case FabricEventKind::PauseSent:
                ++x.pauses;
                if (r.firstPauseS[toIndex(link)] < 0)
                    r.firstPauseS[toIndex(link)] = e.timeS;
                break;
            case FabricEventKind::EcnMark:
                ++x.marks;
                break;
            case FabricEventKind::Cnp:
                ++x.cnps;
                break;
            case FabricEventKind::Drop:
            case FabricEventKind::Corrupted:
                ++x.drops;
                break;
            case FabricEventKind::Retransmit:
                x.resent += e.packets;
                break;
            case FabricEventKind::ResumeSent:
                break;
            }
        }
        s.events.clear();
        r.frames.push_back(std::move(s));
        r.events.push_back(std::move(ev));
    }
    r.summary = sim.summary();
    return r;
}

struct Sweep {
    std::vector<double> dropRates;
    std::vector<double> ibGbps, roceGbps;
    double resentPerLoss = 0;
    int hops = 0; // links from the sender to the receiver
    double chosenIbGbps = 0, chosenRoceGbps = 0;
};

double singleFlowGoodput(FabricKind kind, double gbps, double p, std::uint64_t seed, Sweep* path) {
    FabricConfig c = FabricConfig::incast(kind, false, false, 1, seed);
    c.victim = false;
    c.linkGbps = gbps;
    c.dropRate = p;
    FabricSim sim(c);
    if (path) {
        path->resentPerLoss = goBackNResentPerLoss(sim.roundTripSlots(0));
        path->hops = static_cast<int>(sim.flows().front().path.size());
    }
    return sim.run(kSweepS).goodputGbps;
}

// InfiniBand draws its losses from the next seed: with the same draws both transports (the
// same go-back-N) would give one curve twice; two independent samples show the law, not luck.
Sweep sweep(double gbps, double chosen, std::uint64_t seed) {
    Sweep s;
    for (int i = 0; i < RoceVsInfinibandScenario::kSweepPoints; ++i) {
        const double p = kMaxSweepDropRate * i / (RoceVsInfinibandScenario::kSweepPoints - 1);
        s.dropRates.push_back(p);
        s.ibGbps.push_back(singleFlowGoodput(FabricKind::InfiniBand, gbps, p, seed + 1, nullptr));
        s.roceGbps.push_back(singleFlowGoodput(FabricKind::RoCE, gbps, p, seed, &s));
    }
    s.chosenIbGbps = singleFlowGoodput(FabricKind::InfiniBand, gbps, chosen, seed + 1, nullptr);
    s.chosenRoceGbps = singleFlowGoodput(FabricKind::RoCE, gbps, chosen, seed, nullptr);
    return s;
}

struct FabricComparisonModel {
    int senders = 8;
    double gbps = 400;
    double dropRate = 0;
    std::uint64_t seed = 1;
    Run ib, pfc, pfcSlow, dcqcn, lossy;
    Sweep loss;
    FabricConditions conditions;
    FabricEvidence evidence; // from the runs above: the numbers every slide quotes
    FabricRecommendation decision;
    std::string lossyTitle; // the lossy step, named where another step points back to it
};

std::string runName(const FabricConfig& c) {
    if (c.kind == FabricKind::InfiniBand)
        return "InfiniBand · credits";
    if (!c.pfc)
        return c.ecn ? "RoCE · no PFC · ECN/DCQCN" : "RoCE · no PFC (lossy)";
    return c.ecn ? "RoCE · PFC + ECN/DCQCN" : "RoCE · PFC, no ECN";
}

int frameIndex(const Run& r, double t) {
    const double c = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
    return static_cast<int>(std::lround(c * static_cast<double>(r.frames.size() - 1)));
}

// Nodes from the simulation's links and flows: the roles follow from the structure (a switch
// whose uplink goes to another switch is the edge switch, and so on), not from names.
std::vector<FabricFrameNode> nodesOf(const Run& r, std::vector<std::string>& names) {
    names.clear();
    auto index = [&](const std::string& n) {
        const auto it = std::find(names.begin(), names.end(), n);
        if (it != names.end())
            return static_cast<int>(it - names.begin());
        names.push_back(n);
        return static_cast<int>(names.size()) - 1;
    };
    for (const FabricLinkInfo& l : r.links) {
        index(l.from);
        index(l.to);
    }
    std::vector<FabricFrameNode> nodes(names.size());
    std::vector<bool> isSwitch(names.size(), false);
    for (const FabricLinkInfo& l : r.links)
        if (l.fromSwitch)
            isSwitch[toIndex(index(l.from))] = true;
    for (std::size_t i = 0; i < names.size(); ++i)
        nodes[i].label = names[i];
    for (const FabricLinkInfo& l : r.links)
        if (l.fromSwitch) {
            const int to = index(l.to);
            nodes[toIndex(index(l.from))].role =
                isSwitch[toIndex(to)] ? FabricNodeRole::EdgeSwitch : FabricNodeRole::CoreSwitch;
        }
    const std::string line = gbpsText(r.config.linkGbps);
    for (std::size_t f = 0; f < r.flows.size(); ++f) {
        const FabricFlowInfo& flow = r.flows[f];
        const bool victim = static_cast<int>(f) == r.victim;
        const FabricLinkInfo& first = r.links[toIndex(flow.path.front())];
        const FabricLinkInfo& last = r.links[toIndex(flow.path.back())];
        FabricFrameNode& src = nodes[toIndex(index(first.from))];
        FabricFrameNode& dst = nodes[toIndex(index(last.to))];
        src.role = victim ? FabricNodeRole::VictimSender : FabricNodeRole::Sender;
        dst.role = victim ? FabricNodeRole::VictimReceiver : FabricNodeRole::Receiver;
        src.tip = victim
                      ? fill("%1: the victim sender, %2 to %3. It shares %4's uplink with the "
                             "incast but never touches %5's port",
                             {src.label, line, dst.label, first.to,
                              r.links[toIndex(r.flows.front().path.back())].to})
                      : fill("%1: greedy sender to %2 at up to %3", {src.label, dst.label, line});
        dst.tip = victim ? fill("%1: the victim's receiver; its own port is idle", {dst.label})
                         : fill("%1: one %2 port for %3 senders: the incast",
                                {dst.label, line, std::to_string(r.config.senders)});
    }
    for (FabricFrameNode& n : nodes) {
        if (n.role == FabricNodeRole::EdgeSwitch)
            n.tip =
                fill("%1: small switch; its one uplink carries both H0 and the victim", {n.label});
        else if (n.role == FabricNodeRole::CoreSwitch)
            n.tip = fill("%1: main switch; the receiver's port is the bottleneck", {n.label});
    }
    return nodes;
}

std::string heldText(const FabricConfig& c) {
    return c.kind == FabricKind::InfiniBand ? "no credit for the next buffer"
                                            : "PFC pause in force";
}

FabricFrame fabricFrame(const Run& r, double t) {
    const int k = frameIndex(r, t);
    const FabricStepStats& s = r.frames[toIndex(k)];
    const FabricConfig& c = r.config;
    const bool ib = c.kind == FabricKind::InfiniBand;
    FabricFrame f;
    std::vector<std::string> names;
    f.nodes = nodesOf(r, names);
    auto nodeIndex = [&](const std::string& n) {
        return static_cast<int>(std::find(names.begin(), names.end(), n) - names.begin());
    };
    auto switchNode = [&](int i) {
        const FabricNodeRole role = f.nodes[toIndex(i)].role;
        return role == FabricNodeRole::EdgeSwitch || role == FabricNodeRole::CoreSwitch;
    };
    const int first = std::max(0, k - kRecentFrames + 1);
    const std::string frameText = formatSi(r.frameS, "s");
    const std::string recentText = formatSi(kRecentFrames * r.frameS, "s");
    for (std::size_t i = 0; i < r.links.size(); ++i) {
        const FabricLinkInfo& info = r.links[i];
        const FabricLinkState& st = s.links[i];
        FabricFrameLink l;
        l.from = nodeIndex(info.from);
        l.to = nodeIndex(info.to);
        l.utilisation = st.utilisation;
        l.queueBytes = st.queueBytes;
        l.queueCapBytes = info.fromSwitch ? c.egressCapBytes : 0.0;
        l.ingressBytes = st.ingressBytes;
        const double ingressCap = ib ? c.creditBytes : (c.pfc ? c.xoffBytes : 0.0);
        l.ingressCapBytes = switchNode(l.to) ? ingressCap : 0.0;
        l.stall =
            !st.paused ? FabricStall::None : (ib ? FabricStall::NoCredit : FabricStall::Paused);
        l.stalledFraction = st.pausedFraction;
        for (int j = first; j <= k; ++j) {
            const LinkEvents& e = r.events[toIndex(j)][i];
            l.pauses += e.pauses;
            l.ecnMarks += e.marks;
            l.cnps += e.cnps;
            l.drops += e.drops;
            l.resent += e.resent;
        }
        // One line per fact the link has in this frame: the lines are joined, each is a sentence.
        std::string tip =
            fill("%1: busy %2 of this %3", {info.name, formatShare(st.utilisation), frameText});
        if (l.queueCapBytes > 0)
            tip.append(
                fill("\negress queue at %1: %2 of %3",
                     {info.from, formatBytes(st.queueBytes), formatBytes(c.egressCapBytes)}));
        if (l.ingressCapBytes > 0)
            tip.append(
                fill(ib ? "\nheld at %1 for this port: %2 of a %3 credit buffer"
                        : "\nheld at %1 for this port: %2 (PFC XOFF at %3)",
                     {info.to, formatBytes(st.ingressBytes), formatBytes(l.ingressCapBytes)}));
        if (ib)
            tip.append(fill("\ncredits: %1 packets", {std::to_string(st.credits)}));
        tip.append(
            fill(st.paused ? "\nheld %1 of the time (%2), held now" : "\nheld %1 of the time (%2)",
                 {formatShare(st.pausedFraction), heldText(c)}));
        if (l.pauses + l.ecnMarks + l.cnps + l.drops + l.resent > 0)
            tip.append(
                fill("\nlast %1: %2 pause frames, %3 ECN marks, %4 CNPs, %5 drops, %6 "
                     "packets to resend",
                     {recentText, std::to_string(l.pauses), std::to_string(l.ecnMarks),
                      std::to_string(l.cnps), std::to_string(l.drops), std::to_string(l.resent)}));
        l.tip = tip;
        f.links.push_back(std::move(l));
    }
    for (std::size_t i = 0; i < r.flows.size(); ++i) {
        const FabricFlowInfo& info = r.flows[i];
        const FabricFlowState& st = s.flows[i];
        FabricFrameFlow x;
        // The row's numbers are this frame's; the victim's run mean is on the chart beside it,
        // so its row says which one it shows.
        x.label = info.victim ? fill("%1 now", {info.name}) : info.name;
        x.sender = nodeIndex(r.links[toIndex(info.path.front())].from);
        x.victim = info.victim;
        x.rateGbps = st.rateGbps;
        x.goodputGbps = st.goodputGbps;
        x.tip = fill(!ib && c.ecn ? "%1: goodput %2 in this %3; allowed rate %4 (DCQCN's current "
                                    "rate RC)"
                                  : "%1: goodput %2 in this %3; allowed rate %4 (line rate: no "
                                    "rate control)",
                     {info.victim ? fill("%1 (victim)", {info.name}) : info.name,
                      gbpsText(st.goodputGbps), frameText, gbpsText(st.rateGbps)});
        f.flows.push_back(std::move(x));
    }
    f.linkGbps = c.linkGbps;
    f.title = fill(r.frameS < kFabricFrameS ? "%1 — %2:1 incast at %3 + victim VS→VR, slowed down"
                                            : "%1 — %2:1 incast at %3 + victim VS→VR",
                   {runName(c), std::to_string(c.senders), gbpsText(c.linkGbps)});
    const FabricCounters& n = s.counters;
    f.counters = fill("t = %1 µs (%2 per frame) · pause frames %3 · dropped %4 · ECN marks %5 · "
                      "CNPs %6 · resent %7 · delivered %8 packets",
                      {formatSignificant(s.endS * 1e6, 3), frameText, std::to_string(n.pauseFrames),
                       std::to_string(n.dropped + n.corrupted), std::to_string(n.ecnMarks),
                       std::to_string(n.cnps), std::to_string(n.retransmitted),
                       std::to_string(n.delivered)});
    f.caption = fill("modeled: packet-level slotted simulation, %1 B packets, %2 per hop; "
                     "mechanisms from %3",
                     {std::to_string(c.mtuBytes), formatSi(c.hopDelayS, "s"), kDcqcnSource});
    return f;
}

// The victim's goodput averaged over frames 0…k; at the last frame exactly the run's summary,
// the number the tables and the whiteboard quote.
double victimMeanSoFar(const Run& r, int k) {
    if (k >= static_cast<int>(r.frames.size()) - 1)
        return r.summary.victimGbps;
    double sum = 0;
    for (int j = 0; j <= k; ++j)
        sum += r.frames[toIndex(j)].flows[toIndex(r.victim)].goodputGbps;
    return sum / (k + 1);
}

// Goodput of the incast and of the victim over the run, with the current moment marked.
ChartFrame goodputChart(const FabricComparisonModel& m, const Run& r, double t,
                        const Run* reference) {
    ChartFrame c;
    c.title = fill("Goodput every %1 — %2", {formatSi(r.frameS, "s"), runName(r.config)});
    const double endUs = r.frames.back().endS * 1e6;
    c.x = {.title = "fabric time (µs)", .min = 0, .max = endUs};
    c.y = {.title = "goodput (Gb/s)", .min = 0, .max = m.gbps * 1.1};
    ChartSeries incast{.name = "incast", .points = {}, .style = Style::Line, .colorIndex = 0};
    ChartSeries victim{.name = "victim", .points = {}, .style = Style::Line, .colorIndex = 6};
    ChartSeries ref{
        .name = reference
                    ? (reference->config.kind == FabricKind::InfiniBand ? "IB incast" : "reference")
                    : "",
        .points = {},
        .style = Style::Faint,
        .colorIndex = 2};
    for (std::size_t k = 0; k < r.frames.size(); ++k) {
        const FabricStepStats& s = r.frames[k];
        double sum = 0;
        for (std::size_t f = 0; f < s.flows.size(); ++f)
            if (static_cast<int>(f) != r.victim)
                sum += s.flows[f].goodputGbps;
        const double x = s.endS * 1e6;
        incast.points.push_back({x, sum});
        if (r.victim >= 0)
            victim.points.push_back({x, s.flows[toIndex(r.victim)].goodputGbps});
        if (reference) {
            const FabricStepStats& q = reference->frames[k];
            double refSum = 0;
            for (std::size_t f = 0; f < q.flows.size(); ++f)
                if (static_cast<int>(f) != reference->victim)
                    refSum += q.flows[f].goodputGbps;
            ref.points.push_back({q.endS * 1e6, refSum});
        }
    }
    const double fair = m.evidence.victimFairGbps;
    c.series = {incast, victim,
                ChartSeries{.name = "link rate",
                            .points = {{0, m.gbps}, {endUs, m.gbps}},
                            .style = Style::Dashed,
                            .colorIndex = 7},
                ChartSeries{.name = "fair share",
                            .points = {{0, fair}, {endUs, fair}},
                            .style = Style::Dashed,
                            .colorIndex = 6}};
    if (reference)
        c.series.push_back(ref);
    const int k = frameIndex(r, t);
    if (r.victim >= 0) {
        // The marker reads the victim's mean goodput so far, which at rest is the run's mean:
        // the one number every slide quotes for it.
        const double mean = victimMeanSoFar(r, k);
        const double x = r.frames[toIndex(k)].endS * 1e6;
        c.markers.push_back(
            {.at = {x, mean},
             .label = fill("victim mean %1", {gbpsText(mean)}),
             .tooltip = fill("victim goodput, mean up to %1 µs: %2 of a %3 fair share; in the "
                             "last frame %4",
                             {formatSignificant(x, 4), gbpsText(mean), gbpsText(fair),
                              gbpsText(victim.points[toIndex(k)].y)}),
             .colorIndex = 6,
             .estimate = false,
             .emphasis = true});
    }
    c.footnote = "victim's fair share, derived: link × (1 − 1/max(N, 2)); H0 can use only 1/N of "
                 "R's port, so the victim is owed the rest of T's uplink (max-min fairness)";
    return c;
}

// DCQCN's allowed rate per flow over the run: the incast senders converge towards 1/N.
ChartFrame rateChart(const FabricComparisonModel& m, const Run& r, double t) {
    ChartFrame c;
    c.title = "DCQCN: each sender's allowed rate (RC)";
    const double endUs = r.frames.back().endS * 1e6;
    c.x = {.title = "fabric time (µs)", .min = 0, .max = endUs};
    c.y = {.title = "rate (Gb/s)", .min = 0, .max = m.gbps * 1.1};
    for (std::size_t f = 0; f < r.flows.size(); ++f) {
        const bool victim = static_cast<int>(f) == r.victim;
        ChartSeries s{.name = victim ? "victim's RC" : (f == 0 ? "incast senders' RC" : ""),
                      .points = {},
                      .style = victim ? Style::Line : Style::Faint,
                      .colorIndex = victim ? 6 : 0};
        for (const FabricStepStats& st : r.frames)
            s.points.push_back({st.endS * 1e6, st.flows[f].rateGbps});
        c.series.push_back(std::move(s));
    }
    ChartSeries victimGoodput{
        .name = "victim goodput", .points = {}, .style = Style::Dashed, .colorIndex = 6};
    if (r.victim >= 0)
        for (const FabricStepStats& st : r.frames)
            victimGoodput.points.push_back(
                {st.endS * 1e6, st.flows[toIndex(r.victim)].goodputGbps});
    c.series.push_back(victimGoodput);
    const double share = m.gbps / m.senders;
    c.series.push_back({.name = "1/N of R's port",
                        .points = {{0, share}, {endUs, share}},
                        .style = Style::Dashed,
                        .colorIndex = 7});
    const FabricStepStats& now = r.frames[toIndex(frameIndex(r, t))];
    const double rc = now.flows.front().rateGbps;
    c.markers.push_back(
        {.at = {now.endS * 1e6, rc},
         .label = fill("H0 RC %1", {gbpsText(rc)}),
         .tooltip = fill("H0's allowed rate at %1 µs: %2; 1/N = %3",
                         {formatSignificant(now.endS * 1e6, 4), gbpsText(rc), gbpsText(share)}),
         .colorIndex = 0,
         .estimate = false,
         .emphasis = true});
    if (r.victim >= 0) {
        const int k = frameIndex(r, t);
        const double mean = victimMeanSoFar(r, k);
        c.markers.push_back(
            {.at = {now.endS * 1e6, mean},
             .label = fill("victim mean %1", {gbpsText(mean)}),
             .tooltip = fill("victim goodput, mean up to %1 µs: %2",
                             {formatSignificant(now.endS * 1e6, 4), gbpsText(mean)}),
             .colorIndex = 6,
             .estimate = false,
             .emphasis = true});
    }
    c.footnote = "RC: cut by α/2 per CNP, then fast recovery and increase (Zhu et al., DCQCN, "
                 "SIGCOMM '15 §3.1)";
    return c;
}

// Which links run from a host straight into the main switch (S's host ports): the roles follow
// from the links' structure, as in nodesOf.
std::vector<bool> hostPortsOfCore(const Run& r) {
    std::vector<std::string> names;
    const std::vector<FabricFrameNode> nodes = nodesOf(r, names);
    std::vector<bool> out(r.links.size(), false);
    for (std::size_t i = 0; i < r.links.size(); ++i) {
        const FabricLinkInfo& l = r.links[i];
        const auto to = std::find(names.begin(), names.end(), l.to) - names.begin();
        out[i] = !l.fromSwitch &&
                 nodes[toIndex(static_cast<int>(to))].role == FabricNodeRole::CoreSwitch;
    }
    return out;
}

// When each link was first paused in the slowed-down run, earliest first: S's ports from the
// hosts (one row for all of them, so 32 senders still fit), T's uplink, and the two hosts
// behind T, whose pause no longer lifts once T's uplink is held.
FactsFrame pauseClimb(const Run& r, double t) {
    FactsFrame f;
    f.title = "How the pause climbs (first PFC pause per link)";
    const double nowS = r.frames[toIndex(frameIndex(r, t))].endS;
    const std::vector<bool> hostPort = hostPortsOfCore(r);
    auto when = [](double s) { return fill("%1 µs", {formatSignificant(s * 1e6, 3)}); };
    struct Row {
        double firstS;
        FactRow row;
    };
    std::vector<Row> rows;
    // Hosts straight into the main switch: one row.
    double first = -1, last = -1;
    int paused = 0, hosts = 0;
    std::string never;
    for (std::size_t i = 0; i < r.links.size(); ++i) {
        const FabricLinkInfo& l = r.links[i];
        const double p = r.firstPauseS[i];
        if (hostPort[i]) {
            ++hosts;
            if (p >= 0 && p <= nowS) {
                ++paused;
                first = first < 0 ? p : std::min(first, p);
                last = std::max(last, p);
            }
            continue;
        }
        if (p < 0) {
            never.append(never.empty() ? "" : ", ").append(l.name);
            continue;
        }
        const bool happened = p <= nowS;
        const bool behindEdge = !l.fromSwitch;
        rows.push_back(
            {.firstS = p,
             .row = {.label = l.name,
                     .value = happened ? fill("paused at %1", {when(p)}) : std::string("not yet"),
                     .source = fill(behindEdge ? "%1's ingress for this port passed XOFF (%2); "
                                                 "with T's uplink paused, it is held most of the "
                                                 "time"
                                               : "%1's ingress for this port passed XOFF (%2): "
                                                 "T's uplink held",
                                    {l.to, formatBytes(r.config.xoffBytes)}),
                     .emphasis = happened}});
    }
    if (hosts > 0)
        rows.push_back(
            {.firstS = first < 0 ? 0.0 : first,
             .row = {.label = fill("%1 host ports of S", {std::to_string(hosts)}),
                     .value = paused == 0 ? std::string("not yet")
                              : first < last
                                  ? fill("%1 paused, %2–%3",
                                         {std::to_string(paused), when(first), when(last)})
                                  : fill("%1 paused, %2", {std::to_string(paused), when(first)}),
                     .source = fill("S's ingress per port passed XOFF (%1): R's port drains 1/N "
                                    "of what arrives",
                                    {formatBytes(r.config.xoffBytes)})}});
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.firstS < b.firstS; });
    for (const Row& x : rows)
        f.rows.push_back(x.row);
    if (!never.empty())
        f.rows.push_back({"Never paused", never, "links into a host: its NIC never pushes back"});
    return f;
}

// What the pause table quotes at rest: each link's first pause and how many host ports of S
// there are (all of them paused by the end).
std::vector<ResultValue> pauseClimbResults(const Run& r) {
    std::vector<ResultValue> out;
    const std::vector<bool> hostPort = hostPortsOfCore(r);
    int hosts = 0, paused = 0;
    for (std::size_t i = 0; i < r.links.size(); ++i) {
        if (r.firstPauseS[i] >= 0)
            out.push_back({fill("first pause on %1", {r.links[i].name}), r.firstPauseS[i]});
        hosts += hostPort[i] ? 1 : 0;
        paused += hostPort[i] && r.firstPauseS[i] >= 0 ? 1 : 0;
    }
    out.push_back({"host ports of S", hosts});
    out.push_back({"host ports of S paused", paused});
    return out;
}

ChartFrame lossChart(const FabricComparisonModel& m) {
    const Sweep& s = m.loss;
    ChartFrame c;
    c.title = "One sender, random loss: goodput vs drop rate";
    c.x = {
        .title = "packets lost at the receiving NIC (%)", .min = 0, .max = kMaxSweepDropRate * 100};
    c.y = {.title = "goodput (Gb/s)", .min = 0, .max = m.gbps * 1.05};
    ChartSeries predicted{
        .name = "go-back-N prediction", .points = {}, .style = Style::Dashed, .colorIndex = 7};
    for (int i = 0; i <= 50; ++i) {
        const double p = kMaxSweepDropRate * i / 50.0;
        predicted.points.push_back({p * 100, m.gbps * goBackNGoodputFraction(p, s.resentPerLoss)});
    }
    ChartSeries ib{
        .name = "InfiniBand (simulated)", .points = {}, .style = Style::Line, .colorIndex = 2};
    ChartSeries roce{
        .name = "RoCE (simulated)", .points = {}, .style = Style::Line, .colorIndex = 1};
    for (std::size_t i = 0; i < s.dropRates.size(); ++i) {
        ib.points.push_back({s.dropRates[i] * 100, s.ibGbps[i]});
        roce.points.push_back({s.dropRates[i] * 100, s.roceGbps[i]});
    }
    c.series = {predicted, ib, roce};
    const double expected = m.gbps * goBackNGoodputFraction(m.dropRate, s.resentPerLoss);
    c.markers.push_back(
        {.at = {m.dropRate * 100, s.chosenRoceGbps},
         .label = fill("RoCE %1", {gbpsText(s.chosenRoceGbps)}),
         .tooltip = fill("simulated at %1 loss: %2; go-back-N predicts %3",
                         {formatShare(m.dropRate), gbpsText(s.chosenRoceGbps), gbpsText(expected)}),
         .colorIndex = 1,
         .estimate = false,
         .emphasis = true});
    c.footnote = fill("each loss resends %1 packets (one round trip + 1); %2",
                      {formatSignificant(s.resentPerLoss, 3), kGoBackNSource});
    return c;
}

FactsFrame lossFacts(const FabricComparisonModel& m) {
    const Sweep& s = m.loss;
    const double fraction = goBackNGoodputFraction(m.dropRate, s.resentPerLoss);
    const double rtS = (s.resentPerLoss - 1) * m.lossy.config.slotS();
    FactsFrame f;
    f.title = fill("What a loss of %1 costs", {formatShare(m.dropRate)});
    f.rows = {
        {.label = "Round trip (data + NAK)",
         .value = fill("%1 packet times = %2",
                       {formatSignificant(s.resentPerLoss - 1, 3), formatSi(rtS, "s")}),
         .source = fill("%1 hops of %2 each way, %3 packets at the link rate (model assumption)",
                        {std::to_string(s.hops), formatSi(m.lossy.config.hopDelayS, "s"),
                         fill("%1 B", {std::to_string(m.lossy.config.mtuBytes)})})},
        {.label = "Resent per loss",
         .value = fill("%1 packets", {formatSignificant(s.resentPerLoss, 3)}),
         .source = kGoBackNSource},
        {.label = "Predicted goodput",
         .value = fill("%1 (%2)", {gbpsText(m.gbps * fraction), formatShare(fraction)}),
         .source = "1 / (1 + w·p/(1 − p)), w = packets resent per loss",
         .emphasis = true},
        {.label = "Simulated, RoCE",
         .value = gbpsText(s.chosenRoceGbps),
         .source = "go-back-N RC transport, no congestion"},
        {.label = "Simulated, InfiniBand",
         .value = gbpsText(s.chosenIbGbps),
         .source = "same transport: a loss costs IB the same; IB just never drops for congestion"},
        {.label = "Lossy incast (no PFC)",
         .value = gbpsText(m.evidence.lossyGoodputGbps),
         .source = fill("of %1: %2 congestion drops at S, each costing a window (step “%3”)",
                        {gbpsText(m.gbps), std::to_string(m.evidence.lossyDropped), m.lossyTitle})},
    };
    return f;
}

// A score as a reader writes it: a true minus sign, not a hyphen ("−3").
std::string signedScore(int score) {
    return score < 0 ? fill("−%1", {std::to_string(-score)}) : std::to_string(score);
}

std::string weightWords(int w) {
    return w > 0   ? fill("RoCE +%1", {std::to_string(w)})
           : w < 0 ? fill("IB −%1", {std::to_string(-w)})
                   : std::string("neither, 0");
}

// The decision as a table of factors: what each weighs, this run's setting, its direction and
// its weight (judgement, labelled assumed), then the single changes that flip it.
FactsFrame decisionFacts(const FabricComparisonModel& m) {
    const FabricRecommendation& r = m.decision;
    FactsFrame f;
    f.title =
        fill("%1, score %2 (weights assumed)", {fabricChoiceWords(r.choice), signedScore(r.score)});
    for (const FabricReason& x : r.reasons)
        f.rows.push_back({.label = fill("%1: %2", {x.factor, x.setting}),
                          .value = weightWords(x.weight),
                          .source = fill("%1 (%2)", {x.text, x.source}),
                          .emphasis = x.weight != 0});
    f.rows.push_back({.label = "Rule",
                      .value = "score > 0 → RoCE",
                      .source = "the sum of the weights; a tie goes to InfiniBand, lossless by "
                                "construction"});
    if (r.flips.empty())
        f.rows.push_back({.label = "Flips if",
                          .value = "no single change",
                          .source = "no one condition alone changes the choice"});
    for (const FabricFlip& flip : r.flips)
        f.rows.push_back(
            {.label = fill("Flips if %1", {flip.factor}),
             .value = flip.setting,
             .source = fill(
                 "score becomes %1: %2",
                 {signedScore(flip.score),
                  fabricChoiceWords(flip.score > 0 ? FabricKind::RoCE : FabricKind::InfiniBand)}),
             .emphasis = true});
    return f;
}

// How hard each side pulls: the factors against InfiniBand's bar and RoCE's, one segment per
// factor with a weight, on a fixed axis (the most either side can score) so runs compare.
struct FactorPull {
    int ib = 0, roce = 0;
};
FactorPull pullOf(const FabricRecommendation& r) {
    FactorPull p;
    for (const FabricReason& x : r.reasons)
        (x.weight < 0 ? p.ib : p.roce) += std::abs(x.weight);
    return p;
}

BarChartFrame weightBars(const FabricComparisonModel& m) {
    const FabricRecommendation& r = m.decision;
    const FactorPull pull = pullOf(r);
    BarChartFrame f;
    f.title = "Which way each factor pulls";
    f.caption = fill("score %1 = %2 for RoCE − %3 for IB; weights assumed, a tie goes to IB",
                     {signedScore(r.score), std::to_string(pull.roce), std::to_string(pull.ib)});
    f.horizontal = true;
    f.axisTitle = "weight (assumed: judgement)";
    BarCategory ib{.label = "IB", .segments = {}, .tip = "factors that favour InfiniBand"};
    BarCategory roce{.label = "RoCE", .segments = {}, .tip = "factors that favour RoCE"};
    for (const FabricReason& x : r.reasons) {
        if (x.weight == 0)
            continue;
        const int series = static_cast<int>(f.series.size());
        f.series.push_back(x.factor);
        (x.weight < 0 ? ib : roce)
            .segments.push_back({.value = std::abs(static_cast<double>(x.weight)),
                                 .series = series,
                                 .tip = fill("%1: %2", {x.factor, x.setting})});
    }
    f.categories = {ib, roce};
    f.emphasis = r.choice == FabricKind::InfiniBand ? 0 : 1;
    // A fixed axis, the most either side can score on this evidence, so runs compare.
    FabricConditions forIb;
    forIb.multiTenant = forIb.inNetworkReduction = true;
    FabricConditions forRoce;
    forRoce.teamRunsLosslessEthernet = forRoce.multiTenant = forRoce.spreadsFlows =
        forRoce.vendorLockInConcern = forRoce.budgetConstrained = true;
    forRoce.gpus = kLargeScaleGpus;
    f.axisMax = std::max(pullOf(recommendFabric(forIb, m.evidence)).ib,
                         pullOf(recommendFabric(forRoce, m.evidence)).roce);
    return f;
}

ParamSpec yesNoParam(const char* name, const char* label, const char* help) {
    return ParamSpec::choice(name, label, {"no", "yes"}, "no", help);
}

} // namespace

std::string RoceVsInfinibandScenario::question() const {
    return "You are building a GPU cluster. InfiniBand or RoCE? What happens to each under an "
           "incast, and what would change your answer?";
}

std::string RoceVsInfinibandScenario::answer() const {
    return R"(**Both carry RDMA at line rate. They differ in how they stay lossless, and that decides what your team must operate.** The points above quote this run's numbers; here is the reasoning behind them.
- InfiniBand is lossless by construction: "hop-by-hop, credit-based flow control" (Zhu et al., DCQCN, SIGCOMM '15). It never drops for congestion, but credits still push back hop by hop, so a flow that only shares an uplink with the incast is slowed too.
- RoCEv2 runs on lossy Ethernet. Without PFC the incast overflows the switch buffer, and go-back-N resends a whole round trip of packets per loss, so most of the receiver's port carries packets that are thrown away.
- PFC makes Ethernet lossless, but it pauses a whole port (or priority): the pause climbs upstream and holds flows that never touch the congested port, PFC's "congestion-spreading" (Zhu et al., SIGCOMM '15).
- ECN marking at the switches plus DCQCN at the NICs cut each sender's rate before the buffers reach XOFF, so far fewer pauses are sent. DCQCN needs tuning; Meta later dropped it and manages congestion in the collective library, running its 24K-GPU Llama 3 cluster on RoCE with many flows per GPU pair and enhanced ECMP (Grattafiori et al. 2024 §3.3.1; Gangidi et al., SIGCOMM '24).
- What a loss costs: with loss p and w packets resent per loss, one go-back-N sender keeps 1/(1 + w·p/(1 − p)) of the link, on IB and RoCE alike (Guo et al., SIGCOMM '16).
- Decision: a table of factors with assumed weights. Operations skill weighs most; adaptive routing and SHARP (Graham et al., COM-HPC '16) lean to InfiniBand; vendor lock-in and cost lean to Ethernet; multi-tenancy goes to whichever keeps the victim flow nearer its fair share; scale alone favours neither. The panel lists which single change would flip the answer.)";
}

std::vector<SourceRef> RoceVsInfinibandScenario::sources() const {
    return {
        {"Zhu et al., Congestion Control for Large-Scale RDMA Deployments (DCQCN), SIGCOMM '15",
         "https://conferences.sigcomm.org/sigcomm/2015/pdf/papers/p523.pdf"},
        {"Guo et al., RDMA over Commodity Ethernet at Scale, SIGCOMM '16",
         "https://www.microsoft.com/en-us/research/publication/"
         "rdma-over-commodity-ethernet-at-scale/"},
        {"Mittal et al., Revisiting Network Support for RDMA (IRN), SIGCOMM '18",
         "https://arxiv.org/abs/1806.08159"},
        {"Gangidi et al., RDMA over Ethernet for Distributed AI Training at Meta Scale, SIGCOMM "
         "'24",
         "https://doi.org/10.1145/3651890.3672233"},
        {"Grattafiori et al., The Llama 3 Herd of Models, 2024 §3.3.1 (network)",
         "https://arxiv.org/abs/2407.21783"},
        {"Graham et al., Scalable Hierarchical Aggregation Protocol (SHArP), COM-HPC '16",
         "https://doi.org/10.1109/COM-HPC.2016.6"},
    };
}

std::vector<ParamSpec> RoceVsInfinibandScenario::parameters() const {
    return {
        ParamSpec::integer("senders", "Incast senders", "", 2, 32, 8, false,
                           "senders all sending to one receiver"),
        ParamSpec::real("gbps", "Link rate", "Gb/s", 100, 800, 400, false, "every link, one way"),
        ParamSpec::real("drop-rate", "Random loss", "", 0, kMaxSweepDropRate, 0.01, false,
                        "per-packet loss at the receiving NIC (the go-back-N step)"),
        ParamSpec::integer("seed", "Seed", "", 1, 1000, 1, false, "ECN marking and loss draws"),
        yesNoParam("team-lossless-ethernet", "Team runs lossless Ethernet",
                   "has operated PFC + ECN/DCQCN in production"),
        ParamSpec::integer("gpus", "GPUs in the cluster", "", 64, 65536, 1024, true),
        yesNoParam("multi-tenant", "Multi-tenant", "tenants share switch ports"),
        yesNoParam("spreads-flows", "Many flows per GPU pair",
                   "the collective library spreads each pair over many flows (ECMP balances)"),
        yesNoParam("in-network-reduction", "Would use SHARP",
                   "all-reduce-bound: reduction inside InfiniBand switches"),
        yesNoParam("vendor-lock-in", "Vendor lock-in concern", "InfiniBand is one vendor"),
        yesNoParam("budget-constrained", "Budget-constrained", "Ethernet parts are commodity"),
    };
}

Story RoceVsInfinibandScenario::build(const Params& p, const ScenarioInputs&) const {
    auto m = std::make_shared<FabricComparisonModel>();
    m->senders = static_cast<int>(p.integer("senders"));
    m->gbps = p.number("gbps");
    m->dropRate = p.number("drop-rate");
    m->seed = static_cast<std::uint64_t>(p.integer("seed"));
    if (!(m->dropRate >= 0 && m->dropRate <= kMaxSweepDropRate))
        throw std::invalid_argument("roce-vs-infiniband: drop-rate must be in [0, 0.05]");
    auto config = [&](FabricKind kind, bool pfc, bool ecn) {
        FabricConfig c = FabricConfig::incast(kind, pfc, ecn, m->senders, m->seed);
        c.linkGbps = m->gbps;
        validateFabricConfig(c); // refuses what the model cannot run, with the field named
        return c;
    };
    m->ib = simulate(config(FabricKind::InfiniBand, false, false), kFrames, kFabricFrameS);
    m->pfc = simulate(config(FabricKind::RoCE, true, false), kFrames, kFabricFrameS);
    const FabricConfig pfc = config(FabricKind::RoCE, true, false);
    m->pfcSlow = simulate(pfc, kSlowFrames, kSlowFrameSlots * pfc.slotS());
    m->dcqcn = simulate(config(FabricKind::RoCE, true, true), kFrames, kFabricFrameS);
    m->lossy = simulate(config(FabricKind::RoCE, false, false), kFrames, kFabricFrameS);
    m->loss = sweep(m->gbps, m->dropRate, m->seed);
    m->conditions.teamRunsLosslessEthernet = p.text("team-lossless-ethernet") == "yes";
    m->conditions.gpus = static_cast<int>(p.integer("gpus"));
    m->conditions.multiTenant = p.text("multi-tenant") == "yes";
    m->conditions.spreadsFlows = p.text("spreads-flows") == "yes";
    m->conditions.inNetworkReduction = p.text("in-network-reduction") == "yes";
    m->conditions.vendorLockInConcern = p.text("vendor-lock-in") == "yes";
    m->conditions.budgetConstrained = p.text("budget-constrained") == "yes";
    // The decision rests on the very runs the steps animate: one number per quantity.
    m->evidence = fabricEvidence(m->senders, m->gbps, m->ib.summary, m->lossy.summary,
                                 m->pfc.summary, m->dcqcn.summary);
    m->decision = recommendFabric(m->conditions, m->evidence);
    const FabricEvidence& e = m->evidence;
    const FabricRecommendation& d = m->decision;
    const Sweep& loss = m->loss;
    const double lossFraction = goBackNGoodputFraction(m->dropRate, loss.resentPerLoss);
    const double share = m->gbps / m->senders;
    const double runS = kFrames * kFabricFrameS;

    Story story;
    story.provenance = fill("modeled on CPU: packet-level incast simulation, %1 senders + a "
                            "victim flow at %2, %3 per run, drop rate %4, seed %5",
                            {std::to_string(m->senders), gbpsText(m->gbps), formatSi(runS, "s"),
                             formatSignificant(m->dropRate, 3), std::to_string(m->seed)});
    story.results = {
        {"one receiver", 1},
        {"frame", kFabricFrameS},
        {"slow frame", m->pfcSlow.frameS},
        {"run", runS},
        {"run, µs", runS * 1e6},
        {"victim fair share", e.victimFairGbps},
        {"1/N of R's port", share},
        {"IB goodput", e.ibGoodputGbps},
        {"IB drops", e.ibDropped},
        {"IB victim", e.ibVictimGbps},
        {"PFC goodput", m->pfc.summary.goodputGbps},
        {"PFC pause frames", e.pfcPauseFrames},
        {"PFC links paused", e.pfcLinksPaused},
        {"PFC pause depth", e.pfcPauseDepth},
        {"PFC victim", e.pfcVictimGbps},
        {"DCQCN goodput", m->dcqcn.summary.goodputGbps},
        {"DCQCN pause frames", e.dcqcnPauseFrames},
        {"DCQCN victim", e.dcqcnVictimGbps},
        {"lossy goodput", e.lossyGoodputGbps},
        {"lossy victim", e.lossyVictimGbps},
        {"lossy loss vs IB", e.lossyGoodputLoss},
        {"lossy drops", e.lossyDropped},
        {"lossy resent", e.lossyRetransmitted},
        {"round trip, packets", loss.resentPerLoss - 1},
        {"round trip", (loss.resentPerLoss - 1) * m->lossy.config.slotS()},
        {"resent per loss", loss.resentPerLoss},
        {"go-back-N fraction", lossFraction},
        {"go-back-N goodput", m->gbps * lossFraction},
        {"simulated RoCE at this loss", loss.chosenRoceGbps},
        {"simulated IB at this loss", loss.chosenIbGbps},
        {"decision score", d.score},
        {"pull toward IB", pullOf(d).ib},
        {"pull toward RoCE", pullOf(d).roce},
        // A flip of scale names the side of the threshold it moves to.
        {"large scale, GPUs", kLargeScaleGpus},
        {"below large scale, GPUs", kLargeScaleGpus - 1},
    };
    for (const FabricReason& x : d.reasons)
        story.results.push_back({fill("weight: %1", {x.factor}), x.weight});
    for (const FabricFlip& x : d.flips)
        story.results.push_back({fill("score if %1 changes", {x.factor}), x.score});

    auto gb = [](double gbps) { return gbpsText(gbps); };
    const double fair = e.victimFairGbps;
    // How far below its fair share a victim sits, in words chosen by the numbers.
    auto heldWords = [fair](double victim) {
        return victim < 0.5 * fair ? "far below" : victim < 0.9 * fair ? "below" : "near";
    };

    story.steps.push_back(
        {e.ibDropped == 0 ? "InfiniBand: credits, nothing dropped"
                          : "InfiniBand: credits, yet packets dropped",
         fill("%1 senders push into one receiver's port. On InfiniBand a transmitter sends only "
              "when the next buffer has granted a credit, so queues stay bounded: %2 packets "
              "dropped and the incast got %3. The waiting still spreads hop by hop: T's uplink "
              "runs short of credits, and the victim VS→VR averaged %4, %5 its %6 fair share.",
              {std::to_string(m->senders), std::to_string(e.ibDropped), gb(e.ibGoodputGbps),
               gb(e.ibVictimGbps), heldWords(e.ibVictimGbps), gb(fair)}),
         kFrames * 0.1, [m](double t) {
             return Frames{{fabricFrame(m->ib, t), goodputChart(*m, m->ib, t, nullptr)}};
         }});
    story.steps.push_back(
        {e.pfcPauseDepth > 1 ? "RoCE with PFC: the pause climbs upstream"
                             : "RoCE with PFC: S pauses its senders",
         fill("Same incast on Ethernet with PFC and no ECN. When an ingress buffer at S passes "
              "XOFF, S pauses the port that feeds it: %1 pause frames, %2 links paused, up to %3 "
              "hops upstream. The victim never touches R's port, yet it averaged %4, %5 its %6 "
              "fair share: head-of-line blocking. IB's credits left it %7.",
              {std::to_string(e.pfcPauseFrames), std::to_string(e.pfcLinksPaused),
               std::to_string(e.pfcPauseDepth), gb(e.pfcVictimGbps), heldWords(e.pfcVictimGbps),
               gb(fair), gb(e.ibVictimGbps)}),
         kFrames * 0.1, [m](double t) {
             return Frames{{fabricFrame(m->pfc, t), goodputChart(*m, m->pfc, t, nullptr)}};
         }});
    story.steps.push_back(
        {"Slow motion: the pause climbs hop by hop",
         fill("The first microseconds of the same run, %1 per frame. S's ingress buffers pass "
              "XOFF first and S pauses the hosts on it, then T's uplink. T was already pausing "
              "H0 and VS, which share that one uplink. With the uplink held T can hardly drain, "
              "so the pause that started at R's port keeps the victim's sender paused.",
              {formatSi(m->pfcSlow.frameS, "s")}),
         8.0,
         [m](double t) {
             return Frames{{fabricFrame(m->pfcSlow, t), pauseClimb(m->pfcSlow, t)}};
         },
         pauseClimbResults(m->pfcSlow)});
    story.steps.push_back(
        {e.dcqcnPauseFrames < e.pfcPauseFrames ? "ECN + DCQCN: slow down before the buffers fill"
                                               : "ECN + DCQCN: marks, yet as many pauses",
         fill("Switches mark packets by RED once the egress queue passes Kmin. The receiver "
              "returns a CNP, and each sender's NIC cuts its rate, then climbs back, closing in "
              "on %1 each, 1/N of R's port. Pause frames went from %2 to %3, and the victim "
              "averaged %4 "
              "(%5 under PFC alone).",
              {gb(share), std::to_string(e.pfcPauseFrames), std::to_string(e.dcqcnPauseFrames),
               gb(e.dcqcnVictimGbps), gb(e.pfcVictimGbps)}),
         kFrames * 0.1,
         [m](double t) {
             return Frames{{fabricFrame(m->dcqcn, t), rateChart(*m, m->dcqcn, t)}};
         },
         {{"H0's allowed rate at the end", m->dcqcn.frames.back().flows.front().rateGbps}}});
    m->lossyTitle = "No PFC: drops, and go-back-N resends whole windows";
    story.steps.push_back(
        {m->lossyTitle,
         fill("Lossy RoCE: once S's egress buffer is full, arrivals are dropped (%1 here). The "
              "receiver discards everything after a gap and NAKs, and the sender rewinds and "
              "resends all of it (%2 packets). The incast got %3, %4 less than on InfiniBand.",
              {std::to_string(e.lossyDropped), std::to_string(e.lossyRetransmitted),
               gb(e.lossyGoodputGbps), formatShare(e.lossyGoodputLoss)}),
         kFrames * 0.1, [m](double t) {
             return Frames{{fabricFrame(m->lossy, t), goodputChart(*m, m->lossy, t, &m->ib)}};
         }});
    story.steps.push_back(
        {"What one loss costs",
         fill("A single sender and random loss, with no congestion. Each loss costs a round "
              "trip of resent packets (%1), on IB and RoCE alike, because both use the same "
              "go-back-N transport. At %2 loss the formula keeps %3 of the link and the "
              "simulation gives %4.",
              {formatSignificant(loss.resentPerLoss, 3), formatShare(m->dropRate),
               formatShare(lossFraction), gb(loss.chosenRoceGbps)}),
         6.0, [m](double) {
             return Frames{{lossChart(*m), lossFacts(*m)}};
         }});
    const std::string flipWords =
        d.flips.empty() ? std::string("No single change of condition flips it.")
                        : fill("Changing %1 alone flips it.", {d.flips.front().factor});
    story.steps.push_back(
        {"The decision, and what flips it",
         fill("Each factor has a direction and a weight; the weights are assumed (judgement), "
              "the reasons quote the runs above. Here: %1, score %2. %3",
              {fabricChoiceWords(d.choice), signedScore(d.score), flipWords}),
         8.0, [m](double) {
             return Frames{{decisionFacts(*m), weightBars(*m)}};
         }});

    // The whiteboard: this run's numbers, each with its primary source.
    story.whiteboard.question =
        fill("You are building a GPU cluster with %1 links. InfiniBand or RoCE? What happens to "
             "each under an incast, and what would change your answer?",
             {gb(m->gbps)});
    story.whiteboard.points = {
        {fill("InfiniBand is lossless by credits: in the %1:1 incast it dropped %2 packets and "
              "delivered "
              "%3. Credits still push back hop by hop, so the victim got %4 of a %5 fair share.",
              {std::to_string(m->senders), std::to_string(e.ibDropped), gb(e.ibGoodputGbps),
               gb(e.ibVictimGbps), gb(fair)}),
         "Zhu et al., DCQCN, SIGCOMM '15 (IB's credit-based link layer)"},
        {fill("Lossy RoCE drops at a full buffer and go-back-N resends a whole window per loss: "
              "%1 goodput, %2 below IB. PFC stops the drops but its pauses climb %3 hops and held "
              "the victim to %4.",
              {gb(e.lossyGoodputGbps), formatShare(e.lossyGoodputLoss),
               std::to_string(e.pfcPauseDepth), gb(e.pfcVictimGbps)}),
         "Guo et al., RDMA over Commodity Ethernet at Scale, SIGCOMM '16; Zhu et al. SIGCOMM '15 "
         "(congestion spreading)"},
        {fill("ECN + DCQCN slow the senders before the buffers fill: pause frames %1 → %2, the "
              "victim %3. Meta later managed congestion in the collective library instead and "
              "runs a 24K-GPU RoCE cluster.",
              {std::to_string(e.pfcPauseFrames), std::to_string(e.dcqcnPauseFrames),
               gb(e.dcqcnVictimGbps)}),
         "Zhu et al. SIGCOMM '15 §3; Grattafiori et al., Llama 3, 2024 §3.3.1; Gangidi et al., "
         "SIGCOMM '24"},
        {fill("A loss costs a round trip of resends on either fabric: with %1 resent per loss, "
              "%2 loss keeps %3 of the link.",
              {formatSignificant(loss.resentPerLoss, 3), formatShare(m->dropRate),
               formatShare(lossFraction)}),
         "Guo et al., SIGCOMM '16 (go-back-N)"},
        {fill("%1 here (score %2, weights assumed). Operations skill weighs most; adaptive "
              "routing and SHARP lean to IB, vendor lock-in and cost to Ethernet, scale to "
              "neither. %3",
              {fabricChoiceWords(d.choice), signedScore(d.score), flipWords}),
         "derived: assumed weights on this run's evidence; Graham et al., SHArP, COM-HPC '16"},
    };
    story.checks = {
        {fill("With %1 incast senders at %2, what is the victim's fair share of T's uplink?",
              {std::to_string(m->senders), gb(m->gbps)}),
         fair, "Gb/s", 0.02,
         fill("H0 can use only 1/%1 of R's port, so the victim is owed the rest of the uplink: "
              "%2 × (1 − 1/%1) = %3.",
              {std::to_string(std::max(m->senders, 2)), formatSignificant(m->gbps, 4), gb(fair)})},
        {fill("A go-back-N sender resends %1 packets per loss. What share of the link does it keep "
              "at %2 loss?",
              {formatSignificant(loss.resentPerLoss, 3), formatShare(m->dropRate)}),
         lossFraction * 100.0, "%", 0.02,
         fill("1 / (1 + w·p/(1 − p)) = 1 / (1 + %1 × %2 / (1 − %2)) = %3; the simulation gave "
              "%4 of %5.",
              {formatSignificant(loss.resentPerLoss, 3), formatSignificant(m->dropRate, 3),
               formatShare(lossFraction), gb(loss.chosenRoceGbps), gb(m->gbps)})},
        {"Add up the factors' weights on the decision slide: what is the score?",
         static_cast<double>(d.score), "", 0.0,
         fill("The weights sum to %1, so the choice is %2 (> 0 → RoCE, otherwise InfiniBand).",
              {signedScore(d.score), fabricChoiceWords(d.choice)})},
    };
    addWhiteboardStep(story, fill("%1 for these conditions; both fabrics spread back-pressure, "
                                  "and a loss costs a round trip on either.",
                                  {fabricChoiceWords(d.choice)}));
    return story;
}

} // namespace wb
