#pragma once
// One moment of an incast on a packet fabric (roce-vs-infiniband): hosts, switches and the links
// between them, each link with its transmitter's egress queue, the receiver's ingress buffer, how
// busy it was, whether flow control holds it (a PFC pause on RoCE, no credits on InfiniBand) and
// what just happened on it; each flow with its allowed rate and its goodput. The scenario fills it
// from the fabric simulation; the view draws exactly this.
#include <string>
#include <vector>

namespace wb {

// Where a node sits in the drawing: senders on the left, the small switch (T) in front of the
// main switch (S), receivers on the right. Victim hosts share T's uplink with a sender.
enum class FabricNodeRole {
    Sender,
    VictimSender,
    EdgeSwitch,
    CoreSwitch,
    Receiver,
    VictimReceiver
};

struct FabricFrameNode {
    std::string label; // "H3", "T", "S", "R", "VS", "VR"
    FabricNodeRole role = FabricNodeRole::Sender;
    std::string tip;
    bool operator==(const FabricFrameNode&) const = default;
};

// What holds a link's transmitter: nothing, a PFC pause from downstream (RoCE), or no credit
// for the downstream buffer (InfiniBand). Drawn differently: the pause is the one that spreads.
enum class FabricStall { None, Paused, NoCredit };

struct FabricFrameLink {
    int from = 0; // node indices
    int to = 0;
    double utilisation = 0;     // 0…1 of the frame's packet times
    double queueBytes = 0;      // egress queue at the transmitter (switches only)
    double queueCapBytes = 0;   // the bar's full scale; 0 = no queue drawn (a host's NIC)
    double ingressBytes = 0;    // held by the receiving switch for this link
    double ingressCapBytes = 0; // PFC XOFF or the IB credit buffer; 0 = not drawn
    FabricStall stall = FabricStall::None;
    double stalledFraction = 0; // 0…1 of the frame the transmitter had data but was held
    // Recent events on this link, in packets or frames (0 = none): drawn as flashing badges.
    long long pauses = 0;
    long long ecnMarks = 0;
    long long cnps = 0;
    long long drops = 0;
    long long resent = 0; // packets a go-back-N rewind will resend
    std::string tip;
    bool operator==(const FabricFrameLink&) const = default;
};

struct FabricFrameFlow {
    std::string label; // "H3→R"
    int sender = 0;    // node index of its source
    bool victim = false;
    double rateGbps = 0;    // the NIC's allowed rate (DCQCN's RC, else line rate)
    double goodputGbps = 0; // delivered in order
    std::string tip;
    bool operator==(const FabricFrameFlow&) const = default;
};

struct FabricFrame {
    std::string title;
    std::vector<FabricFrameNode> nodes;
    std::vector<FabricFrameLink> links;
    std::vector<FabricFrameFlow> flows;
    double linkGbps = 0;  // full scale of the flow bars
    std::string counters; // one line: pause frames, drops, marks, CNPs, resent
    std::string caption;  // source and model line
    bool operator==(const FabricFrame&) const = default;
};

} // namespace wb
