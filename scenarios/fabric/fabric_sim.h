#pragma once
// A packet-level, slotted simulation of one incast on InfiniBand or RoCEv2 (roce-vs-infiniband).
//
// Topology: senders H0…H(N-1) send to receiver R. H0 and the victim sender VS hang off a
// small switch T whose single uplink reaches the main switch S; H1…H(N-1), R and the victim
// receiver VR are on S. The victim VS → VR never touches R's port, yet shares T's uplink
// with H0: when S pauses (PFC) or starves of credits (IB) that uplink because of the incast,
// the victim stalls too — head-of-line blocking, the "victim flow" of DCQCN §2.2.
//
// One slot is one MTU's serialisation time on a link: every link moves at most one packet
// per slot, every hop adds `hopDelayS`. Control packets (ACK, NAK, CNP, PAUSE, RESUME,
// credits) ride a separate class that never queues (assumption), delayed by the hops they
// cross. Mechanisms (FACTS.md §14):
//  - IB: hop-by-hop credits; a transmitter with no credit for the next buffer waits, so
//    nothing is ever dropped for congestion (DCQCN §1: "credit-based flow control").
//  - RoCE: switch egress FIFOs; without PFC an arrival at a full egress is dropped; with PFC
//    an ingress holding more than XOFF pauses its upstream transmitter and resumes it two
//    MTU below (DCQCN §4); ECN marks by RED at egress (Kmin, Kmax, Pmax); the receiver sends
//    at most one CNP per flow per 50 µs; senders run DCQCN (DcqcnRate).
//  - Both: the RC transport is go-back-N: the receiver discards packets after a gap and sends
//    one NAK; the sender rewinds and resends everything from the lost packet (Guo et al.
//    SIGCOMM '16, as cited in FACTS.md §14); a timeout rewinds to the last ACK.
// Randomness (ECN marking, injected loss) comes from SeededRandom's uniform, so a seed gives
// the same run with any standard library.
#include "engine/seeded_random.h"
#include "fabric/dcqcn_rate.h"
#include "fabric/fabric_config.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace wb {

// Fabric time one animation frame (1/60 s) shows at normal speed: about 244 packet times at
// 400 Gb/s, enough to watch a queue fill and a pause travel one hop per frame or two.
inline constexpr double kFabricFrameS = 20e-6;

enum class FabricEventKind { PauseSent, ResumeSent, EcnMark, Cnp, Drop, Corrupted, Retransmit };

std::string fabricEventName(FabricEventKind k);

struct FabricEvent {
    double timeS = 0;
    FabricEventKind kind = FabricEventKind::Drop;
    int link = -1; // the link paused/resumed, or the link whose egress marked/dropped
    int flow = -1;
    long long packets = 1; // Retransmit: packets the rewind will resend
    bool operator==(const FabricEvent&) const = default;
};

// Running totals since the start, in packets. Conservation, at every slot boundary:
// sent == delivered + discarded + dropped + corrupted + inNetwork.
struct FabricCounters {
    long long sent = 0;          // packets senders put on their first link, resends included
    long long delivered = 0;     // accepted in order by a receiver (goodput)
    long long discarded = 0;     // reached the receiver out of order or twice: go-back-N drops
    long long dropped = 0;       // congestion drops at a full switch buffer
    long long corrupted = 0;     // injected loss (--drop-rate) at the receiving NIC
    long long inNetwork = 0;     // queued in switches or on a wire
    long long retransmitted = 0; // sends of a sequence number already sent once
    long long rewinds = 0;       // go-back-N rewinds after a NAK
    long long timeouts = 0;      // rewinds after a retransmission timeout
    long long pauseFrames = 0;   // PFC XOFF frames sent
    long long resumeFrames = 0;  // PFC XON frames sent
    long long ecnMarks = 0;
    long long cnps = 0;
    bool operator==(const FabricCounters&) const = default;
};

struct FabricLinkInfo {
    std::string name; // "H0→T", "T→S", "S→R", ...
    std::string from;
    std::string to;
    bool fromSwitch = false;
};

struct FabricFlowInfo {
    std::string name; // "H3→R", "VS→VR"
    bool victim = false;
    std::vector<int> path; // link indices
};

// What one step() saw: the view's frame. Per-link and per-flow vectors follow links() and
// flows() order.
struct FabricLinkState {
    double queueBytes = 0;     // at the link's transmitter (switch egress queue), end of step
    double ingressBytes = 0;   // held downstream for this link (PFC accounting / IB buffer)
    double utilisation = 0;    // packets sent ÷ slots in the step
    double pausedFraction = 0; // slots the transmitter had a packet but was paused / starved
    bool paused = false;       // PFC pause in force (RoCE) or no credit (IB), end of step
    int credits = 0;           // IB only
    bool operator==(const FabricLinkState&) const = default;
};

struct FabricFlowState {
    double rateGbps = 0;    // the NIC's allowed rate (DCQCN's RC; line rate otherwise)
    double goodputGbps = 0; // delivered in order during the step
    bool operator==(const FabricFlowState&) const = default;
};

struct FabricStepStats {
    double startS = 0;
    double endS = 0;
    std::vector<FabricLinkState> links;
    std::vector<FabricFlowState> flows;
    std::vector<FabricEvent> events;
    long long eventsLeftOut = 0; // beyond kMaxEventsPerStep
    FabricCounters counters;     // totals at the end of the step
    bool operator==(const FabricStepStats&) const = default;
};

