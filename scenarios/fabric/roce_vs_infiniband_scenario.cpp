#include "fabric/roce_vs_infiniband_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "engine/to_index.h"
#include "fabric/fabric_recommendation.h"
#include "fabric/fabric_sim.h"
#include "fabric/go_back_n.h"

#include <algorithm>
#include <cmath>
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
    double chosenIbGbps = 0, chosenRoceGbps = 0;
};

double singleFlowGoodput(FabricKind kind, double gbps, double p, std::uint64_t seed,
                         double* resentPerLoss) {
    FabricConfig c = FabricConfig::incast(kind, false, false, 1, seed);
    c.victim = false;
    c.linkGbps = gbps;
    c.dropRate = p;
    FabricSim sim(c);
    if (resentPerLoss)
        *resentPerLoss = goBackNResentPerLoss(sim.roundTripSlots(0));
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
        s.roceGbps.push_back(singleFlowGoodput(FabricKind::RoCE, gbps, p, seed, &s.resentPerLoss));
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
    FabricEvidence evidence;
    FabricRecommendation decision;
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
        x.label = info.name;
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
    const double fair = m.gbps * (1.0 - 1.0 / m.senders);
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
    const ChartPoint now = victim.points.empty() ? ChartPoint{} : victim.points[toIndex(k)];
    c.markers.push_back(
        {.at = now,
         .label = fill("victim %1", {gbpsText(now.y)}),
         .tooltip = fill("victim goodput at %1 µs: %2 of a %3 fair share",
                         {formatSignificant(now.x, 4), gbpsText(now.y), gbpsText(fair)}),
         .colorIndex = 6,
         .estimate = false,
         .emphasis = true});
    c.footnote = "victim's fair share, derived: link × (1 − 1/N), as H0 needs 1/N of T's uplink "
                 "(max-min fairness)";
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
    c.footnote = "RC: cut by α/2 per CNP, then fast recovery and increase (Zhu et al., DCQCN, "
                 "SIGCOMM '15 §3.1)";
    return c;
}

// When each link was first paused in the slowed-down run, earliest first: S's ports from the
// hosts (one row for all of them, so 32 senders still fit), T's uplink, and the two hosts
// behind T, whose pause no longer lifts once T's uplink is held.
FactsFrame pauseClimb(const Run& r, double t) {
    FactsFrame f;
    f.title = "How the pause climbs (first PFC pause per link)";
    const double nowS = r.frames[toIndex(frameIndex(r, t))].endS;
    std::vector<std::string> names;
    const std::vector<FabricFrameNode> nodes = nodesOf(r, names);
    auto role = [&](const std::string& name) {
        return nodes[toIndex(static_cast<int>(std::find(names.begin(), names.end(), name) -
                                              names.begin()))]
            .role;
    };
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
        if (!l.fromSwitch && role(l.to) == FabricNodeRole::CoreSwitch) {
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
    const double rtUs = (s.resentPerLoss - 1) * m.lossy.config.slotS() * 1e6;
    FactsFrame f;
    f.title = fill("What a loss of %1 costs", {formatShare(m.dropRate)});
    f.rows = {
        {.label = "Round trip (data + NAK)",
         .value = fill("%1 packet times = %2 µs",
                       {formatSignificant(s.resentPerLoss - 1, 3), formatSignificant(rtUs, 3)}),
         .source = "3 hops of 0.5 µs each way, 4 KB packets at the link rate (model assumption)"},
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
         .value = gbpsText(m.lossy.summary.goodputGbps),
         .source = fill("of %1: %2 congestion drops at S, each costing a window (step 4)",
                        {gbpsText(m.gbps), std::to_string(m.lossy.summary.counters.dropped)})},
    };
    return f;
}

std::string yesNo(bool b) {
    return b ? "yes" : "no";
}

FactsFrame decisionFacts(const FabricComparisonModel& m) {
    const FabricRecommendation& r = m.decision;
    const FabricConditions& c = m.conditions;
    FactsFrame f;
    f.title = "Recommendation, and what would flip it";
    f.rows.push_back(
        {.label = "Choice",
         .value = r.choice == FabricKind::InfiniBand ? "InfiniBand" : "RoCE (lossless Ethernet)",
         .source = fill("score %1: the weights below (> 0 → RoCE, ties → InfiniBand)",
                        {std::to_string(r.score)}),
         .emphasis = true});
    f.rows.push_back(
        {.label = "Conditions",
         .value = fill("%1 GPUs", {std::to_string(c.gpus)}),
         .source = fill("team runs lossless Ethernet: %1 · multi-tenant: %2 · vendor lock-in "
                        "concern: %3 · budget-constrained: %4",
                        {yesNo(c.teamRunsLosslessEthernet), yesNo(c.multiTenant),
                         yesNo(c.vendorLockInConcern), yesNo(c.budgetConstrained)})});
    // One row per reason; the facts view wraps its sentence under the row's own separator.
    for (const FabricReason& x : r.reasons)
        f.rows.push_back({.label = x.condition,
                          .value = fill(x.weight > 0 ? "favours RoCE (+%1)" : "favours IB (%1)",
                                        {std::to_string(x.weight)}),
                          .source = x.text});
    if (r.flips.empty())
        f.rows.push_back(
            {"Flips if", "no single change", "no one condition alone changes the choice"});
    for (const std::string& flip : r.flips)
        f.rows.push_back({"Flips if", flip, "this condition alone changes the choice"});
    return f;
}

