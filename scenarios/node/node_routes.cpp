#include "node/node_routes.h"

#include <stdexcept>

namespace wb {

namespace {

void append(std::vector<int>& out, const std::vector<int>& more) {
    for (int p : more)
        if (out.empty() || out.back() != p)
            out.push_back(p);
}

// GPU (or NIC) under its PCIe switch, up to its socket's CPU, into that socket's DRAM and back.
std::vector<int> bounce(const NodeDiagram& d, int host, int gpuOrNic) {
    const int sw = NodeDiagram::switchOf(gpuOrNic);
    const int socket = NodeDiagram::socketOf(sw);
    return {d.switchPart(host, sw), d.cpuPart(host, socket), d.memoryPart(host, socket),
            d.cpuPart(host, socket), d.switchPart(host, sw)};
}

} // namespace

HopTransport hopTransportOf(const std::string& t, bool sameHost) {
    if (t.rfind("NET", 0) == 0)
        return t.find("GDR") != std::string::npos ? HopTransport::NetworkGpuDirect
                                                  : HopTransport::NetworkHostBounce;
    if (t.rfind("SHM", 0) == 0)
        return HopTransport::SharedMemory;
    if (!sameHost) // an unnamed transport between servers can only be the network
        return HopTransport::NetworkGpuDirect;
    return HopTransport::NvLink; // P2P (direct pointer, IPC), NVLS, CollNet inside a server
}

std::string hopTransportName(HopTransport t) {
    switch (t) {
    case HopTransport::NvLink:
        return "NVLink via NVSwitch";
    case HopTransport::SharedMemory:
        return "shared host memory";
    case HopTransport::NetworkGpuDirect:
        return "network, GPUDirect RDMA";
    case HopTransport::NetworkHostBounce:
        break;
    }
    return "network, through host memory";
}

std::vector<int> hopParts(const NodeDiagram& d, int fromGpu, int toGpu, HopTransport t, int fromNic,
                          int toNic) {
    const int total = d.hosts() * NodeDiagram::kGpusPerHost;
    if (fromGpu < 0 || fromGpu >= total || toGpu < 0 || toGpu >= total)
        throw std::out_of_range("GPU index outside the drawn servers");
    const int ha = fromGpu / NodeDiagram::kGpusPerHost, ga = fromGpu % NodeDiagram::kGpusPerHost,
              hb = toGpu / NodeDiagram::kGpusPerHost, gb = toGpu % NodeDiagram::kGpusPerHost;
    const int na = fromNic >= 0 ? fromNic % NodeDiagram::kGpusPerHost : ga,
              nb = toNic >= 0 ? toNic % NodeDiagram::kGpusPerHost : gb;
    std::vector<int> out = {d.gpuPart(ha, ga)};
    switch (t) {
    case HopTransport::NvLink:
        append(out, {d.nvSwitchPart(ha), d.gpuPart(hb, gb)});
        return out;
    case HopTransport::SharedMemory: {
        // Written into the sender's socket memory, read from there by the receiver.
        const int sa = NodeDiagram::socketOf(NodeDiagram::switchOf(ga));
        const int sb = NodeDiagram::socketOf(NodeDiagram::switchOf(gb));
        append(out, {d.switchPart(ha, NodeDiagram::switchOf(ga)), d.cpuPart(ha, sa),
                     d.memoryPart(ha, sa), d.cpuPart(ha, sa), d.cpuPart(hb, sb),
                     d.switchPart(hb, NodeDiagram::switchOf(gb)), d.gpuPart(hb, gb)});
        return out;
    }
    case HopTransport::NetworkGpuDirect:
        append(out,
               {d.switchPart(ha, NodeDiagram::switchOf(na)), d.nicPart(ha, na), d.networkPart(),
                d.nicPart(hb, nb), d.switchPart(hb, NodeDiagram::switchOf(nb)), d.gpuPart(hb, gb)});
        return out;
    case HopTransport::NetworkHostBounce:
        break;
    }
    append(out, bounce(d, ha, na));
    append(out, {d.nicPart(ha, na), d.networkPart(), d.nicPart(hb, nb)});
    append(out, bounce(d, hb, nb));
    append(out, {d.gpuPart(hb, gb)});
    return out;
}

std::vector<int> chainParts(const NodeDiagram& d, const std::vector<int>& gpus, bool closed) {
    std::vector<int> out;
    const std::size_t n = gpus.size();
    for (std::size_t i = 0; i + 1 < n + (closed ? 1 : 0); ++i) {
        const int a = gpus[i], b = gpus[(i + 1) % n];
        if (a == b)
            continue;
        append(out, hopParts(d, a, b,
                             a / NodeDiagram::kGpusPerHost == b / NodeDiagram::kGpusPerHost
                                 ? HopTransport::NvLink
                                 : HopTransport::NetworkGpuDirect));
    }
    return out;
}

} // namespace wb
