#include "timeline/timeline_stats.h"

#include "timeline/timeline_slice.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace wb {

void RangeStatistics::add(std::string_view name, std::int64_t durNs) {
    m_durations[std::string(name)].push_back(durNs);
}

void RangeStatistics::addTrack(const TraceStore& store, std::uint32_t track, std::int64_t t0,
                               std::int64_t t1) {
    if (t1 <= t0 || track >= store.tracks().size())
        return;
    const auto [first, last] = store.overlapping(track, t0, t1);
    // Grouped by interned id first: one string lookup per name, not per event.
    std::unordered_map<std::uint32_t, std::vector<std::int64_t>> byId;
    for (std::uint32_t i = first; i < last; ++i) {
        const StoredEvent& e = store.events()[i];
        if (overlapsWindow(e, t0, t1))
            byId[e.name].push_back(e.durNs);
    }
    for (auto& [id, durations] : byId) {
        std::vector<std::int64_t>& to = m_durations[std::string(store.strings().text(id))];
        to.insert(to.end(), durations.begin(), durations.end());
    }
}

std::int64_t RangeStatistics::percentile(const std::vector<std::int64_t>& sorted, double p) {
    if (sorted.empty())
        return 0;
    const double n = static_cast<double>(sorted.size());
    const auto rank = static_cast<std::size_t>(std::clamp(std::ceil(p / 100.0 * n), 1.0, n));
    return sorted[rank - 1];
}

RangeSummary RangeStatistics::summary(std::size_t topNames) const {
    RangeSummary s;
    s.distinctNames = m_durations.size();
    std::vector<NameStats> all;
    all.reserve(m_durations.size());
    for (const auto& [name, durations] : m_durations) {
        NameStats n;
        n.name = name;
        n.count = durations.size();
        n.totalNs = std::accumulate(durations.begin(), durations.end(), std::int64_t{0});
        n.meanNs = static_cast<double>(n.totalNs) / static_cast<double>(n.count);
        s.count += n.count;
        s.totalNs += n.totalNs;
        all.push_back(std::move(n));
    }
    const auto byTotal = [](const NameStats& a, const NameStats& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    };
    const std::size_t keep = std::min(topNames, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                      byTotal);
    all.resize(keep);
    // Percentiles only for the names shown: sorting every name's durations is wasted work.
    for (NameStats& n : all) {
        std::vector<std::int64_t> sorted = m_durations.at(n.name);
        std::sort(sorted.begin(), sorted.end());
        n.p50Ns = percentile(sorted, 50.0);
        n.p99Ns = percentile(sorted, 99.0);
    }
    s.names = std::move(all);
    return s;
}

} // namespace wb