FactsFrame evidenceFacts(const FabricComparisonModel& m) {
    const FabricEvidence& e = m.evidence;
    FactsFrame f;
    f.title = fill("Measured on the %1:1 incast, %2 µs",
                   {std::to_string(e.senders), formatSignificant(e.durationS * 1e6, 4)});
    f.rows = {
        {.label = "InfiniBand",
         .value = fill("%1, %2 drops", {gbpsText(e.ibGoodputGbps), std::to_string(e.ibDropped)}),
         .source = fill("victim %1 of %2 (credits back-pressure T's uplink too)",
                        {gbpsText(e.ibVictimGbps), gbpsText(e.victimFairGbps)})},
        {.label = "RoCE, PFC only",
         .value = fill("%1 pause frames", {std::to_string(e.pfcPauseFrames)}),
         .source = fill("%1 links paused, %2 hops upstream; victim %3",
                        {std::to_string(e.pfcLinksPaused), std::to_string(e.pfcPauseDepth),
                         gbpsText(e.pfcVictimGbps)})},
        {.label = "RoCE, PFC + DCQCN",
         .value = fill("%1 pause frames", {std::to_string(e.dcqcnPauseFrames)}),
         .source = fill("victim %1; %2", {gbpsText(e.dcqcnVictimGbps), kDcqcnSource})},
        {.label = "RoCE, lossy",
         .value =
             fill("%1, %2 drops", {gbpsText(e.lossyGoodputGbps), std::to_string(e.lossyDropped)}),
         .source = fill("%1 below IB; %2 packets resent by go-back-N",
                        {formatShare(e.lossyGoodputLoss), std::to_string(e.lossyRetransmitted)})},
    };
    return f;
}

ParamSpec yesNoParam(const char* name, const char* label, const char* help) {
    return ParamSpec::choice(name, label, {"no", "yes"}, "no", help);
}

} // namespace

std::string RoceVsInfinibandScenario::question() const {
    return "You are building a 400 Gb/s GPU cluster. InfiniBand or RoCE? What happens to each "
           "under an incast, and what would change your answer?";
}

