#include "node/node_diagram.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <stdexcept>
#include <utility>

namespace wb {

namespace {

// Diagram grid, in units of one GPU column (2 units wide): a server is 16 units wide.
constexpr double kHostW = 16.0;
constexpr double kHostGap = 1.2;
constexpr double kNetworkY = 0.0, kNetworkH = 0.9;
constexpr double kHostY = 1.5, kHostH = 10.2;
constexpr double kNicY = 2.1, kNicH = 0.9;
constexpr double kSwitchY = 3.6, kSwitchH = 0.9;
constexpr double kGpuY = 5.1, kGpuH = 1.5;
constexpr double kNvSwitchY = 7.2, kNvSwitchH = 0.8;
constexpr double kCpuY = 8.5, kCpuH = 0.9;
constexpr double kDramY = 9.9, kDramH = 0.8;

} // namespace

NodeBandwidths nodeBandwidths(const GpuSpec& gpu) {
    NodeBandwidths b;
    b.nvlinkGBs = gpu.value("nvlink_bidirectional_gbs") / 2.0;
    b.pcieGBs = gpu.value("pcie_per_direction_gbs");
    b.nicGBs = gpu.value("nic_gbps") / 8.0;
    return b;
}

NodeDiagram::NodeDiagram(int hosts, const GpuSpec& gpu, std::vector<std::string> hostLabels)
    : m_hosts(hosts)
    , m_gpu(&gpu)
    , m_bw(nodeBandwidths(gpu)) {
    if (hosts < 1 || hosts > 8)
        throw std::invalid_argument(
            fill("servers must be between 1 and 8, got %1", {std::to_string(hosts)}));
    const HardwareCatalogue& cat = HardwareCatalogue::builtin();
    const std::string nvlinkTip =
        fill("NVLink to the NVSwitch fabric: %1 per direction per GPU (%2; %3)",
             {formatSi(m_bw.nvlinkGBs * 1e9, "B/s"), gpu.name,
              cat.citation(gpu, "nvlink_bidirectional_gbs")});
    const std::string pcieTip =
        fill("PCIe x16: %1 per direction (%2)",
             {formatSi(m_bw.pcieGBs * 1e9, "B/s"), cat.citation(gpu, "pcie_per_direction_gbs")});
    const std::string nicTip =
        fill("NIC port: %1 Gb/s = %2 per direction (%3)",
             {formatSignificant(gpu.value("nic_gbps"), 3), formatSi(m_bw.nicGBs * 1e9, "B/s"),
              cat.citation(gpu, "nic_gbps")});

    const double totalW = hosts * kHostW + (hosts - 1) * kHostGap;
    m_network = addPart(NodePartKind::Network, "network", 0, kNetworkY, totalW, kNetworkH,
                        "the scale-out fabric: every NIC has its own port on it");
    for (int h = 0; h < hosts; ++h) {
        const double x0 = h * (kHostW + kHostGap);
        NodeHost host;
        host.label = static_cast<std::size_t>(h) < hostLabels.size()
                         ? hostLabels[static_cast<std::size_t>(h)]
                         : fill("server %1", {std::to_string(h)});
        host.x = x0;
        host.y = kHostY;
        host.w = kHostW;
        host.h = kHostH;
        host.tip =
            fill("%1: 8 × %2, 8 NICs, 4 PCIe switches, 2 CPU sockets", {host.label, gpu.name});
        m_frame.hosts.push_back(host);

        for (int i = 0; i < kGpusPerHost; ++i) {
            const std::string n = std::to_string(i);
            m_nics.push_back(addPart(NodePartKind::Nic, fill("NIC %1", {n}), x0 + 2 * i + 0.3,
                                     kNicY, 1.4, kNicH,
                                     fill("NIC %1, beside GPU %1 on PCIe switch %2. %3",
                                          {n, std::to_string(switchOf(i)), nicTip})));
        }
        for (int s = 0; s < kSwitchesPerHost; ++s)
            m_switches.push_back(
                addPart(NodePartKind::PcieSwitch, fill("PCIe sw %1", {std::to_string(s)}),
                        x0 + 4 * s + 0.3, kSwitchY, 3.4, kSwitchH,
                        fill("PCIe switch %1: GPUs %2 and %3, NICs %2 and %3, one x16 uplink to "
                             "CPU %4",
                             {std::to_string(s), std::to_string(2 * s), std::to_string(2 * s + 1),
                              std::to_string(socketOf(s))})));
        for (int i = 0; i < kGpusPerHost; ++i)
            m_gpus.push_back(
                addPart(NodePartKind::Gpu, fill("GPU %1", {std::to_string(i)}), x0 + 2 * i + 0.2,
                        kGpuY, 1.6, kGpuH,
                        fill("%1 %2 (host %3)", {gpu.name, std::to_string(i), std::to_string(h)})));
        m_nvSwitches.push_back(addPart(NodePartKind::NvSwitch, "NVSwitch", x0 + 0.2, kNvSwitchY,
                                       kHostW - 0.4, kNvSwitchH,
                                       fill("the NVSwitch chips, drawn as one: every GPU reaches "
                                            "every other at full NVLink bandwidth. %1",
                                            {nvlinkTip})));
        for (int s = 0; s < kSockets; ++s) {
            const double cx = x0 + s * kHostW / 2.0;
            m_cpus.push_back(addPart(
                NodePartKind::Cpu, fill("CPU %1", {std::to_string(s)}), cx + 0.2, kCpuY,
                kHostW / 2.0 - 0.4, kCpuH,
                fill("CPU socket %1: the PCIe root complex of switches %2 and %3",
                     {std::to_string(s), std::to_string(2 * s), std::to_string(2 * s + 1)})));
            m_memories.push_back(addPart(
                NodePartKind::HostMemory, fill("DRAM %1", {std::to_string(s)}), cx + 2.0, kDramY,
                kHostW / 2.0 - 4.0, kDramH, fill("host memory of socket %1", {std::to_string(s)})));
        }
    }
    for (int h = 0; h < hosts; ++h) {
        for (int i = 0; i < kGpusPerHost; ++i) {
            const int sw = switchPart(h, switchOf(i));
            addLink(gpuPart(h, i), sw, NodeLinkKind::Pcie,
                    fill("GPU %1: %2", {std::to_string(i), pcieTip}));
            addLink(nicPart(h, i), sw, NodeLinkKind::Pcie,
                    fill("NIC %1: %2", {std::to_string(i), pcieTip}));
            addLink(gpuPart(h, i), nvSwitchPart(h), NodeLinkKind::NvLink, nvlinkTip);
            addLink(nicPart(h, i), m_network, NodeLinkKind::Network, nicTip);
        }
        for (int s = 0; s < kSwitchesPerHost; ++s)
            addLink(switchPart(h, s), cpuPart(h, socketOf(s)), NodeLinkKind::Pcie,
                    fill("uplink of PCIe switch %1, shared by its two GPUs and two NICs: %2",
                         {std::to_string(s), pcieTip}));
        for (int s = 0; s < kSockets; ++s)
            addLink(cpuPart(h, s), memoryPart(h, s), NodeLinkKind::MemoryBus,
                    fill("memory bus of socket %1", {std::to_string(s)}));
        addLink(cpuPart(h, 0), cpuPart(h, 1), NodeLinkKind::CpuLink,
                "CPU-to-CPU link (UPI / xGMI): crossing it adds a hop NCCL avoids");
    }
}

int NodeDiagram::addPart(NodePartKind kind, std::string label, double x, double y, double w,
                         double h, std::string tip) {
    NodePart p;
    p.kind = kind;
    p.label = std::move(label);
    p.x = x;
    p.y = y;
    p.w = w;
    p.h = h;
    p.tip = std::move(tip);
    m_frame.parts.push_back(std::move(p));
    return static_cast<int>(m_frame.parts.size()) - 1;
}

void NodeDiagram::addLink(int a, int b, NodeLinkKind kind, std::string tip) {
    m_frame.links.push_back({a, b, kind, std::move(tip)});
}

int NodeDiagram::checked(int host, int index, int count) const {
    if (host < 0 || host >= m_hosts || index < 0 || index >= count)
        throw std::out_of_range(
            fill("no part %1 on server %2", {std::to_string(index), std::to_string(host)}));
    return host * count + index;
}

int NodeDiagram::gpuPart(int host, int gpu) const {
    return m_gpus[static_cast<std::size_t>(checked(host, gpu, kGpusPerHost))];
}
int NodeDiagram::nicPart(int host, int nic) const {
    return m_nics[static_cast<std::size_t>(checked(host, nic, kGpusPerHost))];
}
int NodeDiagram::switchPart(int host, int pcieSwitch) const {
    return m_switches[static_cast<std::size_t>(checked(host, pcieSwitch, kSwitchesPerHost))];
}
int NodeDiagram::cpuPart(int host, int socket) const {
    return m_cpus[static_cast<std::size_t>(checked(host, socket, kSockets))];
}
int NodeDiagram::memoryPart(int host, int socket) const {
    return m_memories[static_cast<std::size_t>(checked(host, socket, kSockets))];
}
int NodeDiagram::nvSwitchPart(int host) const {
    return m_nvSwitches[static_cast<std::size_t>(checked(host, 0, 1))];
}

} // namespace wb
