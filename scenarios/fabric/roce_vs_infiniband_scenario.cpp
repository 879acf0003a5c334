#include "fabric/roce_vs_infiniband_scenario.h"

#include "engine/number_format.h"
#include "engine/prefixed.h"
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

constexpr const char* kDcqcnSource = "Zhu et al., DCQCN, SIGCOMM '15";
constexpr const char* kGoBackNSource =
    "go-back-N: Guo et al., RDMA over Commodity Ethernet at Scale, SIGCOMM '16";
// Fabric time each loss-rate point of the go-back-N sweep runs: a few hundred losses at 1 %.
constexpr double kSweepS = 3e-3;
constexpr double kMaxSweepDropRate = 0.05;
// Events of this many frames flash on a link, so a badge stays up long enough to read.
constexpr int kRecentFrames = 3;

std::string gbpsText(double gbps) {
    return formatSignificant(gbps, 3).append(" Gb/s");
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
        src.tip = victim ? concat(src.label, ": the victim sender, ", line, " to ", dst.label,
                                  ". It shares ", first.to,
                                  "'s uplink with the incast but never "
                                  "touches ",
                                  r.links[toIndex(r.flows.front().path.back())].to, "'s port")
                         : concat(src.label, ": greedy sender to ", dst.label, " at up to ", line);
        dst.tip = victim ? concat(dst.label, ": the victim's receiver; its own port is idle")
                         : concat(dst.label, ": one ", line, " port for ",
                                  std::to_string(r.config.senders), " senders: the incast");
    }
    for (FabricFrameNode& n : nodes) {
        if (n.role == FabricNodeRole::EdgeSwitch)
            n.tip =
                concat(n.label, ": small switch; its one uplink carries both H0 and the victim");
        else if (n.role == FabricNodeRole::CoreSwitch)
            n.tip = concat(n.label, ": main switch; the receiver's port is the bottleneck");
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
        std::string tip = concat(info.name, ": busy ", formatSignificant(100 * st.utilisation, 3),
                                 " % of this ", frameText);
        if (l.queueCapBytes > 0)
            tip.append(concat("\negress queue at ", info.from, ": ", formatBytes(st.queueBytes),
                              " of ", formatBytes(c.egressCapBytes)));
        if (l.ingressCapBytes > 0)
            tip.append(concat("\nheld at ", info.to, " for this port: ",
                              formatBytes(st.ingressBytes), ib ? " of a " : " (PFC XOFF at ",
                              formatBytes(l.ingressCapBytes), ib ? " credit buffer" : ")"));
        if (ib)
            tip.append(concat("\ncredits: ", std::to_string(st.credits), " packets"));
        tip.append(concat("\nheld ", formatSignificant(100 * st.pausedFraction, 3),
                          " % of the time (", heldText(c), ")", st.paused ? ", held now" : ""));
        if (l.pauses + l.ecnMarks + l.cnps + l.drops + l.resent > 0)
            tip.append(concat("\nlast ", recentText, ": ", std::to_string(l.pauses),
                              " pause frames, ", std::to_string(l.ecnMarks), " ECN marks, ",
                              std::to_string(l.cnps), " CNPs, ", std::to_string(l.drops),
                              " drops, ", std::to_string(l.resent), " packets to resend"));
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
        x.tip = concat(
            info.name, info.victim ? " (victim)" : "", ": goodput ", gbpsText(st.goodputGbps),
            " in this ", frameText, "; allowed rate ", gbpsText(st.rateGbps),
            !ib && c.ecn ? " (DCQCN's current rate RC)" : " (line rate: no rate control)");
        f.flows.push_back(std::move(x));
    }
    f.linkGbps = c.linkGbps;
    f.title =
        concat(runName(c), " — ", std::to_string(c.senders), ":1 incast at ", gbpsText(c.linkGbps),
               " + victim VS→VR", r.frameS < kFabricFrameS ? ", slowed down" : "");
    const FabricCounters& n = s.counters;
    f.counters =
        concat("t = ", formatSignificant(s.endS * 1e6, 3), " µs (", frameText,
               " per frame) · pause frames ", std::to_string(n.pauseFrames), " · dropped ",
               std::to_string(n.dropped + n.corrupted), " · ECN marks ", std::to_string(n.ecnMarks),
               " · CNPs ", std::to_string(n.cnps), " · resent ", std::to_string(n.retransmitted),
               " · delivered ", std::to_string(n.delivered), " packets");
    f.caption = concat("modeled: packet-level slotted simulation, ", std::to_string(c.mtuBytes),
                       " B packets, ", formatSi(c.hopDelayS, "s"), " per hop; mechanisms from ",
                       kDcqcnSource);
    return f;
}

