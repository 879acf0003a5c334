#include "moe/expert_parallel_traffic.h"

#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace wb {

ExpertParallelTraffic expertParallelAllToAll(const std::vector<long long>& loads, int topK,
                                             const ExpertParallelSetup& setup, double tokens) {
    const int experts = static_cast<int>(loads.size());
    const int n = setup.gpus;
    if (n < 1 || experts < 1 || experts % n != 0)
        throw std::invalid_argument(fill("expert-parallel GPUs (%1) must divide the experts (%2)",
                                         {std::to_string(n), std::to_string(experts)}));
    if (topK < 1)
        throw std::invalid_argument("top-k must be at least 1");
    if (setup.hidden < 1 || !(setup.bytesPerValue > 0.0))
        throw std::invalid_argument("hidden size and bytes per value must be positive");
    if (n > setup.topology.gpus())
        throw std::invalid_argument("the topology has fewer GPUs than the expert-parallel group");
    const double assignments =
        static_cast<double>(std::accumulate(loads.begin(), loads.end(), 0LL));
    if (!(assignments > 0.0))
        throw std::invalid_argument("no tokens routed");
    if (!(tokens >= 0.0) || !std::isfinite(tokens))
        throw std::invalid_argument("tokens must be a finite number ≥ 0");
    if (tokens == 0.0)
        tokens = assignments / topK;
    const double perGpuBytes = tokens / n * topK * setup.hidden * setup.bytesPerValue;
    const int perGpu = experts / n;

    ExpertParallelTraffic out;
    const auto gpus = static_cast<std::size_t>(n);
    out.sentPerGpu.assign(gpus, 0.0);
    out.receivedPerGpu.assign(gpus, 0.0);
    for (std::size_t g = 0; g < gpus; ++g) {
        long long own = 0;
        for (int e = 0; e < perGpu; ++e)
            own += loads[g * static_cast<std::size_t>(perGpu) + static_cast<std::size_t>(e)];
        const double share = static_cast<double>(own) / assignments;
        out.sentPerGpu[g] = perGpuBytes * (1.0 - share);
        out.receivedPerGpu[g] = perGpuBytes * share * (n - 1);
        out.dispatchBytes += out.sentPerGpu[g];
    }
    out.combineBytes = out.dispatchBytes;
    out.totalBytes = out.dispatchBytes + out.combineBytes;
    if (n == 1)
        return out; // nothing leaves the only GPU
    const double busiest =
        std::max(*std::max_element(out.sentPerGpu.begin(), out.sentPerGpu.end()),
                 *std::max_element(out.receivedPerGpu.begin(), out.receivedPerGpu.end()));
    // clusterCollective's all-to-all buffer K sends (N−1)/N·K per rank.
    const double buffer = busiest * n / (n - 1);
    const ClusterCollectiveCost c =
        clusterCollective(setup.topology, Collective::AllToAll, {0, n, 1}, buffer);
    out.dispatchTimeS = c.cost.timeS;
    out.combineTimeS = c.cost.timeS;
    out.timeS = out.dispatchTimeS + out.combineTimeS;
    out.latencyS = 2.0 * c.cost.latencyS;
    out.bandwidthS = 2.0 * c.cost.bandwidthS;
    out.bottleneck = c.span.bottleneck;
    return out;
}

} // namespace wb
