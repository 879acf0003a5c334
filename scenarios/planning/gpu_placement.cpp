#include "planning/gpu_placement.h"

#include "engine/sentence.h"

#include <algorithm>
#include <stdexcept>

namespace wb {

GpuPlacement::GpuPlacement(const ClusterTopology& t)
    : m_topology(t) {
    t.validate();
    m_busy.assign(static_cast<std::size_t>(t.gpus()), 0);
    m_freePerNode.assign(static_cast<std::size_t>(t.nodes), t.gpusPerNode);
    m_free = t.gpus();
}

int GpuPlacement::wholeFreeNodes() const {
    return static_cast<int>(std::count(m_freePerNode.begin(), m_freePerNode.end(), gpusPerNode()));
}

int GpuPlacement::mostFreeOnOneNode() const {
    return *std::max_element(m_freePerNode.begin(), m_freePerNode.end());
}

bool GpuPlacement::canPack(int n, int mostFree, int whole) const {
    if (n < 1 || n > m_free)
        return false;
    return n <= gpusPerNode() ? mostFree >= n : whole >= nodesNeeded(n);
}

std::vector<int> GpuPlacement::gpusOnNode(int node, int n) const {
    std::vector<int> out;
    for (int g = node * gpusPerNode(); g < (node + 1) * gpusPerNode() && n > 0; ++g)
        if (isFree(g)) {
            out.push_back(g);
            --n;
        }
    return out;
}

std::vector<int> GpuPlacement::firstFit(int n) const {
    if (n < 1 || n > m_free)
        return {};
    if (n <= gpusPerNode()) {
        // A job that fits a node is never split (a pod, a Slurm task): the first node that
        // has room, whatever that leaves behind.
        for (int node = 0; node < m_topology.nodes; ++node)
            if (freeOn(node) >= n)
                return gpusOnNode(node, n);
        return {};
    }
    std::vector<int> out;
    out.reserve(static_cast<std::size_t>(n));
    for (int g = 0; g < gpus() && static_cast<int>(out.size()) < n; ++g)
        if (isFree(g))
            out.push_back(g);
    return out;
}

bool GpuPlacement::canFirstFit(int n, int mostFree) const {
    if (n < 1 || n > m_free)
        return false;
    return n > gpusPerNode() || mostFree >= n;
}

std::vector<int> GpuPlacement::packed(int n) const {
    if (n < 1 || n > m_free)
        return {};
    const int perNode = gpusPerNode();
    if (n <= perNode) {
        // Best fit: the node with the fewest free GPUs that still holds the job, so nodes that
        // are wholly free stay free for the large jobs.
        int best = -1;
        for (int node = 0; node < m_topology.nodes; ++node) {
            const int f = freeOn(node);
            if (f >= n && (best < 0 || f < freeOn(best)))
                best = node;
        }
        return best < 0 ? std::vector<int>{} : gpusOnNode(best, n);
    }
    const int k = nodesNeeded(n);
    const int leaves = (m_topology.nodes + m_topology.nodesPerLeaf - 1) / m_topology.nodesPerLeaf;
    std::vector<std::vector<int>> wholeByLeaf(static_cast<std::size_t>(leaves));
    int whole = 0;
    for (int node = 0; node < m_topology.nodes; ++node)
        if (freeOn(node) == perNode) {
            wholeByLeaf[static_cast<std::size_t>(leafOf(node))].push_back(node);
            ++whole;
        }
    if (whole < k)
        return {};
    // One leaf if any holds k whole nodes (the fullest such leaf, best fit); otherwise the
    // leaves with the most whole nodes first, so the job crosses as few spine links as it can.
    std::vector<int> order(static_cast<std::size_t>(leaves));
    for (int i = 0; i < leaves; ++i)
        order[static_cast<std::size_t>(i)] = i;
    auto count = [&](int leaf) {
        return static_cast<int>(wholeByLeaf[static_cast<std::size_t>(leaf)].size());
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const bool fitsA = count(a) >= k, fitsB = count(b) >= k;
        if (fitsA != fitsB)
            return fitsA;
        return fitsA ? count(a) < count(b) : count(a) > count(b);
    });
    std::vector<int> out;
    int left = n;
    for (int leaf : order)
        for (int node : wholeByLeaf[static_cast<std::size_t>(leaf)]) {
            if (left == 0)
                return out;
            const std::vector<int> g = gpusOnNode(node, std::min(left, perNode));
            out.insert(out.end(), g.begin(), g.end());
            left -= static_cast<int>(g.size());
        }
    return out;
}

void GpuPlacement::take(const std::vector<int>& gpuList) {
    for (int g : gpuList) {
        if (g < 0 || g >= gpus() || !isFree(g))
            throw std::logic_error(fill("GPU %1 allocated twice", {std::to_string(g)}));
        m_busy[static_cast<std::size_t>(g)] = 1;
        --m_freePerNode[static_cast<std::size_t>(nodeOf(g))];
        --m_free;
    }
}

void GpuPlacement::release(const std::vector<int>& gpuList) {
    for (int g : gpuList) {
        if (g < 0 || g >= gpus() || isFree(g))
            throw std::logic_error(fill("GPU %1 released while free", {std::to_string(g)}));
        m_busy[static_cast<std::size_t>(g)] = 0;
        ++m_freePerNode[static_cast<std::size_t>(nodeOf(g))];
        ++m_free;
    }
}

int GpuPlacement::nodesSpanned(const std::vector<int>& gpuList) const {
    std::vector<int> nodes;
    for (int g : gpuList)
        nodes.push_back(nodeOf(g));
    std::sort(nodes.begin(), nodes.end());
    return static_cast<int>(std::unique(nodes.begin(), nodes.end()) - nodes.begin());
}

int GpuPlacement::leavesSpanned(const std::vector<int>& gpuList) const {
    std::vector<int> leaves;
    for (int g : gpuList)
        leaves.push_back(leafOf(nodeOf(g)));
    std::sort(leaves.begin(), leaves.end());
    return static_cast<int>(std::unique(leaves.begin(), leaves.end()) - leaves.begin());
}

int GpuPlacement::nodesNeeded(int n) const {
    return (n + gpusPerNode() - 1) / gpusPerNode();
}

int GpuPlacement::leavesNeeded(int n) const {
    return (nodesNeeded(n) + m_topology.nodesPerLeaf - 1) / m_topology.nodesPerLeaf;
}

int GpuPlacement::stranded(int smallestLocal, int fewestNodes) const {
    if (smallestLocal <= 0 && fewestNodes <= 0)
        return 0; // nothing waits: idle, not fragmented
    const bool bigFits = fewestNodes > 0 && wholeFreeNodes() >= fewestNodes;
    int out = 0;
    for (int node = 0; node < m_topology.nodes; ++node) {
        const int f = freeOn(node);
        const bool usable =
            (smallestLocal > 0 && f >= smallestLocal) || (bigFits && f == gpusPerNode());
        if (!usable)
            out += f;
    }
    return out;
}

int GpuPlacement::fragmentedFor(int n) const {
    int out = 0;
    for (int node = 0; node < m_topology.nodes; ++node) {
        const int f = freeOn(node);
        const bool usable = n <= gpusPerNode() ? f >= n : f == gpusPerNode();
        if (!usable)
            out += f;
    }
    return out;
}

double GpuPlacement::fragmentedGpus(const std::vector<std::pair<int, double>>& sizes) const {
    double out = 0.0;
    for (const auto& [n, share] : sizes)
        out += share * fragmentedFor(n);
    return out;
}

} // namespace wb
