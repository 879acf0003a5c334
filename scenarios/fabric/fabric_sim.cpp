#include "fabric/fabric_sim.h"

#include "engine/sentence.h"
#include "engine/to_index.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

namespace {
constexpr std::size_t kLatencyRing = 1u << 16;
// Most packets a sender may have unacknowledged (assumption: an RC queue pair's limit).
constexpr std::int64_t kWindowPackets = 1 << 14;
} // namespace

std::string fabricEventName(FabricEventKind k) {
    switch (k) {
    case FabricEventKind::PauseSent:
        return "pause";
    case FabricEventKind::ResumeSent:
        return "resume";
    case FabricEventKind::EcnMark:
        return "ecn-mark";
    case FabricEventKind::Cnp:
        return "cnp";
    case FabricEventKind::Drop:
        return "drop";
    case FabricEventKind::Corrupted:
        return "corrupted";
    case FabricEventKind::Retransmit:
        return "retransmit";
    }
    return "?";
}

FabricSim::FabricSim(const FabricConfig& config)
    : m_config(config)
    , m_rng(config.seed) {
    validateFabricConfig(config);
    m_slotS = config.slotS();
    m_hopSlots = static_cast<int>(std::max(1LL, std::llround(config.hopDelayS / m_slotS)));
    m_mtu = config.mtuBytes;
    // DCQCN §4: RESUME "when the queue falls below t_PFC by two MTU". The headroom above
    // XOFF holds what arrives while the PAUSE travels (t_flight): one hop's wire each way
    // plus a packet being serialised at each end.
    m_xon = config.xoffBytes - 2 * m_mtu;
    m_headroom = (2.0 * m_hopSlots + 2.0) * m_mtu;
    m_rtoSlots = std::max(1LL, std::llround(config.rtoS / m_slotS));
    m_cnpSlots = std::llround(config.dcqcn.cnpIntervalS / m_slotS);

    auto node = [&](std::string name, bool isSwitch) {
        m_nodes.push_back(std::move(name));
        m_isSwitch.push_back(isSwitch);
        return static_cast<int>(m_nodes.size()) - 1;
    };
    auto link = [&](int from, int to) {
        Link l;
        l.from = from;
        l.to = to;
        l.delay = m_hopSlots;
        l.fromSwitch = m_isSwitch[toIndex(from)];
        l.toSwitch = m_isSwitch[toIndex(to)];
        // IB: credits for the downstream buffer, never fewer than a round trip's worth so
        // one flow alone reaches line rate (buffers are sized for the cable, as in IB gear).
        l.credits = std::max(static_cast<int>(config.creditBytes / m_mtu), 2 * m_hopSlots + 2);
        m_links.push_back(std::move(l));
        m_linkInfo.push_back({.name = fill("%1→%2", {m_nodes[toIndex(from)], m_nodes[toIndex(to)]}),
                              .from = m_nodes[toIndex(from)],
                              .to = m_nodes[toIndex(to)],
                              .fromSwitch = m_isSwitch[toIndex(from)]});
        return static_cast<int>(m_links.size()) - 1;
    };
    const int t = node("T", true);
    m_switchS = node("S", true);
    const int r = node("R", false);
    std::vector<int> hosts;
    for (int i = 0; i < config.senders; ++i)
        hosts.push_back(node(fill("H%1", {std::to_string(i)}), false));
    std::vector<int> firstLinks;
    for (int i = 0; i < config.senders; ++i)
        firstLinks.push_back(link(hosts[toIndex(i)], i == 0 ? t : m_switchS));
    const int uplink = link(t, m_switchS);
    const int toR = link(m_switchS, r);

    const DcqcnRate rate(config.dcqcn, config.linkGbps * 1e9, m_slotS);
    auto flow = [&](int src, int dst, std::vector<int> path, bool victim) {
        Flow f(rate);
        f.src = src;
        f.dst = dst;
        f.path = path;
        f.returnDelay = 0;
        for (int l : path)
            f.returnDelay += m_links[toIndex(l)].delay;
        m_links[toIndex(path.front())].hostFlow = static_cast<int>(m_flows.size());
        m_flows.push_back(std::move(f));
        m_flowInfo.push_back({.name = fill("%1→%2", {m_nodes[toIndex(src)], m_nodes[toIndex(dst)]}),
                              .victim = victim,
                              .path = std::move(path)});
    };
    for (int i = 0; i < config.senders; ++i) {
        std::vector<int> path{firstLinks[toIndex(i)]};
        if (i == 0)
            path.push_back(uplink);
        path.push_back(toR);
        flow(hosts[toIndex(i)], r, path, false);
    }
    if (config.victim) {
        const int vs = node("VS", false);
        const int vr = node("VR", false);
        const int vsLink = link(vs, t);
        const int toVr = link(m_switchS, vr);
        m_victimFlow = static_cast<int>(m_flows.size());
        flow(vs, vr, {vsLink, uplink, toVr}, true);
    }
    int longest = 0;
    for (const Flow& f : m_flows)
        longest = std::max(longest, f.returnDelay);
    m_calendar.resize(toIndex(longest + m_hopSlots + 2));
    m_latencies.reserve(kLatencyRing);
}

