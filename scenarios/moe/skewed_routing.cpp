#include "moe/skewed_routing.h"

#include "engine/seeded_random.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace wb {

std::vector<long long> skewedExpertLoads(long long tokens, int experts, int topK, double skew) {
    expertCapacity(tokens, experts, topK, 1.0); // validates T, E and k
    if (!std::isfinite(skew) || skew < 0.0)
        throw std::invalid_argument("skew must be a finite number ≥ 0");
    const auto n = static_cast<std::size_t>(experts);
    const double t = static_cast<double>(tokens);
    const double total = static_cast<double>(topK) * t;
    std::vector<double> weight(n);
    for (std::size_t i = 0; i < n; ++i)
        weight[i] = std::pow(static_cast<double>(i + 1), -skew);
    // Water-filling: weights fall with i, so the experts capped at T are a prefix.
    std::vector<double> share(n, 0.0);
    std::size_t capped = 0;
    for (;;) {
        const double rest = total - static_cast<double>(capped) * t;
        const double w = std::accumulate(weight.begin() + static_cast<std::ptrdiff_t>(capped),
                                         weight.end(), 0.0);
        for (std::size_t i = capped; i < n; ++i)
            share[i] = rest * weight[i] / w;
        if (capped == n || share[capped] <= t)
            break;
        share[capped] = t;
        ++capped;
    }
    for (std::size_t i = 0; i < capped; ++i)
        share[i] = t;
    // Largest remainder: floors, then one more to the largest fractions (lower index on ties).
    std::vector<long long> load(n);
    long long assigned = 0;
    for (std::size_t i = 0; i < n; ++i) {
        load[i] = std::min(tokens, static_cast<long long>(std::floor(share[i])));
        assigned += load[i];
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return share[a] - std::floor(share[a]) > share[b] - std::floor(share[b]);
    });
    long long missing = static_cast<long long>(topK) * tokens - assigned;
    for (std::size_t j = 0; missing > 0; j = (j + 1) % n)
        if (load[order[j]] < tokens) {
            ++load[order[j]];
            --missing;
        }
    return load;
}

ExpertDispatch dispatchCounts(long long tokens, int experts, int topK, double capacityFactor,
                              double skew) {
    ExpertDispatch d;
    d.capacity = expertCapacity(tokens, experts, topK, capacityFactor);
    d.routed = skewedExpertLoads(tokens, experts, topK, skew);
    d.tokens = tokens;
    d.tokensFullyDropped = -1;
    for (long long load : d.routed) {
        d.kept.push_back(std::min(load, d.capacity));
        d.dropped.push_back(load - d.kept.back());
        d.droppedAssignments += d.dropped.back();
    }
    return d;
}

ExpertDispatch dispatchSkewed(long long tokens, int experts, int topK, double capacityFactor,
                              double skew, std::uint64_t seed) {
    const long long capacity = expertCapacity(tokens, experts, topK, capacityFactor);
    const std::vector<long long> load = skewedExpertLoads(tokens, experts, topK, skew);
    // end[e]: one past expert e's run in the sequence of k·T assignments.
    std::vector<long long> end(load.size());
    std::partial_sum(load.begin(), load.end(), end.begin());
    // Arrival order: a seeded Fisher–Yates shuffle of the tokens.
    std::vector<long long> arrival(static_cast<std::size_t>(tokens));
    std::iota(arrival.begin(), arrival.end(), 0LL);
    SeededRandom rng(seed);
    for (std::size_t i = arrival.size(); i > 1; --i)
        std::swap(arrival[i - 1], arrival[rng.below(i)]);
    CapacityDispatcher d(experts, capacity);
    for (long long token : arrival) {
        for (long long slot = 0; slot < topK; ++slot) {
            const long long a = slot * tokens + token;
            const auto e = std::upper_bound(end.begin(), end.end(), a) - end.begin();
            d.admit(static_cast<int>(e));
        }
        d.finishToken();
    }
    return d.result();
}

} // namespace wb
