#include "node/rdma_path.h"

#include "engine/sentence.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace wb {

namespace {

int nicFor(int gpu, NicPlacement placement) {
    // The other socket's switches hold GPUs/NICs 4…7 for GPUs 0…3 and vice versa.
    const int half = NodeDiagram::kGpusPerHost / 2;
    return placement == NicPlacement::SameSwitch ? gpu : (gpu + half) % NodeDiagram::kGpusPerHost;
}

int indexOf(const std::vector<int>& parts, int part) {
    const auto it = std::find(parts.begin(), parts.end(), part);
    return static_cast<int>(it - parts.begin());
}

bool isPcie(const NodeTopologyFrame& f, int a, int b) {
    for (const NodeLink& l : f.links)
        if (l.kind == NodeLinkKind::Pcie && ((l.a == a && l.b == b) || (l.a == b && l.b == a)))
            return true;
    return false;
}

void countHops(const NodeDiagram& d, RdmaPath& p) {
    const NodeTopologyFrame& f = d.frame();
    for (std::size_t i = 1; i < p.parts.size(); ++i) {
        const int a = p.parts[i - 1], b = p.parts[i];
        if (isPcie(f, a, b))
            ++p.pcieHops;
        if (f.parts[static_cast<std::size_t>(a)].kind == NodePartKind::Cpu &&
            f.parts[static_cast<std::size_t>(b)].kind == NodePartKind::Cpu)
            p.crossesCpuLink = true;
    }
}

// GPU → its switch → (CPU → other CPU → other switch, when the NIC is across) → NIC.
std::vector<int> throughSwitches(const NodeDiagram& d, int gpu, int nic, std::vector<int> middle) {
    const int gs = NodeDiagram::switchOf(gpu), ns = NodeDiagram::switchOf(nic);
    std::vector<int> parts = {d.gpuPart(0, gpu), d.switchPart(0, gs)};
    parts.insert(parts.end(), middle.begin(), middle.end());
    if (middle.empty() && gs != ns) {
        const int gc = NodeDiagram::socketOf(gs), nc = NodeDiagram::socketOf(ns);
        parts.push_back(d.cpuPart(0, gc));
        if (gc != nc)
            parts.push_back(d.cpuPart(0, nc));
    }
    if (gs != ns || !middle.empty())
        parts.push_back(d.switchPart(0, ns));
    parts.push_back(d.nicPart(0, nic));
    parts.push_back(d.networkPart());
    return parts;
}

} // namespace

NicPlacement parseNicPlacement(std::string_view name) {
    if (name == "same-switch")
        return NicPlacement::SameSwitch;
    if (name == "other-socket")
        return NicPlacement::OtherSocket;
    throw std::invalid_argument(
        fill("NIC placement must be same-switch or other-socket, got '%1'", {name}));
}

std::string nicPlacementName(NicPlacement p) {
    return p == NicPlacement::SameSwitch ? "same-switch" : "other-socket";
}

RdmaPath gpuDirectPath(const NodeDiagram& d, int gpu, NicPlacement placement) {
    RdmaPath p;
    p.name = "GPUDirect RDMA";
    p.gpuDirect = true;
    p.gpu = gpu;
    p.nic = nicFor(gpu, placement);
    p.parts = throughSwitches(d, gpu, p.nic, {});
    p.copies = 0;
    p.marks.push_back({.hop = indexOf(p.parts, d.nicPart(0, p.nic)),
                       .label = "1",
                       .tip = fill("DMA: the NIC reads the payload straight out of GPU %1's "
                                   "memory over PCIe; no copy, host memory untouched",
                                   {std::to_string(gpu)})});
    countHops(d, p);
    return p;
}

