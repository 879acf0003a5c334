#include "analysis/kernel_breakdown.h"

#include <algorithm>
#include <map>

namespace wb {

const char* gpuActivityType(EventKind kind) {
    if (kind == EventKind::CommKernel)
        return "communication";
    if (kind == EventKind::Memcpy || kind == EventKind::Memset)
        return "memory";
    return "computation";
}

KernelBreakdown kernelBreakdown(const std::vector<RankInput>& ranks, const AnalysisRange& range) {
    KernelBreakdown out;
    for (const char* t : {"computation", "communication", "memory"})
        out.byType.push_back({.type = t, .count = 0, .totalUs = 0.0, .pct = 0.0});
    struct Durations {
        std::string type;
        std::vector<std::int64_t> ns;
    };
    std::map<std::string, Durations, std::less<>> byName;
    std::int64_t allNs = 0;
    for (const RankInput& r : ranks) {
        const TraceStore& s = *r.store;
        for (const StoredEvent& e : s.events()) {
            std::int64_t a = 0, b = 0;
            if (!isGpuActivity(e.kind) || e.phase != 'X' || !clipToRange(e, range, a, b))
                continue;
            const std::string type = gpuActivityType(e.kind);
            for (KernelTypeTime& t : out.byType)
                if (t.type == type) {
                    ++t.count;
                    t.totalUs += static_cast<double>(b - a) / 1000.0;
                }
            allNs += b - a;
            const std::string_view name = s.strings().text(e.name);
            auto it = byName.find(name);
            if (it == byName.end())
                it = byName.emplace(std::string(name), Durations{type, {}}).first;
            it->second.ns.push_back(b - a);
        }
    }
    const double allUs = static_cast<double>(allNs) / 1000.0;
    for (KernelTypeTime& t : out.byType)
        t.pct = allUs > 0.0 ? 100.0 * t.totalUs / allUs : 0.0;
    out.distinctKernels = static_cast<std::int64_t>(byName.size());
    for (auto& [name, d] : byName) {
        KernelTime k{
            .name = name, .type = d.type, .stats = durationStats(std::move(d.ns)), .pct = 0.0};
        k.pct = allUs > 0.0 ? 100.0 * k.stats.totalUs / allUs : 0.0;
        out.top.push_back(std::move(k));
    }
    // Ties by name, so the order never depends on the map or the platform.
    std::sort(out.top.begin(), out.top.end(), [](const KernelTime& a, const KernelTime& b) {
        return a.stats.totalUs != b.stats.totalUs ? a.stats.totalUs > b.stats.totalUs
                                                  : a.name < b.name;
    });
    if (out.top.size() > kAnalysisTopKernels)
        out.top.resize(kAnalysisTopKernels);
    return out;
}

} // namespace wb