int FabricSim::roundTripSlots(int flow) const {
    return 2 * m_flows.at(toIndex(flow)).returnDelay;
}

void FabricSim::schedule(int delay, Ctrl c) {
    m_calendar[static_cast<std::size_t>(m_slot + delay) % m_calendar.size()].push_back(c);
}

void FabricSim::event(FabricEventKind k, int link, int flow, long long packets) {
    if (m_step.events.size() >= kMaxEventsPerStep) {
        ++m_step.eventsLeftOut;
        return;
    }
    m_step.events.push_back({timeS(), k, link, flow, packets});
}

const FabricStepStats& FabricSim::step(double dtS) {
    if (!std::isfinite(dtS) || dtS < 0)
        throw std::invalid_argument("fabric model: step must be a finite time >= 0");
    if (dtS / m_slotS > 1e9) // hours of CPU: a caller's unit mistake, not a request
        throw std::invalid_argument("fabric model: step longer than 1e9 packet times");
    for (Link& l : m_links)
        l.sentInStep = l.blockedInStep = 0;
    for (Flow& f : m_flows)
        f.deliveredInStep = 0;
    m_step.events.clear();
    m_step.eventsLeftOut = 0;
    m_step.startS = timeS();
    const std::int64_t first = m_slot;
    m_targetS += dtS;
    const auto last = static_cast<std::int64_t>(std::floor(m_targetS / m_slotS + 1e-9));
    while (m_slot < last)
        tick();
    const double slots = static_cast<double>(m_slot - first);
    const bool ib = m_config.kind == FabricKind::InfiniBand;
    m_step.endS = timeS();
    m_step.links.resize(m_links.size());
    for (std::size_t i = 0; i < m_links.size(); ++i) {
        const Link& l = m_links[i];
        FabricLinkState& s = m_step.links[i];
        s.queueBytes = static_cast<double>(l.egress.size()) * m_mtu;
        s.ingressBytes = l.ingressBytes;
        s.utilisation = slots > 0 ? static_cast<double>(l.sentInStep) / slots : 0.0;
        s.pausedFraction = slots > 0 ? static_cast<double>(l.blockedInStep) / slots : 0.0;
        s.paused = ib ? l.credits <= 0 : l.paused;
        s.credits = ib ? l.credits : 0;
    }
    m_step.flows.resize(m_flows.size());
    const bool dcqcn = !ib && m_config.ecn;
    for (std::size_t i = 0; i < m_flows.size(); ++i) {
        const Flow& f = m_flows[i];
        m_step.flows[i].rateGbps = dcqcn ? f.rate.rateBps() / 1e9 : m_config.linkGbps;
        m_step.flows[i].goodputGbps = slots > 0 ? static_cast<double>(f.deliveredInStep) * m_mtu *
                                                      8.0 / (slots * m_slotS) / 1e9
                                                : 0.0;
    }
    m_counters.inNetwork = countInNetwork();
    m_step.counters = m_counters;
    return m_step;
}

