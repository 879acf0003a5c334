#include "analysis/duration_stats.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

double anNearestRankUs(const std::vector<std::int64_t>& sorted, double p) {
    const auto n = static_cast<double>(sorted.size());
    auto k = static_cast<std::size_t>(std::ceil(p / 100.0 * n));
    k = std::clamp<std::size_t>(k, 1, sorted.size());
    return static_cast<double>(sorted[k - 1]) / 1000.0;
}

} // namespace

DurationStats durationStats(std::vector<std::int64_t> ns) {
    DurationStats d;
    if (ns.empty())
        return d;
    std::sort(ns.begin(), ns.end());
    std::int64_t total = 0;
    for (const std::int64_t v : ns)
        total += v;
    d.count = static_cast<std::int64_t>(ns.size());
    d.totalUs = static_cast<double>(total) / 1000.0;
    d.meanUs = d.totalUs / static_cast<double>(ns.size());
    d.p50Us = anNearestRankUs(ns, 50.0);
    d.p99Us = anNearestRankUs(ns, 99.0);
    d.maxUs = static_cast<double>(ns.back()) / 1000.0;
    return d;
}

} // namespace wb
