#pragma once
// Which GPUs of a cluster are free, and where a job of n GPUs may go under two placement
// rules: naive first-fit (the first node with room; a larger job on the lowest-numbered free
// GPUs, wherever they are) and topology-aware packing (a job that fits one node goes inside one
// NVLink domain, best-fit so whole nodes stay free; a larger job takes whole nodes under as few
// leaf switches as possible). Also the fragmentation gauge: free GPUs that no waiting job can use
// at full speed.
#include "parallel/cluster_topology.h"

#include <utility>
#include <vector>

namespace wb {

class GpuPlacement {
public:
    explicit GpuPlacement(const ClusterTopology& t); // throws std::invalid_argument

    int gpus() const { return static_cast<int>(m_busy.size()); }
    int freeGpus() const { return m_free; }
    int freeOn(int node) const { return m_freePerNode[static_cast<std::size_t>(node)]; }
    int wholeFreeNodes() const;
    int mostFreeOnOneNode() const;
    // packed(n) would succeed: O(1) given the two counts above, so a scheduling pass can skip
    // jobs that cannot start without building a placement.
    bool canPack(int n, int mostFreeOnOneNode, int wholeFreeNodes) const;
    bool canFirstFit(int n, int mostFreeOnOneNode) const;
    bool isFree(int gpu) const { return !m_busy[static_cast<std::size_t>(gpu)]; }

    // Empty when the job cannot be placed under the rule. First fit: a job of ≤ one node's
    // GPUs on the first node with room; a larger one on the lowest-numbered free GPUs,
    // scattered over partly used nodes if need be.
    std::vector<int> firstFit(int n) const;
    std::vector<int> packed(int n) const;

    // Throws std::logic_error when a GPU is taken twice or released while free: the
    // simulation's conservation invariant.
    void take(const std::vector<int>& gpus);
    void release(const std::vector<int>& gpus);

    int nodesSpanned(const std::vector<int>& gpus) const;
    int leavesSpanned(const std::vector<int>& gpus) const;
    // The fewest nodes and leaves n GPUs can occupy: the span a job needs at full speed.
    int nodesNeeded(int n) const;
    int leavesNeeded(int n) const;

    // Free GPUs no waiting job could use at full speed: a job of ≤ one node's GPUs needs that
    // many free on one node (`smallestLocal`, 0 if none waits); a larger one needs whole free
    // nodes (`fewestNodes`, 0 if none waits). One yardstick for every policy.
    int stranded(int smallestLocal, int fewestNodes) const;

    // Fragmentation as FGD defines it (Weng et al., USENIX ATC '23): the free GPUs of the
    // nodes a task of `n` GPUs cannot use. FGD's tasks fit one node, so a node is a fragment
    // for them when it has fewer than n free; for a job larger than a node (our extension) a
    // node counts only when it is wholly free. Weighted by how often each size arrives, it is
    // the expected fragment of the target workload (`fragmentedGpus`).
    int fragmentedFor(int n) const;
    // sizes: (GPUs, share of the workload), shares summing to 1.
    double fragmentedGpus(const std::vector<std::pair<int, double>>& sizes) const;

    int gpusPerNode() const { return m_topology.gpusPerNode; }
    int nodeOf(int gpu) const { return gpu / m_topology.gpusPerNode; }
    int leafOf(int node) const { return node / m_topology.nodesPerLeaf; }

private:
    std::vector<int> gpusOnNode(int node, int n) const; // the first n free GPUs of the node

    ClusterTopology m_topology;
    std::vector<char> m_busy;
    std::vector<int> m_freePerNode;
    int m_free = 0;
};

} // namespace wb