// Walks the queues and wires: an independent count for the conservation identity.
long long FabricSim::countInNetwork() const {
    std::size_t n = 0;
    for (const Link& l : m_links)
        n += l.egress.size() + l.wire.size();
    return static_cast<long long>(n);
}

void FabricSim::tick() {
    std::vector<Ctrl>& due = m_calendar[static_cast<std::size_t>(m_slot) % m_calendar.size()];
    for (const Ctrl& c : due)
        applyControl(c);
    due.clear();
    // Arrivals compete for buffer space: the link served first rotates every slot, so no
    // port wins every tie (a fixed order would starve all but one incast sender).
    const std::size_t n = m_links.size();
    const auto start = static_cast<std::size_t>(m_slot) % n;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = (start + k) % n;
        Link& l = m_links[i];
        while (!l.wire.empty() && l.wire.front().arrival <= m_slot) {
            const Packet p = l.wire.front().packet;
            l.wire.pop_front();
            arrive(static_cast<int>(i), p);
        }
    }
    for (std::size_t i = 0; i < m_links.size(); ++i)
        transmit(static_cast<int>(i));
    for (std::size_t i = 0; i < m_flows.size(); ++i) {
        Flow& f = m_flows[i];
        f.rate.onTick(m_slot);
        if (f.highestSent > f.acked && m_slot - f.lastProgress > m_rtoSlots)
            rewind(f, static_cast<int>(i), f.acked, true);
    }
    ++m_slot;
}

void FabricSim::applyControl(const Ctrl& c) {
    switch (c.kind) {
    case CtrlKind::Ack:
        acknowledge(m_flows[toIndex(c.target)], c.value);
        break;
    case CtrlKind::Nak: {
        Flow& f = m_flows[toIndex(c.target)];
        acknowledge(f, c.value); // everything before the gap arrived
        // Rewind only if nothing was resent since the packet that showed the gap was sent.
        if (c.epoch == f.epoch && c.value < f.nextPsn)
            rewind(f, c.target, c.value, false);
        break;
    }
    case CtrlKind::Cnp:
        m_flows[toIndex(c.target)].rate.onCnp(m_slot);
        break;
    case CtrlKind::Pause:
        m_links[toIndex(c.target)].paused = true;
        m_links[toIndex(c.target)].everPaused = true;
        break;
    case CtrlKind::Resume:
        m_links[toIndex(c.target)].paused = false;
        break;
    case CtrlKind::Credit:
        ++m_links[toIndex(c.target)].credits;
        break;
    }
}

void FabricSim::acknowledge(Flow& f, std::int64_t psn) {
    if (psn <= f.acked)
        return;
    const auto n = static_cast<std::size_t>(psn - f.acked);
    f.firstSent.erase(f.firstSent.begin(),
                      f.firstSent.begin() +
                          static_cast<std::ptrdiff_t>(std::min(n, f.firstSent.size())));
    f.acked = psn;
    f.nextPsn = std::max(f.nextPsn, psn);
    f.lastProgress = m_slot;
}

void FabricSim::rewind(Flow& f, int flowIndex, std::int64_t psn, bool timeout) {
    const long long resend = f.highestSent - psn;
    f.nextPsn = psn;
    ++f.epoch;
    f.lastProgress = m_slot;
    ++(timeout ? m_counters.timeouts : m_counters.rewinds);
    event(FabricEventKind::Retransmit, -1, flowIndex, resend);
}

