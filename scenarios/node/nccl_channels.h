#pragma once
// The rings and trees NCCL builds on servers whose GPUs share an NVSwitch, as a model
// (nccl-topology): every GPU order inside the server costs the same over NVSwitch, so what matters
// is where a ring leaves and enters the server. Ring channel c enters each server at GPU c mod 8
// and leaves from the GPU before it, so successive channels use different NICs and together spread
// the inter-server traffic over all of them. Trees: a chain inside each server and a double binary
// tree across servers (Jeaugey, NCCL 2.4 blog, 2019): tree 1 mirrors tree 0, so a server that is an
// inner node in one tree is a leaf in the other (exact for even counts). GPUs are numbered
// globally: server h's GPU i is h·8 + i.
#include "collectives/collective_cost.h"

#include <optional>
#include <vector>

namespace wb {

struct ModeledRing {
    int channel = 0;
    std::vector<int> order; // global GPUs; the last sends back to the first
};

// channels ∈ [1, 32]; throws std::invalid_argument otherwise.
std::vector<ModeledRing> modeledRings(int hosts, int gpusPerHost, int channels);

struct ModeledTreeEdge {
    int tree = 0;
    int parent = 0; // global GPUs
    int child = 0;
    bool crossesHosts = false;
};

// Tree 0 or 1 of the double binary tree (over servers) with each server's chain under it.
std::vector<ModeledTreeEdge> modeledTree(int hosts, int gpusPerHost, int tree);

// Parent of server `index` among `count` in a binary tree laid out in heap order (−1: root).
int heapParent(int index);

// The longest root-to-leaf path of a modeled tree, read off its edges: the hops inside a
// server (the chain) and between servers. An all-reduce on the tree reduces up that path and
// broadcasts back down it, so its latency steps are 2 × hops().
struct TreeDepth {
    int intraHops = 0;
    int interHops = 0;
    std::vector<int> path; // global GPUs from the root down to the deepest leaf
    int hops() const { return intraHops + interHops; }
};
TreeDepth modeledTreeDepth(const std::vector<ModeledTreeEdge>& edges);

// NCCL's tree as modeled here, α-β: 2 × the drawn depth in latency steps, the double binary
// tree's bandwidth term (collective_cost). And the message size below which it beats the ring
// for that α and B, or nullopt when it never does (one server: the tree is only the chain).
AllReduceCost chainTreeCost(int hosts, int gpusPerHost, double bytes, const AlphaBeta& ab);
std::optional<double> chainTreeCrossoverBytes(int hosts, int gpusPerHost, const AlphaBeta& ab);

} // namespace wb

namespace wb {

// Bus bandwidth (GB/s per direction) a ring all-reduce reaches: inside a server every hop is
// NVLink (a GPU's NVLink shared by all channels); between servers each channel's ring crosses
// one NIC per server, and channels beyond the NIC count share NICs. So with more than one
// server, min(NVLink, min(channels, NICs) × NIC).
double ringBusBandwidthGBs(double nvlinkGBs, double nicGBs, int nicsPerHost, int hosts,
                           int channels);

} // namespace wb
