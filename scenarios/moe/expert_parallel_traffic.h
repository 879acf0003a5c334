#pragma once
// Expert parallelism's all-to-all (GShard, Lepikhin et al. arXiv:2006.16668, FACTS.md §8): E
// experts split evenly over N GPUs, E/N each, experts 0…E/N−1 on GPU 0 and so on. Every GPU
// holds T/N of the batch's tokens and, as the router sees it, the same routing distribution
// as the whole batch. The dispatch sends each token's hidden vector (h values of b bytes) to
// each of its k experts; the share of a GPU's assignments that lands on its own experts stays,
// the rest crosses GPUs. The combine sends the expert outputs back: the same bytes again.
//
//   GPU g sends      (T/N)·k·h·b · (1 − s_g)        s_g: load share of GPU g's experts
//   GPU g receives   (T/N)·k·h·b · s_g · (N − 1)
//   all GPUs send    T·k·h·b · (N − 1)/N            (Σ s_g = 1; the same for any skew)
//
// Every routed assignment is sent (dropless dispatch, as DeepSeek-V3 and MegaBlocks do;
// Switch's padded buffers of E × capacity would send the padding too).
#include "parallel/cluster_topology.h"

#include <vector>

namespace wb {

struct ExpertParallelSetup {
    int gpus = 8;             // EP degree N; must divide the experts
    int hidden = 4096;        // h, values per token vector
    double bytesPerValue = 2; // b (BF16)
    ClusterTopology topology; // nodes × GPUs the N GPUs fill, ranks 0…N−1
};

struct ExpertParallelTraffic {
    std::vector<double> sentPerGpu;     // dispatch bytes leaving each GPU
    std::vector<double> receivedPerGpu; // dispatch bytes arriving at each GPU
    double dispatchBytes = 0.0;         // all GPUs, crossing GPU boundaries
    double combineBytes = 0.0;          // the return trip: equal to dispatch
    double totalBytes = 0.0;            // dispatch + combine
    // The busiest GPU sets the pace: each all-to-all is costed by clusterCollective as if every
    // GPU moved what the busiest one sends or receives.
    double dispatchTimeS = 0.0;
    double combineTimeS = 0.0;
    double timeS = 0.0;
    // timeS split into its α part ((N−1) message latencies per all-to-all) and its bytes/B
    // part: the larger says whether the exchange is latency- or bandwidth-bound.
    double latencyS = 0.0;
    double bandwidthS = 0.0;
    LinkClass bottleneck = LinkClass::NvLink;
};

// loads: routed assignments per expert (they sum to k·T). tokens > 0 costs a batch of that
// many tokens routed with the loads' shares (a small simulated batch stands for a large one:
// only each GPU's share of the assignments enters the formulas above); 0 takes T = Σ loads/k.
// Throws std::invalid_argument when the GPUs do not divide the experts, or the topology
// cannot hold them.
ExpertParallelTraffic expertParallelAllToAll(const std::vector<long long>& loads, int topK,
                                             const ExpertParallelSetup& setup, double tokens = 0.0);

} // namespace wb