void FabricSim::arrive(int linkIndex, Packet p) {
    Link& l = m_links[toIndex(linkIndex)];
    const bool ib = m_config.kind == FabricKind::InfiniBand;
    if (!l.toSwitch) {
        if (ib) // the receiving NIC consumes at line rate: the buffer slot frees at once
            schedule(l.delay, {CtrlKind::Credit, linkIndex, 0, 0});
        receive(m_flows[toIndex(p.flow)], p.flow, p);
        return;
    }
    Flow& f = m_flows[toIndex(p.flow)];
    ++p.hop;
    const int next = f.path[toIndex(p.hop)];
    Link& out = m_links[toIndex(next)];
    const double queue = static_cast<double>(out.egress.size()) * m_mtu;
    if (!ib) {
        const bool full = m_config.pfc ? l.ingressBytes + m_mtu > m_config.xoffBytes + m_headroom
                                       : queue + m_mtu > m_config.egressCapBytes;
        if (full) {
            ++m_counters.dropped;
            event(FabricEventKind::Drop, next, p.flow);
            return;
        }
        const DcqcnParams& d = m_config.dcqcn;
        if (m_config.ecn && queue > d.kminBytes) { // RED-ECN, DCQCN Figure 5 / equation (5)
            const double mark = queue > d.kmaxBytes
                                    ? 1.0
                                    : (queue - d.kminBytes) / (d.kmaxBytes - d.kminBytes) * d.pmax;
            if (m_rng.uniform() < mark) {
                p.ecn = true;
                ++m_counters.ecnMarks;
                event(FabricEventKind::EcnMark, next, p.flow);
            }
        }
    }
    p.ingress = linkIndex;
    l.ingressBytes += m_mtu;
    out.egress.push_back(p);
    if (!ib && m_config.pfc && !l.pauseSent && l.ingressBytes >= m_config.xoffBytes) {
        l.pauseSent = true;
        ++m_counters.pauseFrames;
        schedule(l.delay, {CtrlKind::Pause, linkIndex, 0, 0});
        event(FabricEventKind::PauseSent, linkIndex, -1);
    }
}

void FabricSim::receive(Flow& f, int flowIndex, const Packet& p) {
    if (m_config.dropRate > 0 && m_rng.uniform() < m_config.dropRate) {
        ++m_counters.corrupted;
        event(FabricEventKind::Corrupted, f.path.back(), flowIndex);
        return;
    }
    if (p.ecn && m_config.ecn && (f.lastCnp < 0 || m_slot - f.lastCnp >= m_cnpSlots)) {
        f.lastCnp = m_slot; // DCQCN NP: at most one CNP per flow per N µs (Figure 6)
        ++m_counters.cnps;
        schedule(f.returnDelay, {CtrlKind::Cnp, flowIndex, 0, 0});
        event(FabricEventKind::Cnp, -1, flowIndex);
    }
    if (p.psn == f.expected) {
        ++f.expected;
        ++f.delivered;
        ++f.deliveredInStep;
        ++m_counters.delivered;
        const auto latency = static_cast<std::int32_t>(m_slot - p.firstSent);
        if (m_latencies.size() < kLatencyRing)
            m_latencies.push_back(latency);
        else
            m_latencies[m_latencyNext] = latency;
        m_latencyNext = (m_latencyNext + 1) % kLatencyRing;
        ++m_latencyCount;
        schedule(f.returnDelay, {CtrlKind::Ack, flowIndex, f.expected, 0});
        return;
    }
    ++m_counters.discarded;
    if (p.psn > f.expected) {
        // Go-back-N: discard everything after the gap, NAK once per sender epoch.
        if (p.epoch >= f.nakEpoch) {
            f.nakEpoch = p.epoch + 1;
            schedule(f.returnDelay, {CtrlKind::Nak, flowIndex, f.expected, p.epoch});
        }
    } else {
        schedule(f.returnDelay, {CtrlKind::Ack, flowIndex, f.expected, 0}); // a duplicate
    }
}

void FabricSim::transmit(int linkIndex) {
    Link& l = m_links[toIndex(linkIndex)];
    if (!l.fromSwitch) {
        sendFromHost(l);
        return;
    }
    if (l.egress.empty())
        return;
    const bool ib = m_config.kind == FabricKind::InfiniBand;
    if (ib ? l.credits <= 0 : l.paused) {
        ++l.blockedInStep;
        l.everPaused = true;
        return;
    }
    const Packet p = l.egress.front();
    l.egress.pop_front();
    Link& in = m_links[toIndex(p.ingress)];
    in.ingressBytes -= m_mtu;
    if (ib) {
        --l.credits;
        schedule(in.delay, {CtrlKind::Credit, p.ingress, 0, 0});
    } else if (m_config.pfc && in.pauseSent && in.ingressBytes <= m_xon) {
        in.pauseSent = false;
        ++m_counters.resumeFrames;
        schedule(in.delay, {CtrlKind::Resume, p.ingress, 0, 0});
        event(FabricEventKind::ResumeSent, p.ingress, -1);
    }
    l.wire.push_back({m_slot + l.delay, p});
    ++l.sentInStep;
}