// Goodput of the incast and of the victim over the run, with the current moment marked.
ChartFrame goodputChart(const FabricComparisonModel& m, const Run& r, double t,
                        const Run* reference) {
    ChartFrame c;
    c.title = concat("Goodput every ", formatSi(r.frameS, "s"), " — ", runName(r.config));
    const double endUs = r.frames.back().endS * 1e6;
    c.x = {"fabric time (µs)", false, 0, endUs};
    c.y = {"goodput (Gb/s)", false, 0, m.gbps * 1.1};
    ChartSeries incast{"incast", {}, ChartSeries::Style::Line, 0};
    ChartSeries victim{"victim", {}, ChartSeries::Style::Line, 6};
    ChartSeries ref{
        reference ? (reference->config.kind == FabricKind::InfiniBand ? "IB incast" : "reference")
                  : "",
        {},
        ChartSeries::Style::Faint,
        2};
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
    c.series = {
        incast, victim,
        ChartSeries{"link rate", {{0, m.gbps}, {endUs, m.gbps}}, ChartSeries::Style::Dashed, 7},
        ChartSeries{"fair share", {{0, fair}, {endUs, fair}}, ChartSeries::Style::Dashed, 6}};
    if (reference)
        c.series.push_back(ref);
    const int k = frameIndex(r, t);
    const ChartPoint now = victim.points.empty() ? ChartPoint{} : victim.points[toIndex(k)];
    c.markers.push_back({now, concat("victim ", gbpsText(now.y)),
                         concat("victim goodput at ", formatSignificant(now.x, 4),
                                " µs: ", gbpsText(now.y), " of a ", gbpsText(fair), " fair share"),
                         6, false, true});
    c.footnote = "victim's fair share, derived: link × (1 − 1/N), as H0 needs 1/N of T's uplink "
                 "(max-min fairness)";
    return c;
}