std::string RoceVsInfinibandScenario::answer() const {
    return R"(**Both carry RDMA at line rate. They differ in how they stay lossless, and that decides what your team must operate.**
- InfiniBand is lossless by construction: "hop-by-hop, credit-based flow control" (Zhu et al., DCQCN, SIGCOMM '15). In the model's 8:1 incast at 400 Gb/s (the defaults, 1.8 ms simulated) it drops **0** packets and R's port stays full. Credits still push back hop by hop: the victim flow that shares T's uplink gets about 48 Gb/s of a 350 Gb/s fair share.
- RoCEv2 runs on lossy Ethernet. Without PFC the incast overflows S's buffer, and go-back-N resends a whole round trip of packets per loss: goodput falls to about 8 Gb/s, **98 %** below IB.
- PFC makes Ethernet lossless, but it pauses a whole port (or priority). The pause climbs from S's ports to T's uplink and holds the victim's sender (about 47 Gb/s): head-of-line blocking, PFC's "congestion-spreading" (Zhu et al., SIGCOMM '15).
- ECN marking at the switches plus DCQCN at the NICs cut each sender's rate before the buffers reach XOFF. Pause frames drop from about 1,350 to 161 and the victim gets about 177 Gb/s. DCQCN needs tuning (Kmin 5 KB, Kmax 200 KB, Pmax 1 %, g = 1/256, 55 µs timers). Meta later dropped it for admission control in the collective library (Gangidi et al., RDMA over Ethernet for Distributed AI Training at Meta Scale, SIGCOMM '24).
- What a loss costs: with loss p and w packets resent per loss, one sender keeps 1/(1 + w·p/(1 − p)) of the link. With w = 37 (one round trip + 1 at 400 Gb/s), 1 % loss leaves **72.8 %**. The simulation matches on IB and RoCE alike, because both use the same go-back-N transport.
- Decision: InfiniBand by default. RoCE when the team already runs PFC + ECN in production, when vendor lock-in or budget weigh more, or for a multi-tenant cluster that such a team can isolate with DCQCN. The panel ties each reason to a number and lists which single condition would flip the answer.)";
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
    m->conditions.vendorLockInConcern = p.text("vendor-lock-in") == "yes";
    m->conditions.budgetConstrained = p.text("budget-constrained") == "yes";
    m->evidence = measureFabricEvidence(m->senders, m->gbps, kFrames * kFabricFrameS, m->seed);
    m->decision = recommendFabric(m->conditions, m->evidence);

    const double seconds = kFrames * 0.1; // 100 ms of wall clock per frame: a pause is visible
    Story story;
    story.provenance = fill("modeled on CPU: packet-level incast simulation, %1 senders + a "
                            "victim flow at %2, %3 µs per run, drop rate %4, seed %5",
                            {std::to_string(m->senders), gbpsText(m->gbps),
                             formatSignificant(kFrames * kFabricFrameS * 1e6, 4),
                             formatSignificant(m->dropRate, 3), std::to_string(m->seed)});
    story.steps.push_back(
        {"InfiniBand: credits, nothing dropped",
         "N senders push into one receiver's port. On InfiniBand a transmitter sends only when "
         "the next buffer has granted a credit, so queues stay bounded and nothing is dropped. "
         "R's port stays full. The waiting still spreads hop by hop: T's uplink runs short of "
         "credits, and the victim VS→VR slows with it.",
         seconds, [m](double t) {
             return Frames{{fabricFrame(m->ib, t), goodputChart(*m, m->ib, t, nullptr)}};
         }});
    story.steps.push_back(
        {"RoCE with PFC: the pause climbs upstream",
         "Same incast on Ethernet with PFC and no ECN. When an ingress buffer at S passes XOFF, S "
         "pauses the port that feeds it, T's uplink included. T fills in turn and pauses H0 and "
         "VS. The victim never touches R's port, yet it stalls far below its fair share: "
         "head-of-line blocking.",
         seconds, [m](double t) {
             return Frames{{fabricFrame(m->pfc, t), goodputChart(*m, m->pfc, t, nullptr)}};
         }});
    story.steps.push_back(
        {"Slow motion: the pause climbs hop by hop",
         "The first microseconds of the same run, three packet times per frame. S's ingress "
         "buffers pass XOFF first and S pauses the hosts on it, then T's uplink. T was already "
         "pausing H0 and VS, which share that one uplink. With the uplink held T can hardly "
         "drain, so the pause that started at R's port keeps the victim's sender paused most of "
         "the time.",
         8.0, [m](double t) {
             return Frames{{fabricFrame(m->pfcSlow, t), pauseClimb(m->pfcSlow, t)}};
         }});
    story.steps.push_back(
        {"ECN + DCQCN: slow down before the buffers fill",
         "Switches mark packets by RED once the egress queue passes Kmin. The receiver returns a "
         "CNP, and each sender's NIC cuts its rate by α/2 and then climbs back. The senders close "
         "in on 1/N of R's port, most pauses disappear and the victim gets much of its share "
         "back.",
         seconds, [m](double t) {
             return Frames{{fabricFrame(m->dcqcn, t), rateChart(*m, m->dcqcn, t)}};
         }});
    story.steps.push_back(
        {"No PFC: drops, and go-back-N resends whole windows",
         "Lossy RoCE: once S's egress buffer is full, arrivals are dropped. The receiver discards "
         "everything after a gap and NAKs, and the sender rewinds and resends all of it. Most of "
         "R's port carries packets that will be thrown away.",
         seconds, [m](double t) {
             return Frames{{fabricFrame(m->lossy, t), goodputChart(*m, m->lossy, t, &m->ib)}};
         }});
    story.steps.push_back(
        {"What one loss costs",
         "A single sender and random loss, with no congestion. Each loss costs a round trip of "
         "resent packets, on IB and RoCE alike, because both use the same go-back-N transport. "
         "The simulation follows the formula, so a fabric that drops even 1 % loses a large "
         "share of its goodput.",
         6.0, [m](double) {
             return Frames{{lossChart(*m), lossFacts(*m)}};
         }});
    story.steps.push_back(
        {"The decision, and what flips it",
         "The recommendation adds up reasons, and each reason quotes what the simulation measured. "
         "Change the conditions and watch which single change flips the answer.",
         8.0, [m](double) {
             return Frames{{decisionFacts(*m), evidenceFacts(*m)}};
         }});
    return story;
}

} // namespace wb
