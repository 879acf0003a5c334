#pragma once
// Count, total, mean and nearest-rank percentiles of a list of durations (ns), as the kernel
// and launch tables print them. Nearest rank: p-th percentile = the ⌈p/100 · n⌉-th smallest,
// a value that occurred (pandas' quantile, which HTA uses, interpolates between two).
#include <cstdint>
#include <vector>

namespace wb {

struct DurationStats {
    std::int64_t count = 0;
    double totalUs = 0.0, meanUs = 0.0, p50Us = 0.0, p99Us = 0.0, maxUs = 0.0;
};

DurationStats durationStats(std::vector<std::int64_t> ns);

} // namespace wb