// DCQCN's allowed rate per flow over the run: the incast senders converge towards 1/N.
ChartFrame rateChart(const FabricComparisonModel& m, const Run& r, double t) {
    ChartFrame c;
    c.title = "DCQCN: each sender's allowed rate (RC)";
    const double endUs = r.frames.back().endS * 1e6;
    c.x = {"fabric time (µs)", false, 0, endUs};
    c.y = {"rate (Gb/s)", false, 0, m.gbps * 1.1};
    for (std::size_t f = 0; f < r.flows.size(); ++f) {
        const bool victim = static_cast<int>(f) == r.victim;
        ChartSeries s{victim ? "victim's RC" : (f == 0 ? "incast senders' RC" : ""),
                      {},
                      victim ? ChartSeries::Style::Line : ChartSeries::Style::Faint,
                      victim ? 6 : 0};
        for (const FabricStepStats& st : r.frames)
            s.points.push_back({st.endS * 1e6, st.flows[f].rateGbps});
        c.series.push_back(std::move(s));
    }
    ChartSeries victimGoodput{"victim goodput", {}, ChartSeries::Style::Dashed, 6};
    if (r.victim >= 0)
        for (const FabricStepStats& st : r.frames)
            victimGoodput.points.push_back(
                {st.endS * 1e6, st.flows[toIndex(r.victim)].goodputGbps});
    c.series.push_back(victimGoodput);
    const double share = m.gbps / m.senders;
    c.series.push_back(
        {"1/N of R's port", {{0, share}, {endUs, share}}, ChartSeries::Style::Dashed, 7});
    const FabricStepStats& now = r.frames[toIndex(frameIndex(r, t))];
    const double rc = now.flows.front().rateGbps;
    c.markers.push_back({{now.endS * 1e6, rc},
                         concat("H0 RC ", gbpsText(rc)),
                         concat("H0's allowed rate at ", formatSignificant(now.endS * 1e6, 4),
                                " µs: ", gbpsText(rc), "; 1/N = ", gbpsText(share)),
                         0,
                         false,
                         true});
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
    auto when = [](double s) { return concat(formatSignificant(s * 1e6, 3), " µs"); };
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
        rows.push_back({p,
                        {l.name, happened ? concat("paused at ", when(p)) : std::string("not yet"),
                         concat(l.to, "'s ingress for this port passed XOFF (",
                                formatBytes(r.config.xoffBytes), ")",
                                behindEdge ? "; with T's uplink paused, it is held most of the time"
                                           : ": T's uplink held"),
                         happened}});
    }
    if (hosts > 0)
        rows.push_back(
            {first < 0 ? 0.0 : first,
             {concat(std::to_string(hosts), " host ports of S"),
              paused == 0 ? std::string("not yet")
                          : concat(std::to_string(paused), " paused, ", when(first),
                                   first < last ? concat("–", when(last)) : std::string()),
              concat("S's ingress per port passed XOFF (", formatBytes(r.config.xoffBytes),
                     "): R's port drains 1/N of what arrives")}});
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
    c.x = {"packets lost at the receiving NIC (%)", false, 0, kMaxSweepDropRate * 100};
    c.y = {"goodput (Gb/s)", false, 0, m.gbps * 1.05};
    ChartSeries predicted{"go-back-N prediction", {}, ChartSeries::Style::Dashed, 7};
    for (int i = 0; i <= 50; ++i) {
        const double p = kMaxSweepDropRate * i / 50.0;
        predicted.points.push_back({p * 100, m.gbps * goBackNGoodputFraction(p, s.resentPerLoss)});
    }
    ChartSeries ib{"InfiniBand (simulated)", {}, ChartSeries::Style::Line, 2};
    ChartSeries roce{"RoCE (simulated)", {}, ChartSeries::Style::Line, 1};
    for (std::size_t i = 0; i < s.dropRates.size(); ++i) {
        ib.points.push_back({s.dropRates[i] * 100, s.ibGbps[i]});
        roce.points.push_back({s.dropRates[i] * 100, s.roceGbps[i]});
    }
    c.series = {predicted, ib, roce};
    const double expected = m.gbps * goBackNGoodputFraction(m.dropRate, s.resentPerLoss);
    c.markers.push_back({{m.dropRate * 100, s.chosenRoceGbps},
                         concat("RoCE ", gbpsText(s.chosenRoceGbps)),
                         concat("simulated at ", formatSignificant(m.dropRate * 100, 3),
                                " % loss: ", gbpsText(s.chosenRoceGbps), "; go-back-N predicts ",
                                gbpsText(expected)),
                         1,
                         false,
                         true});
    c.footnote = concat("each loss resends ", formatSignificant(s.resentPerLoss, 3),
                        " packets (one round trip + 1); ", kGoBackNSource);
    return c;
}

