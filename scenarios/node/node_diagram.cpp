#include "node/node_diagram.h"

#include "engine/number_format.h"

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
        throw std::invalid_argument("servers must be between 1 and 8, got " +
                                    std::to_string(hosts));
    const HardwareCatalogue& cat = HardwareCatalogue::builtin();
    const std::string nvlinkTip =
        "NVLink to the NVSwitch fabric: " + formatSi(m_bw.nvlinkGBs * 1e9, "B/s") +
        " per direction per GPU (" + gpu.name + "; " +
        cat.citation(gpu, "nvlink_bidirectional_gbs") + ")";
    const std::string pcieTip = "PCIe x16: " + formatSi(m_bw.pcieGBs * 1e9, "B/s") +
                                " per direction (" + cat.citation(gpu, "pcie_per_direction_gbs") +
                                ")";
    const std::string nicTip = "NIC port: " + formatSignificant(gpu.value("nic_gbps"), 3) +
                               " Gb/s = " + formatSi(m_bw.nicGBs * 1e9, "B/s") +
                               " per direction (" + cat.citation(gpu, "nic_gbps") + ")";

    const double totalW = hosts * kHostW + (hosts - 1) * kHostGap;
    m_network = addPart(NodePartKind::Network, "network", 0, kNetworkY, totalW, kNetworkH,
                        "the scale-out fabric: every NIC has its own port on it");
    for (int h = 0; h < hosts; ++h) {
        const double x0 = h * (kHostW + kHostGap);
        NodeHost host;
        host.label = static_cast<std::size_t>(h) < hostLabels.size()
                         ? hostLabels[static_cast<std::size_t>(h)]
                         : "server " + std::to_string(h);
        host.x = x0;
        host.y = kHostY;
        host.w = kHostW;
        host.h = kHostH;
        host.tip = host.label + ": 8 × " + gpu.name + ", 8 NICs, 4 PCIe switches, 2 CPU sockets";
        m_frame.hosts.push_back(host);

        for (int i = 0; i < kGpusPerHost; ++i) {
            const std::string n = std::to_string(i);
            m_nics.push_back(addPart(NodePartKind::Nic, "NIC " + n, x0 + 2 * i + 0.3, kNicY, 1.4,
                                     kNicH,
                                     "NIC " + n + ", beside GPU " + n + " on PCIe switch " +
                                         std::to_string(switchOf(i)) + ". " + nicTip));
        }
        for (int s = 0; s < kSwitchesPerHost; ++s)
            m_switches.push_back(
                addPart(NodePartKind::PcieSwitch, "PCIe sw " + std::to_string(s), x0 + 4 * s + 0.3,
                        kSwitchY, 3.4, kSwitchH,
                        "PCIe switch " + std::to_string(s) + ": GPUs " + std::to_string(2 * s) +
                            " and " + std::to_string(2 * s + 1) + ", NICs " +
                            std::to_string(2 * s) + " and " + std::to_string(2 * s + 1) +
                            ", one x16 uplink to CPU " + std::to_string(socketOf(s))));
        for (int i = 0; i < kGpusPerHost; ++i)
            m_gpus.push_back(addPart(
                NodePartKind::Gpu, "GPU " + std::to_string(i), x0 + 2 * i + 0.2, kGpuY, 1.6, kGpuH,
                gpu.name + " " + std::to_string(i) + " (host " + std::to_string(h) + ")"));
        m_nvSwitches.push_back(addPart(NodePartKind::NvSwitch, "NVSwitch", x0 + 0.2, kNvSwitchY,
                                       kHostW - 0.4, kNvSwitchH,
                                       "the NVSwitch chips, drawn as one: every GPU reaches every "
                                       "other at full NVLink bandwidth. " +
                                           nvlinkTip));
        for (int s = 0; s < kSockets; ++s) {
            const double cx = x0 + s * kHostW / 2.0;
            m_cpus.push_back(
                addPart(NodePartKind::Cpu, "CPU " + std::to_string(s), cx + 0.2, kCpuY,
                        kHostW / 2.0 - 0.4, kCpuH,
                        "CPU socket " + std::to_string(s) + ": the PCIe root complex of switches " +
                            std::to_string(2 * s) + " and " + std::to_string(2 * s + 1)));
            m_memories.push_back(addPart(NodePartKind::HostMemory, "DRAM " + std::to_string(s),
                                         cx + 2.0, kDramY, kHostW / 2.0 - 4.0, kDramH,
                                         "host memory of socket " + std::to_string(s)));
        }
    }
    for (int h = 0; h < hosts; ++h) {
        for (int i = 0; i < kGpusPerHost; ++i) {
            const int sw = switchPart(h, switchOf(i));
            addLink(gpuPart(h, i), sw, NodeLinkKind::Pcie,
                    "GPU " + std::to_string(i) + ": " + pcieTip);
            addLink(nicPart(h, i), sw, NodeLinkKind::Pcie,
                    "NIC " + std::to_string(i) + ": " + pcieTip);
            addLink(gpuPart(h, i), nvSwitchPart(h), NodeLinkKind::NvLink, nvlinkTip);
            addLink(nicPart(h, i), m_network, NodeLinkKind::Network, nicTip);
        }
        for (int s = 0; s < kSwitchesPerHost; ++s)
            addLink(switchPart(h, s), cpuPart(h, socketOf(s)), NodeLinkKind::Pcie,
                    "uplink of PCIe switch " + std::to_string(s) +
                        ", shared by its two GPUs and two NICs: " + pcieTip);
        for (int s = 0; s < kSockets; ++s)
            addLink(cpuPart(h, s), memoryPart(h, s), NodeLinkKind::MemoryBus,
                    "memory bus of socket " + std::to_string(s));
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
        throw std::out_of_range("no part " + std::to_string(index) + " on server " +
                                std::to_string(host));
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
