#pragma once
// How a GPU's data reaches the wire (nccl-topology): GPUDirect RDMA, where the NIC reads GPU memory
// through the PCIe switch they share, vs a bounce through host memory, where the GPU first
// writes the data into a pinned host buffer and the NIC then reads it from there. The paths
// are walked on a NodeDiagram, so the copies, the x16 links crossed, the host-memory traffic
// and the sustained rate all come from the same route that is drawn.
#include "frames/node_topology_frame.h"
#include "node/node_diagram.h"

#include <string>
#include <string_view>
#include <vector>

namespace wb {

// Where the NIC a GPU sends through sits: under the GPU's own PCIe switch (the server's
// design) or on the other socket (a misconfigured NIC mapping, or a server built that way).
enum class NicPlacement { SameSwitch, OtherSocket };
NicPlacement parseNicPlacement(std::string_view name); // "same-switch", "other-socket"
std::string nicPlacementName(NicPlacement p);

struct RdmaPath {
    std::string name; // "GPUDirect RDMA", "bounce through host memory"
    bool gpuDirect = false;
    int gpu = 0, nic = 0;             // in the server
    int relayGpu = -1;                // PXN: the GPU on the NIC's switch it goes through
    std::vector<int> parts;           // diagram parts from the GPU to the network
    std::vector<NodeRouteMark> marks; // each copy or DMA, numbered in order
    int copies = 0;                   // times the payload is written into a memory on the way
    int pcieHops = 0;                 // x16 links the payload crosses
    bool crossesCpuLink = false;
    double hostMemoryBytesPerByte = 0; // DRAM traffic per payload byte (write + read)
};

// The path GPU `gpu` of server 0 takes to its NIC with the given placement.
RdmaPath gpuDirectPath(const NodeDiagram& d, int gpu, NicPlacement placement);
RdmaPath hostBouncePath(const NodeDiagram& d, int gpu, NicPlacement placement);
// PXN (NCCL 2.12, NCCL_PXN_DISABLE): when the NIC is not on the GPU's own PCIe switch, the
// payload first goes over NVLink into the GPU that shares the NIC's switch, and that GPU's
// memory is read by the NIC with GPUDirect RDMA: no CPU link, no host memory. With the NIC
// beside the GPU it is the plain GPUDirect path.
RdmaPath pxnPath(const NodeDiagram& d, int gpu, NicPlacement placement);

// Every GPU of a server sending at once, each on its own path: the sustained rate per GPU is
// the NIC's rate unless a shared x16 link is the tighter bound (its per-direction bandwidth
// split over the paths crossing it in that direction).
struct SustainedRate {
    double perGpuGBs = 0;
    int sharedBy = 1;       // paths on the busiest x16 link direction
    std::string bottleneck; // "NIC" or the link, in words
};
SustainedRate sustainedRate(const NodeDiagram& d, const std::vector<RdmaPath>& paths);

// All 8 GPUs of server 0 sending through `bounce` or GPUDirect paths.
std::vector<RdmaPath> serverPaths(const NodeDiagram& d, bool gpuDirect, NicPlacement placement);
std::vector<RdmaPath> serverPxnPaths(const NodeDiagram& d, NicPlacement placement);

} // namespace wb