RdmaPath hostBouncePath(const NodeDiagram& d, int gpu, NicPlacement placement) {
    RdmaPath p;
    p.name = "bounce through host memory";
    p.gpu = gpu;
    p.nic = nicFor(gpu, placement);
    // NCCL keeps the bounce buffer near the NIC, so a NIC across the sockets puts the GPU's
    // write over the CPU link; the NIC's read stays local.
    const int gpuSocket = NodeDiagram::socketOf(NodeDiagram::switchOf(gpu));
    const int nicSocket = NodeDiagram::socketOf(NodeDiagram::switchOf(p.nic));
    std::vector<int> middle = {d.cpuPart(0, gpuSocket)};
    if (gpuSocket != nicSocket)
        middle.push_back(d.cpuPart(0, nicSocket));
    middle.push_back(d.memoryPart(0, nicSocket));
    middle.push_back(d.cpuPart(0, nicSocket));
    p.parts = throughSwitches(d, gpu, p.nic, middle);
    p.copies = 1;
    p.hostMemoryBytesPerByte = 2.0;
    p.marks.push_back({.hop = indexOf(p.parts, d.memoryPart(0, nicSocket)),
                       .label = "1",
                       .tip = fill("copy: GPU %1 writes the payload into a pinned buffer in host "
                                   "memory (DRAM %2)",
                                   {std::to_string(gpu), std::to_string(nicSocket)})});
    p.marks.push_back({.hop = indexOf(p.parts, d.nicPart(0, p.nic)),
                       .label = "2",
                       .tip = "DMA: the NIC reads the buffer back out of host memory"});
    countHops(d, p);
    return p;
}

RdmaPath pxnPath(const NodeDiagram& d, int gpu, NicPlacement placement) {
    const int nic = nicFor(gpu, placement);
    // The GPU with the NIC's index sits on the NIC's switch.
    const int relay = nic;
    if (NodeDiagram::switchOf(relay) == NodeDiagram::switchOf(gpu))
        return gpuDirectPath(d, gpu, placement);
    RdmaPath p = gpuDirectPath(d, relay, NicPlacement::SameSwitch);
    p.name = fill("PXN: NVLink to GPU %1, then GPUDirect RDMA", {std::to_string(relay)});
    p.gpu = gpu;
    p.relayGpu = relay;
    p.parts.insert(p.parts.begin(), {d.gpuPart(0, gpu), d.nvSwitchPart(0)});
    p.copies = 1;
    p.marks.front().hop += 2;
    p.marks.front().label = "2";
    p.marks.front().tip = fill("DMA: NIC %1 reads the payload out of GPU %1's memory over PCIe; "
                               "host memory untouched",
                               {std::to_string(relay)});
    p.marks.insert(p.marks.begin(),
                   {.hop = 2,
                    .label = "1",
                    .tip = fill("NVLink write: GPU %1 puts the payload into GPU %2's memory, on "
                                "the same PCIe switch as NIC %2",
                                {std::to_string(gpu), std::to_string(relay)})});
    return p;
}

std::vector<RdmaPath> serverPxnPaths(const NodeDiagram& d, NicPlacement placement) {
    std::vector<RdmaPath> paths;
    for (int g = 0; g < NodeDiagram::kGpusPerHost; ++g)
        paths.push_back(pxnPath(d, g, placement));
    return paths;
}

std::vector<RdmaPath> serverPaths(const NodeDiagram& d, bool gpuDirect, NicPlacement placement) {
    std::vector<RdmaPath> paths;
    for (int g = 0; g < NodeDiagram::kGpusPerHost; ++g)
        paths.push_back(gpuDirect ? gpuDirectPath(d, g, placement)
                                  : hostBouncePath(d, g, placement));
    return paths;
}

SustainedRate sustainedRate(const NodeDiagram& d, const std::vector<RdmaPath>& paths) {
    // Directed x16 links: (from, to) part pairs, each counted once per path crossing it.
    std::map<std::pair<int, int>, int> crossings;
    const NodeTopologyFrame& f = d.frame();
    for (const RdmaPath& p : paths)
        for (std::size_t i = 1; i < p.parts.size(); ++i) {
            const int a = p.parts[i - 1], b = p.parts[i];
            if (isPcie(f, a, b))
                ++crossings[{a, b}];
        }
    SustainedRate r;
    r.perGpuGBs = d.bandwidths().nicGBs;
    r.bottleneck = "the NIC";
    for (const auto& [link, n] : crossings) {
        const double share = d.bandwidths().pcieGBs / n;
        if (share < r.perGpuGBs) {
            r.perGpuGBs = share;
            r.sharedBy = n;
            r.bottleneck =
                fill("%1 → %2 (%3 paths on one x16 direction)",
                     {f.parts[static_cast<std::size_t>(link.first)].label,
                      f.parts[static_cast<std::size_t>(link.second)].label, std::to_string(n)});
        }
    }
    return r;
}

} // namespace wb
