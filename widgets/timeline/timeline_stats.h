#pragma once
// Statistics of the events in a selected time range, per name: count, total, mean, p50, p99,
// with the names ranked by total time. No Qt: tested as plain maths.
//
// Events overlapping the range count whole (their full duration), not clipped to it: a
// kernel's duration is a property of the kernel, and clipping would invent short kernels at
// the range's edges and skew p50/p99. So the total can exceed the range's length.
// Percentiles are nearest-rank: p of n sorted durations is the ceil(p/100 · n)-th.
#include "import/trace_store.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wb {

struct NameStats {
    std::string name;
    std::uint64_t count = 0;
    std::int64_t totalNs = 0;
    double meanNs = 0.0;
    std::int64_t p50Ns = 0;
    std::int64_t p99Ns = 0;
    bool operator==(const NameStats&) const = default;
};

struct RangeSummary {
    std::uint64_t count = 0;
    std::int64_t totalNs = 0;
    std::vector<NameStats> names; // by total time, largest first (ties: by name)
    std::size_t distinctNames = 0;
};

class RangeStatistics {
public:
    void add(std::string_view name, std::int64_t durNs);
    // Adds every event of `track` overlapping [t0, t1) (overlapsWindow), whole.
    void addTrack(const TraceStore& store, std::uint32_t track, std::int64_t t0, std::int64_t t1);
    // The `topNames` names with the most total time, and the totals over all names.
    RangeSummary summary(std::size_t topNames) const;
    void clear() { m_durations.clear(); }

    // Nearest-rank percentile of ascending `sorted` (empty: 0).
    static std::int64_t percentile(const std::vector<std::int64_t>& sorted, double p);

private:
    std::unordered_map<std::string, std::vector<std::int64_t>> m_durations;
};

} // namespace wb
