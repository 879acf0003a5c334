#include "node/nccl_channels.h"

#include "engine/sentence.h"

#include <algorithm>
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

} // namespace wb

namespace wb {

double ringBusBandwidthGBs(double nvlinkGBs, double nicGBs, int nicsPerHost, int hosts,
                           int channels) {
    if (hosts <= 1)
        return nvlinkGBs;
    return std::min(nvlinkGBs, std::min(channels, nicsPerHost) * nicGBs);
}

} // namespace wb
