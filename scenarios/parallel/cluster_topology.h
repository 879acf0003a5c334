#pragma once
// A training cluster as the collectives see it: nodes of G GPUs joined by NVLink/NVSwitch,
// one NIC per GPU into a leaf/spine fabric. A group of ranks runs a collective on the
// slowest link class it crosses: NVLink inside a node, the NIC across nodes, and the NIC
// rate divided by the spine's oversubscription once the group spans more than one leaf.
// NCCL's rings across nodes use one channel per NIC, so the per-GPU network rate, not the
// node's, is what a flat ring sees (nccl-tests busbw ≈ NIC rate on such clusters).
#include "collectives/collective_cost.h"

#include <string>
#include <vector>

namespace wb {

enum class LinkClass { NvLink, Network };
std::string linkName(LinkClass l);  // "nvlink", "network": ids in calc's JSON
std::string linkWords(LinkClass l); // "NVLink", "the network": on a slide

struct ClusterTopology {
    int nodes = 1;
    int gpusPerNode = 8;
    double nvlinkGBs = 450.0; // per GPU per direction (H100 SXM: 18 links × 25 GB/s)
    double nvlinkAlphaUs = 2.0;
    double networkGBs = 50.0; // per GPU per direction (400 Gb/s NIC)
    double networkAlphaUs = 8.0;
    int nodesPerLeaf = 16;         // nodes under one leaf switch
    double oversubscription = 1.0; // leaf uplinks : downlinks, 1 = non-blocking

    int gpus() const { return nodes * gpusPerNode; }
    // Throws std::invalid_argument naming the field when a value is absurd.
    void validate() const;
};

// "nodes=R,gpus_per_node=8[,nvlink_gbs=X,network_gbs=Y,nvlink_alpha_us=..,network_alpha_us=..,
// nodes_per_leaf=..,oversubscription=..]"; throws std::invalid_argument naming the key.
ClusterTopology parseTopology(const std::string& text);

// Ranks first, first + stride, ... (count of them), global rank r living on node
// r / gpusPerNode.
struct RankGroup {
    int first = 0;
    int count = 1;
    int stride = 1;
};

struct GroupSpan {
    int nodes = 1;  // distinct nodes the group touches
    int leaves = 1; // distinct leaf switches
    LinkClass bottleneck = LinkClass::NvLink;
    AlphaBeta link; // the bottleneck link's α and per-GPU bandwidth (bytes/s)
};
GroupSpan spanOf(const ClusterTopology& t, const RankGroup& g);

struct ClusterCollectiveCost {
    AllReduceCost cost; // time, bytes sent per rank, algbw, busbw
    GroupSpan span;
};
// One collective over a group on this topology (the ring formulas of collective_cost.h on
// the group's bottleneck link). All-to-all is the exception: its in-node share rides NVLink
// while only the share for other nodes crosses the NIC, so its time is the larger of the two.
ClusterCollectiveCost clusterCollective(const ClusterTopology& t, Collective op, const RankGroup& g,
                                        double bytes);
// A point-to-point send of `bytes` from rank a to rank b: α + bytes/B on their link.
ClusterCollectiveCost clusterSendRecv(const ClusterTopology& t, int from, int to, double bytes);

} // namespace wb
