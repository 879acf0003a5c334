#pragma once
// An imported NCCL_DEBUG=INFO log drawn on servers (nccl-topology): the ranks placed on hosts by
// the host names and CUDA devices the log prints, every ring channel as one route whose hops take
// the physical path of the transport NCCL chose for them (P2P over the NVSwitch, SHM through
// host memory, NET with or without GPUDirect RDMA), and channel 0's tree.
#include "frames/facts_frame.h"
#include "frames/node_topology_frame.h"
#include "import/nccl_log_importer.h"

#include <string>
#include <vector>

namespace wb {

struct GpuSpec;

struct NcclLogPlacement {
    std::vector<std::string> hosts; // in order of first appearance, at most kMaxHosts
    std::vector<int> gpuOfRank;     // global diagram GPU per rank, −1 when not drawn
    int ranksNotDrawn = 0;          // on hosts past kMaxHosts, or with no known place
    static constexpr int kMaxHosts = 4;
};

NcclLogPlacement placeNcclRanks(const NcclLogData& log);

// At most kMaxChannels ring channels are drawn (one colour each) plus channel 0's tree.
inline constexpr int kMaxDrawnChannels = 4;
NodeTopologyFrame ncclLogTopology(const NcclLogData& log, const std::string& path,
                                  const GpuSpec& gpu);

} // namespace wb