FactsFrame lossFacts(const FabricComparisonModel& m) {
    const Sweep& s = m.loss;
    const double fraction = goBackNGoodputFraction(m.dropRate, s.resentPerLoss);
    const double rtUs = (s.resentPerLoss - 1) * m.lossy.config.slotS() * 1e6;
    FactsFrame f;
    f.title = concat("What a loss of ", formatSignificant(m.dropRate * 100, 3), " % costs");
    f.rows = {
        {"Round trip (data + NAK)",
         concat(formatSignificant(s.resentPerLoss - 1, 3),
                " packet times = ", formatSignificant(rtUs, 3), " µs"),
         "3 hops of 0.5 µs each way, 4 KB packets at the link rate (model assumption)"},
        {"Resent per loss", concat(formatSignificant(s.resentPerLoss, 3), " packets"),
         kGoBackNSource},
        {"Predicted goodput",
         concat(gbpsText(m.gbps * fraction), " (", formatSignificant(100 * fraction, 3), " %)"),
         "1 / (1 + w·p/(1 − p)), w = packets resent per loss", true},
        {"Simulated, RoCE", gbpsText(s.chosenRoceGbps), "go-back-N RC transport, no congestion"},
        {"Simulated, InfiniBand", gbpsText(s.chosenIbGbps),
         "same transport: a loss costs IB the same; IB just never drops for congestion"},
        {"Lossy incast (no PFC)", gbpsText(m.lossy.summary.goodputGbps),
         concat("of ", gbpsText(m.gbps), ": ", std::to_string(m.lossy.summary.counters.dropped),
                " congestion drops at S, each costing a window (step 4)")},
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
        {"Choice", r.choice == FabricKind::InfiniBand ? "InfiniBand" : "RoCE (lossless Ethernet)",
         concat("score ", std::to_string(r.score),
                ": the weights below (> 0 → RoCE, ties → InfiniBand)"),
         true});
    f.rows.push_back({"Conditions", concat(std::to_string(c.gpus), " GPUs"),
                      concat("team runs lossless Ethernet: ", yesNo(c.teamRunsLosslessEthernet),
                             " · multi-tenant: ", yesNo(c.multiTenant),
                             " · vendor lock-in concern: ", yesNo(c.vendorLockInConcern),
                             " · budget-constrained: ", yesNo(c.budgetConstrained))});
    // One row per reason; the facts view wraps its sentence under the row's own separator.
    for (const FabricReason& x : r.reasons)
        f.rows.push_back({x.condition,
                          concat(x.weight > 0 ? "favours RoCE (+" : "favours IB (",
                                 std::to_string(x.weight), ")"),
                          x.text});
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
    f.title = concat("Measured on the ", std::to_string(e.senders), ":1 incast, ",
                     formatSignificant(e.durationS * 1e6, 4), " µs");
    f.rows = {
        {"InfiniBand",
         concat(gbpsText(e.ibGoodputGbps), ", ", std::to_string(e.ibDropped), " drops"),
         concat("victim ", gbpsText(e.ibVictimGbps), " of ", gbpsText(e.victimFairGbps),
                " (credits back-pressure T's uplink too)")},
        {"RoCE, PFC only", concat(std::to_string(e.pfcPauseFrames), " pause frames"),
         concat(std::to_string(e.pfcLinksPaused), " links paused, ",
                std::to_string(e.pfcPauseDepth), " hops upstream; victim ",
                gbpsText(e.pfcVictimGbps))},
        {"RoCE, PFC + DCQCN", concat(std::to_string(e.dcqcnPauseFrames), " pause frames"),
         concat("victim ", gbpsText(e.dcqcnVictimGbps), "; ", kDcqcnSource)},
        {"RoCE, lossy",
         concat(gbpsText(e.lossyGoodputGbps), ", ", std::to_string(e.lossyDropped), " drops"),
         concat(formatSignificant(100 * e.lossyGoodputLoss, 3), " % below IB; ",
                std::to_string(e.lossyRetransmitted), " packets resent by go-back-N")},
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
    story.provenance =
        concat("modeled on CPU: packet-level incast simulation, ", std::to_string(m->senders),
               " senders + a victim flow at ", gbpsText(m->gbps), ", ",
               formatSignificant(kFrames * kFabricFrameS * 1e6, 4), " µs per run, drop rate ",
               formatSignificant(m->dropRate, 3), ", seed ", std::to_string(m->seed));
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
