#pragma once
// An HGX/DGX-style 8-GPU server as a diagram (nccl-topology): two CPU sockets with their DRAM, four
// PCIe switches each holding two GPUs and two 400 Gb/s NICs, all GPUs on one NVSwitch fabric, every
// NIC up to the network. Several servers sit side by side under one network bar. The class
// places the parts on the diagram grid, names the links with their bandwidth from the hardware
// catalogue, and answers "which part is GPU g of host h" so routes can be built from indices.
#include "catalogue/hardware_catalogue.h"
#include "frames/node_topology_frame.h"

#include <string>
#include <vector>

namespace wb {

// Per-direction bandwidths of one server's link classes, decimal GB/s, from the catalogue.
struct NodeBandwidths {
    double nvlinkGBs = 0; // per GPU, per direction: half the bidirectional figure
    double pcieGBs = 0;   // one x16 link, per direction
    double nicGBs = 0;    // one NIC: Gb/s ÷ 8
};
NodeBandwidths nodeBandwidths(const GpuSpec& gpu);

class NodeDiagram {
public:
    static constexpr int kGpusPerHost = 8;
    static constexpr int kGpusPerSwitch = 2; // and as many NICs: one NIC per GPU
    static constexpr int kSwitchesPerHost = kGpusPerHost / kGpusPerSwitch;
    static constexpr int kSockets = 2;

    // hosts ∈ [1, 8]; hostLabels (optional) name them ("node 0 · dgx-a"). Throws
    // std::invalid_argument otherwise.
    NodeDiagram(int hosts, const GpuSpec& gpu, std::vector<std::string> hostLabels = {});

    int hosts() const { return m_hosts; }
    const NodeBandwidths& bandwidths() const { return m_bw; }
    const GpuSpec& gpu() const { return *m_gpu; }

    // Part indices into frame().parts.
    int gpuPart(int host, int gpu) const;
    int nicPart(int host, int nic) const;
    int switchPart(int host, int pcieSwitch) const;
    int cpuPart(int host, int socket) const;
    int memoryPart(int host, int socket) const;
    int nvSwitchPart(int host) const;
    int networkPart() const { return m_network; }

    static int switchOf(int gpu) { return gpu / kGpusPerSwitch; }
    static int socketOf(int pcieSwitch) { return pcieSwitch / (kSwitchesPerHost / kSockets); }

    // Hosts, parts and links, no routes: the scenario adds those and a title.
    const NodeTopologyFrame& frame() const { return m_frame; }

private:
    int addPart(NodePartKind kind, std::string label, double x, double y, double w, double h,
                std::string tip);
    void addLink(int a, int b, NodeLinkKind kind, std::string tip);
    int checked(int host, int index, int count) const; // host·count + index, range-checked

    int m_hosts = 1;
    const GpuSpec* m_gpu = nullptr;
    NodeBandwidths m_bw;
    NodeTopologyFrame m_frame;
    int m_network = -1;
    std::vector<int> m_gpus, m_nics, m_switches, m_cpus, m_memories, m_nvSwitches;
};

} // namespace wb
