#pragma once
// A training cluster drawn as the fabric model sees it: nodes of GPUs on an NVSwitch, one NIC
// per GPU up to a leaf switch, leaves up to the spine. Link colour is the fraction of the
// step a link is busy; traffic moves as packets whose rate follows the model (the scenario
// sets it from bytes per second), so a TP group pushed across nodes visibly floods the NICs.
#include <string>
#include <vector>

namespace wb {

struct TopologyGpu {
    std::string label;     // "0" … "7" inside its node, or the global rank
    int highlight = -1;    // colour index (the frame's flowClasses) of its group, -1 = none
    double nvlinkUtil = 0; // 0…1: share of the step its NVLink port is busy
    double nicUtil = 0;    // 0…1: share of the step its NIC is busy
    std::string tip;
    bool operator==(const TopologyGpu&) const = default;
};

struct TopologyNode {
    std::string label; // "node 3"
    int leaf = 0;      // index into the frame's leaves
    std::vector<TopologyGpu> gpus;
    std::string tip;
    bool operator==(const TopologyNode&) const = default;
};

struct TopologyLeaf {
    std::string label;     // "leaf 0"
    double uplinkUtil = 0; // 0…1: its uplinks to the spine
    std::string tip;
    bool operator==(const TopologyLeaf&) const = default;
};

// Packets from one GPU to another; the view routes them GPU → NVSwitch → GPU inside a node,
// GPU → NIC → leaf (→ spine → leaf) → NIC → GPU between nodes.
struct TopologyFlow {
    int fromNode = 0, fromGpu = 0; // indices into nodes / that node's gpus
    int toNode = 0, toGpu = 0;
    int colorIndex = 0;     // the frame's flowClasses
    double packetsPerS = 1; // packets leaving per second of animation (0 = none moving)
    std::string tip;
    bool operator==(const TopologyFlow&) const = default;
};

struct TopologyFrame {
    std::string title;
    std::vector<TopologyNode> nodes; // drawn left to right, grouped by leaf
    std::vector<TopologyLeaf> leaves;
    int spines = 1;
    int hiddenNodes = 0;                  // nodes of the cluster not drawn ("+ 120 nodes")
    std::vector<std::string> flowClasses; // legend: colour index → "TP", "PP", "DP", ...
    std::vector<TopologyFlow> flows;
    double phaseS = 0.0; // animation clock: a packet's position is phase × rate along its path
    std::string caption;
    bool operator==(const TopologyFrame&) const = default;
};

} // namespace wb
