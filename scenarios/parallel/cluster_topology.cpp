#include "parallel/cluster_topology.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

namespace wb {

std::string linkWords(LinkClass l) {
    return l == LinkClass::NvLink ? "NVLink" : "the network";
}

std::string linkName(LinkClass l) {
    return l == LinkClass::NvLink ? "nvlink" : "network";
}

void ClusterTopology::validate() const {
    auto positive = [](double v, const char* what) {
        if (!(v > 0.0) || !std::isfinite(v))
            throw std::invalid_argument(fill("%1 must be a positive number", {what}));
    };
    if (nodes < 1 || nodes > 1000000)
        throw std::invalid_argument("nodes must be 1…1000000");
    if (gpusPerNode < 1 || gpusPerNode > 1024)
        throw std::invalid_argument("gpus_per_node must be 1…1024");
    positive(nvlinkGBs, "nvlink_gbs");
    positive(networkGBs, "network_gbs");
    if (!(nvlinkAlphaUs >= 0.0) || !(networkAlphaUs >= 0.0) || !std::isfinite(nvlinkAlphaUs) ||
        !std::isfinite(networkAlphaUs))
        throw std::invalid_argument("link latencies must be ≥ 0 µs");
    if (nodesPerLeaf < 1)
        throw std::invalid_argument("nodes_per_leaf must be at least 1");
    if (!(oversubscription >= 1.0) || !std::isfinite(oversubscription))
        throw std::invalid_argument("oversubscription must be ≥ 1 (1 = non-blocking)");
}

ClusterTopology parseTopology(const std::string& text) {
    ClusterTopology t;
    std::stringstream in(text);
    std::string item;
    bool sawNodes = false;
    while (std::getline(in, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument(fill("topology item '%1' is not key=value", {item}));
        const std::string key = item.substr(0, eq);
        const auto v = parseNumber(item.substr(eq + 1));
        if (!v)
            throw std::invalid_argument(
                fill("topology %1 = '%2' is not a number", {key, item.substr(eq + 1)}));
        auto whole = [&](const char* name) {
            if (*v != std::floor(*v) || std::abs(*v) > 1e9)
                throw std::invalid_argument(fill("topology %1 must be a whole number", {name}));
            return static_cast<int>(*v);
        };
        if (key == "nodes") {
            t.nodes = whole("nodes");
            sawNodes = true;
        } else if (key == "gpus_per_node")
            t.gpusPerNode = whole("gpus_per_node");
        else if (key == "nvlink_gbs")
            t.nvlinkGBs = *v;
        else if (key == "network_gbs")
            t.networkGBs = *v;
        else if (key == "nvlink_alpha_us")
            t.nvlinkAlphaUs = *v;
        else if (key == "network_alpha_us")
            t.networkAlphaUs = *v;
        else if (key == "nodes_per_leaf")
            t.nodesPerLeaf = whole("nodes_per_leaf");
        else if (key == "oversubscription")
            t.oversubscription = *v;
        else
            throw std::invalid_argument(
                fill("unknown topology key '%1'; allowed: nodes|gpus_per_node|nvlink_gbs|"
                     "network_gbs|nvlink_alpha_us|network_alpha_us|nodes_per_leaf|"
                     "oversubscription",
                     {key}));
    }
    if (!sawNodes)
        throw std::invalid_argument("topology needs nodes=R (e.g. nodes=4,gpus_per_node=8)");
    t.validate();
    return t;
}

GroupSpan spanOf(const ClusterTopology& t, const RankGroup& g) {
    if (g.count < 1 || g.stride < 1 || g.first < 0)
        throw std::invalid_argument("a rank group needs count ≥ 1, stride ≥ 1, first ≥ 0");
    const long long last = g.first + static_cast<long long>(g.count - 1) * g.stride;
    if (last >= t.gpus())
        throw std::invalid_argument(fill("the group reaches rank %1 but the cluster has %2 GPUs",
                                         {std::to_string(last), std::to_string(t.gpus())}));
    std::set<long long> nodes, leaves;
    for (long long r = g.first; r <= last; r += g.stride) {
        const long long node = r / t.gpusPerNode;
        nodes.insert(node);
        leaves.insert(node / t.nodesPerLeaf);
    }
    GroupSpan s;
    s.nodes = static_cast<int>(nodes.size());
    s.leaves = static_cast<int>(leaves.size());
    if (s.nodes <= 1) {
        s.bottleneck = LinkClass::NvLink;
        s.link = {t.nvlinkAlphaUs * 1e-6, t.nvlinkGBs * 1e9};
    } else {
        s.bottleneck = LinkClass::Network;
        const double rate = s.leaves > 1 ? t.networkGBs / t.oversubscription : t.networkGBs;
        s.link = {t.networkAlphaUs * 1e-6, rate * 1e9};
    }
    return s;
}

ClusterCollectiveCost clusterCollective(const ClusterTopology& t, Collective op, const RankGroup& g,
                                        double bytes) {
    ClusterCollectiveCost out;
    out.span = spanOf(t, g);
    if (g.count < 2)
        throw std::invalid_argument("a collective needs a group of at least 2 ranks");
    if (op != Collective::AllToAll || out.span.nodes <= 1) {
        out.cost = collectiveCost(op, g.count, bytes, out.span.link);
        return out;
    }
    // All-to-all: each rank sends K/N to each of the N−1 others; the ones on its own node
    // over NVLink, the rest over its NIC, both at once.
    const double n = g.count;
    const double perPeer = bytes / n;
    const double peersInNode = std::max(0.0, n / out.span.nodes - 1.0);
    const double peersRemote = n - 1.0 - peersInNode;
    const double nvS = peersInNode * perPeer / (t.nvlinkGBs * 1e9);
    const double netS = peersRemote * perPeer / out.span.link.bandwidthBytesPerS;
    AllReduceCost& c = out.cost;
    c.steps = g.count - 1;
    c.latencyS = (n - 1.0) * out.span.link.alphaS;
    c.bandwidthS = std::max(nvS, netS);
    c.timeS = c.latencyS + c.bandwidthS;
    c.bytesSentPerRank = (n - 1.0) * perPeer;
    c.algbwBytesPerS = bytes / c.timeS;
    c.busbwFactor = busbwFactor(op, g.count);
    c.busbwBytesPerS = c.algbwBytesPerS * c.busbwFactor;
    if (nvS > netS)
        out.span.bottleneck = LinkClass::NvLink;
    return out;
}

ClusterCollectiveCost clusterSendRecv(const ClusterTopology& t, int from, int to, double bytes) {
    if (!(bytes > 0.0) || !std::isfinite(bytes))
        throw std::invalid_argument("message size must be a positive number of bytes");
    ClusterCollectiveCost out;
    out.span = spanOf(t, {std::min(from, to), 2, std::max(1, std::abs(to - from))});
    AllReduceCost& c = out.cost;
    c.steps = 1;
    c.latencyS = out.span.link.alphaS;
    c.bandwidthS = bytes / out.span.link.bandwidthBytesPerS;
    c.timeS = c.latencyS + c.bandwidthS;
    c.bytesSentPerRank = bytes;
    c.algbwBytesPerS = bytes / c.timeS;
    c.busbwFactor = 1.0;
    c.busbwBytesPerS = c.algbwBytesPerS;
    return out;
}

} // namespace wb
