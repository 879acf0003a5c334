#pragma once
// The parts a payload crosses between two GPUs of a NodeDiagram, by transport: NVLink through
// the NVSwitch, NCCL's SHM transport through host memory, the network with GPUDirect RDMA
// (NIC ↔ GPU through their PCIe switch) or with a host-memory bounce at both ends. Rings,
// trees and the transports of an imported NCCL log all become routes through these.
#include "node/node_diagram.h"

#include <string>
#include <vector>

namespace wb {

enum class HopTransport { NvLink, SharedMemory, NetworkGpuDirect, NetworkHostBounce };

// NCCL's transport name ("P2P/IPC", "SHM", "NET/IB/GDRDMA", "NET/Socket", ...) as a hop kind.
HopTransport hopTransportOf(const std::string& ncclTransport, bool sameHost);
std::string hopTransportName(HopTransport t);

// Global GPU g is server g / 8, GPU g % 8. NICs default to the GPU's own (index = GPU).
std::vector<int> hopParts(const NodeDiagram& d, int fromGpu, int toGpu, HopTransport t,
                          int fromNic = -1, int toNic = -1);

// The hops from gpus[0] to gpus[1] … to the last (and back to the first when closed), as one
// part list; consecutive GPUs on one server go over NVLink, across servers over the network
// with GPUDirect RDMA.
std::vector<int> chainParts(const NodeDiagram& d, const std::vector<int>& gpus, bool closed);

} // namespace wb