void FabricSim::sendFromHost(Link& l) {
    if (l.hostFlow < 0)
        return;
    const bool ib = m_config.kind == FabricKind::InfiniBand;
    if (ib ? l.credits <= 0 : l.paused) { // greedy senders always have data
        ++l.blockedInStep;
        l.everPaused = true;
        return;
    }
    Flow& f = m_flows[toIndex(l.hostFlow)];
    const double line = m_config.linkGbps * 1e9;
    const bool dcqcn = !ib && m_config.ecn;
    // Rate limiter: one packet's worth of tokens at most, so the NIC never bursts above RC.
    // Filled for the slots since the last look (a paused link is not looked at: speed).
    const auto elapsed = static_cast<double>(m_slot - f.tokenSlot);
    f.tokenSlot = m_slot;
    f.tokens = std::min(1.0, f.tokens + elapsed * (dcqcn ? f.rate.rateBps() / line : 1.0));
    if (f.tokens < 1.0 - 1e-12 || f.nextPsn - f.acked >= kWindowPackets)
        return;
    Packet p;
    p.flow = l.hostFlow;
    p.psn = f.nextPsn;
    p.epoch = f.epoch;
    if (f.nextPsn < f.highestSent) {
        ++m_counters.retransmitted;
        p.firstSent = f.firstSent[static_cast<std::size_t>(f.nextPsn - f.acked)];
    } else {
        if (f.highestSent == f.acked)
            f.lastProgress = m_slot; // nothing was outstanding: the timeout starts now
        p.firstSent = m_slot;
        f.firstSent.push_back(m_slot);
        ++f.highestSent;
    }
    ++f.nextPsn;
    f.tokens -= 1.0;
    ++m_counters.sent;
    f.rate.onSent(m_mtu);
    if (ib)
        --l.credits;
    l.wire.push_back({m_slot + l.delay, p});
    ++l.sentInStep;
}

int FabricSim::pauseDepthOf(int linkIndex) const {
    int node = m_links[toIndex(linkIndex)].to;
    if (!m_isSwitch[toIndex(node)])
        return 0;
    int depth = 1;
    while (node != m_switchS && depth < 16) {
        for (const Link& l : m_links)
            if (l.from == node && l.toSwitch) {
                node = l.to;
                break;
            }
        ++depth;
    }
    return depth;
}

FabricSummary FabricSim::summary() const {
    FabricSummary s;
    s.durationS = timeS();
    s.receiverLinkGbps = m_config.linkGbps;
    long long incast = 0, victim = 0;
    for (std::size_t i = 0; i < m_flows.size(); ++i)
        (static_cast<int>(i) == m_victimFlow ? victim : incast) += m_flows[i].delivered;
    if (s.durationS > 0) {
        s.goodputGbps = static_cast<double>(incast) * m_mtu * 8.0 / s.durationS / 1e9;
        s.victimGbps = static_cast<double>(victim) * m_mtu * 8.0 / s.durationS / 1e9;
    }
    if (!m_latencies.empty()) {
        std::vector<std::int32_t> v = m_latencies;
        auto quantile = [&](double q) {
            const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
            return static_cast<double>(v[k]) * m_slotS * 1e6;
        };
        s.p99LatencyUs = quantile(0.99);
        s.p50LatencyUs = quantile(0.50);
    }
    for (std::size_t i = 0; i < m_links.size(); ++i)
        if (m_links[i].everPaused) {
            ++s.linksPaused;
            s.pauseDepth = std::max(s.pauseDepth, pauseDepthOf(static_cast<int>(i)));
        }
    s.counters = m_counters;
    s.counters.inNetwork = countInNetwork();
    return s;
}

FabricSummary FabricSim::run(double durationS) {
    step(durationS);
    return summary();
}

} // namespace wb