struct FabricSummary {
    double durationS = 0;
    double goodputGbps = 0;      // incast flows' in-order bytes at R ÷ duration
    double victimGbps = 0;       // the victim's in-order bytes at VR ÷ duration
    double receiverLinkGbps = 0; // R's link rate: the incast's ceiling
    double p99LatencyUs = 0;     // first send of a packet → in-order delivery (resends count)
    double p50LatencyUs = 0;
    int linksPaused = 0; // distinct links that were ever paused / credit-starved
    int pauseDepth = 0;  // most hops upstream of R's port a pause reached
    FabricCounters counters;
};

class FabricSim {
public:
    static constexpr std::size_t kMaxEventsPerStep = 4096;

    explicit FabricSim(const FabricConfig& config); // throws std::invalid_argument

    const FabricConfig& config() const { return m_config; }
    const std::vector<FabricLinkInfo>& links() const { return m_linkInfo; }
    const std::vector<FabricFlowInfo>& flows() const { return m_flowInfo; }
    int victimFlow() const { return m_victimFlow; } // -1 without a victim
    double slotS() const { return m_slotS; }
    int hopDelaySlots() const { return m_hopSlots; }
    // Slots from sending a packet to the sender hearing of it (ACK/NAK), for flow f.
    int roundTripSlots(int flow) const;
    double timeS() const { return static_cast<double>(m_slot) * m_slotS; }

    // Advances by dtS of fabric time (whole slots) and returns what happened in it.
    const FabricStepStats& step(double dtS);
    // Advances by durationS and summarises the whole run so far.
    FabricSummary run(double durationS);
    FabricSummary summary() const;
    const FabricCounters& counters() const { return m_counters; }

private:
    struct Packet {
        std::int32_t flow = 0;
        std::int32_t hop = 0;
        std::int32_t ingress = -1;
        std::int32_t epoch = 0; // the sender's rewind count when it sent this packet
        bool ecn = false;
        std::int64_t psn = 0;
        std::int64_t firstSent = 0;
    };
    struct InFlight {
        std::int64_t arrival = 0;
        Packet packet;
    };
    struct Link {
        int from = 0, to = 0; // node indices
        int delay = 1;        // slots
        int hostFlow = -1;    // the flow a host link carries
        bool fromSwitch = false, toSwitch = false;
        std::deque<Packet> egress; // at a switch transmitter
        std::deque<InFlight> wire;
        double ingressBytes = 0; // held by the downstream switch, arrived on this link
        bool pauseSent = false;  // downstream has sent XOFF (RoCE) …
        bool paused = false;     // … and it has reached the transmitter
        int credits = 0;         // IB
        bool everPaused = false;
        long long sentInStep = 0, blockedInStep = 0;
    };
    struct Flow {
        explicit Flow(DcqcnRate r)
            : rate(r) {}
        int src = 0, dst = 0;
        std::vector<int> path;
        int returnDelay = 1;
        DcqcnRate rate;
        double tokens = 0;
        std::int64_t tokenSlot = -1; // the slot tokens were last topped up
        std::int64_t nextPsn = 0, highestSent = 0, acked = 0;
        std::deque<std::int64_t> firstSent; // for psn in [acked, highestSent)
        std::int64_t lastProgress = 0;
        std::int32_t epoch = 0; // rewinds so far: a NAK about an older epoch is stale
        // Receiver side.
        std::int64_t expected = 0;
        std::int32_t nakEpoch = 0; // one NAK per sender epoch
        std::int64_t lastCnp = -1;
        long long delivered = 0, deliveredInStep = 0;
    };
    enum class CtrlKind { Ack, Nak, Cnp, Pause, Resume, Credit };
    struct Ctrl {
        CtrlKind kind = CtrlKind::Ack;
        int target = 0; // flow or link
        std::int64_t value = 0;
        std::int32_t epoch = 0; // Nak: the epoch of the packet that revealed the gap
    };

    void tick();
    void schedule(int delay, Ctrl c);
    void applyControl(const Ctrl& c);
    void arrive(int link, Packet p);
    void receive(Flow& f, int flowIndex, const Packet& p);
    void transmit(int link);
    void sendFromHost(Link& l);
    void acknowledge(Flow& f, std::int64_t psn);
    void rewind(Flow& f, int flowIndex, std::int64_t psn, bool timeout);
    long long countInNetwork() const;
    void event(FabricEventKind k, int link, int flow, long long packets = 1);
    int pauseDepthOf(int link) const;

    FabricConfig m_config;
    double m_slotS = 0;
    int m_hopSlots = 1;
    double m_mtu = 0;
    double m_xon = 0, m_headroom = 0;
    std::int64_t m_rtoSlots = 0, m_cnpSlots = 0;
    std::int64_t m_window = 0;
    std::vector<std::string> m_nodes;
    std::vector<bool> m_isSwitch;
    std::vector<Link> m_links;
    std::vector<Flow> m_flows;
    std::vector<FabricLinkInfo> m_linkInfo;
    std::vector<FabricFlowInfo> m_flowInfo;
    int m_victimFlow = -1;
    std::vector<std::vector<Ctrl>> m_calendar; // slot % size → control packets due
    std::int64_t m_slot = 0;
    double m_targetS = 0;
    int m_switchS = 0;
    SeededRandom m_rng;
    FabricCounters m_counters;
    FabricStepStats m_step;
    std::vector<std::int32_t> m_latencies; // ring of the last kLatencyRing delivery latencies
    std::size_t m_latencyNext = 0;
    long long m_latencyCount = 0;
};

} // namespace wb
