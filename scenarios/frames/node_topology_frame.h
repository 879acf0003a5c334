#pragma once
// Inside a server: GPUs, NICs, PCIe switches, CPUs with their memory, the NVSwitch, and the
// network beyond, as boxes on a diagram grid; the wires between them; and routes drawn over
// them (an NCCL ring channel, a tree, the path an RDMA transfer takes) with packets moving
// along each route and numbered marks where a copy is made. The scenario places every box
// (diagram units, the view scales them to fit), so the picture follows the model's topology
// and the view stays generic.
#include <string>
#include <vector>

namespace wb {

enum class NodePartKind { Gpu, Nic, PcieSwitch, Cpu, HostMemory, NvSwitch, Network };

struct NodePart {
    NodePartKind kind = NodePartKind::Gpu;
    std::string label; // "GPU 3", "NIC 3", "PCIe sw 1", "CPU 0", "DRAM 0", "NVSwitch", "network"
    double x = 0, y = 0, w = 1, h = 1; // diagram units
    bool emphasis = false;             // drawn outlined in the accent colour
    std::string tip;
    bool operator==(const NodePart&) const = default;
};

enum class NodeLinkKind { NvLink, Pcie, CpuLink, MemoryBus, Network };

struct NodeLink {
    int a = 0, b = 0; // parts
    NodeLinkKind kind = NodeLinkKind::Pcie;
    std::string tip; // "PCIe Gen5 x16: 63 GB/s per direction (derived from 32 GT/s × 16 lanes)"
    bool operator==(const NodeLink&) const = default;
};

// A numbered marker on a route: where data is written into a memory (a copy) or read by DMA.
struct NodeRouteMark {
    int hop = 0;       // index into the route's parts
    std::string label; // "1"
    std::string tip;
    bool operator==(const NodeRouteMark&) const = default;
};

// Data moving through parts in order. Through a bus part (NVSwitch, network) the route runs
// along the bus from below/above one end point to the next, so a ring over the NVSwitch reads
// as GPU → switch → GPU rather than as a star.
struct NodeRoute {
    std::vector<int> parts;
    int colorIndex = 0;     // the frame's routeClasses
    bool dashed = false;    // trees, or a path shown for comparison
    double packetsPerS = 0; // packets leaving per second of animation; 0 = a still route
    std::vector<NodeRouteMark> marks;
    std::string tip;
    bool operator==(const NodeRoute&) const = default;
};

// A server's outline around its parts.
struct NodeHost {
    std::string label; // "node 0 · dgx-a"
    double x = 0, y = 0, w = 1, h = 1;
    std::string tip;
    bool operator==(const NodeHost&) const = default;
};

struct NodeTopologyFrame {
    std::string title;
    std::vector<NodeHost> hosts;
    std::vector<NodePart> parts;
    std::vector<NodeLink> links;
    std::vector<NodeRoute> routes;
    std::vector<std::string> routeClasses; // legend: colour index → "ring 0", "GPUDirect", ...
    double phaseS = 0.0;                   // animation clock for the packets
    std::string caption;
    bool operator==(const NodeTopologyFrame&) const = default;
};

} // namespace wb
