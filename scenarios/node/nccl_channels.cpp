#include "node/nccl_channels.h"

#include "engine/sentence.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace wb {

namespace {

void checkShape(int hosts, int gpusPerHost) {
    if (hosts < 1 || gpusPerHost < 1)
        throw std::invalid_argument(
            fill("a ring needs at least one server with one GPU, got %1 × %2",
                 {std::to_string(hosts), std::to_string(gpusPerHost)}));
}

} // namespace

std::vector<ModeledRing> modeledRings(int hosts, int gpusPerHost, int channels) {
    checkShape(hosts, gpusPerHost);
    if (channels < 1 || channels > 32)
        throw std::invalid_argument(
            fill("channels must be between 1 and 32, got %1", {std::to_string(channels)}));
    std::vector<ModeledRing> rings;
    for (int c = 0; c < channels; ++c) {
        ModeledRing ring;
        ring.channel = c;
        const int entry = c % gpusPerHost;
        for (int h = 0; h < hosts; ++h)
            for (int k = 0; k < gpusPerHost; ++k)
                ring.order.push_back(h * gpusPerHost + (entry + k) % gpusPerHost);
        rings.push_back(std::move(ring));
    }
    return rings;
}

int heapParent(int index) {
    return index <= 0 ? -1 : (index - 1) / 2;
}

std::vector<ModeledTreeEdge> modeledTree(int hosts, int gpusPerHost, int tree) {
    checkShape(hosts, gpusPerHost);
    if (tree != 0 && tree != 1)
        throw std::invalid_argument(
            fill("NCCL's double binary tree has trees 0 and 1, got %1", {std::to_string(tree)}));
    // Tree 1 numbers the servers from the other end, so its inner nodes are tree 0's leaves.
    const auto serverAt = [&](int position) { return tree == 0 ? position : hosts - 1 - position; };
    std::vector<ModeledTreeEdge> edges;
    for (int pos = 0; pos < hosts; ++pos) {
        const int h = serverAt(pos);
        const int head = h * gpusPerHost; // the GPU whose NIC talks to the other servers
        const int parentPos = heapParent(pos);
        if (parentPos >= 0)
            edges.push_back({.tree = tree,
                             .parent = serverAt(parentPos) * gpusPerHost,
                             .child = head,
                             .crossesHosts = true});
        for (int k = 1; k < gpusPerHost; ++k)
            edges.push_back(
                {.tree = tree, .parent = head + k - 1, .child = head + k, .crossesHosts = false});
    }
    return edges;
}

TreeDepth modeledTreeDepth(const std::vector<ModeledTreeEdge>& edges) {
    std::map<int, const ModeledTreeEdge*> up; // child → the edge to its parent
    for (const ModeledTreeEdge& e : edges)
        up[e.child] = &e;
    TreeDepth deepest;
    for (const auto& [node, edge] : up) {
        TreeDepth d;
        d.path.push_back(node);
        for (auto it = up.find(node); it != up.end(); it = up.find(it->second->parent)) {
            (it->second->crossesHosts ? d.interHops : d.intraHops) += 1;
            d.path.push_back(it->second->parent);
            if (d.hops() > static_cast<int>(edges.size()))
                throw std::invalid_argument("the tree's edges form a cycle");
        }
        std::reverse(d.path.begin(), d.path.end());
        if (d.hops() > deepest.hops() ||
            (d.hops() == deepest.hops() && d.interHops > deepest.interHops))
            deepest = d;
    }
    return deepest;
}

AllReduceCost chainTreeCost(int hosts, int gpusPerHost, double bytes, const AlphaBeta& ab) {
    AllReduceCost c =
        allReduceCost(AllReduceAlgorithm::DoubleBinaryTree, hosts * gpusPerHost, bytes, ab);
    c.steps = 2 * modeledTreeDepth(modeledTree(hosts, gpusPerHost, 0)).hops();
    c.latencyS = c.steps * ab.alphaS;
    c.timeS = c.latencyS + c.bandwidthS;
    c.algbwBytesPerS = bytes / c.timeS;
    c.busbwBytesPerS = c.algbwBytesPerS * c.busbwFactor;
    return c;
}

std::optional<double> chainTreeCrossoverBytes(int hosts, int gpusPerHost, const AlphaBeta& ab) {
    // Both times are linear in the bytes: per-byte slopes from one byte.
    const AllReduceCost ring =
        allReduceCost(AllReduceAlgorithm::Ring, hosts * gpusPerHost, 1.0, ab);
    const AllReduceCost tree = chainTreeCost(hosts, gpusPerHost, 1.0, ab);
    const double latencySaved = ring.latencyS - tree.latencyS;
    const double perByteLost = tree.bandwidthS - ring.bandwidthS;
    if (latencySaved <= 0 || perByteLost <= 0)
        return std::nullopt;
    return latencySaved / perByteLost;
}

} // namespace wb

namespace wb {

double ringBusBandwidthGBs(double nvlinkGBs, double nicGBs, int nicsPerHost, int hosts,
                           int channels) {
    if (hosts <= 1)
        return nvlinkGBs;
    return std::min(nvlinkGBs, std::min(channels, nicsPerHost) * nicGBs);
}

} // namespace wb
