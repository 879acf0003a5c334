#include "analysis/gpu_launches.h"

#include "analysis/analysis_scope.h"

namespace wb {

namespace {

// The event of `kindWanted` on `track` that holds the instant `ts`: the latest-starting one,
// so a nested runtime call wins over its parent.
std::uint32_t anEventAt(const TraceStore& s, std::uint32_t track, std::int64_t ts, bool wantGpu) {
    const auto [first, last] = s.overlapping(track, ts, ts + 1);
    std::uint32_t found = kNoLaunch;
    for (std::uint32_t i = first; i < last; ++i) {
        const StoredEvent& e = s.events()[i];
        const bool kindOk = wantGpu ? isGpuActivity(e.kind) : e.kind == EventKind::Runtime;
        if (!kindOk || e.phase != 'X' || e.startNs > ts)
            continue;
        if (e.endNs() <= ts && !(e.startNs == ts))
            continue;
        if (found == kNoLaunch || e.startNs >= s.events()[found].startNs)
            found = i;
    }
    return found;
}

} // namespace

std::vector<std::uint32_t> launchOfEvents(const TraceStore& s) {
    std::vector<std::uint32_t> launch(s.events().size(), kNoLaunch);
    const auto& points = s.flowPoints();
    for (const FlowLink& link : s.flowLinks()) {
        const FlowPoint& from = points[link.from];
        const FlowPoint& to = points[link.to];
        if (from.phase != 's' || from.track >= s.tracks().size() || to.track >= s.tracks().size())
            continue;
        const std::uint32_t runtime = anEventAt(s, from.track, from.tsNs, false);
        const std::uint32_t gpu = anEventAt(s, to.track, to.tsNs, true);
        if (runtime != kNoLaunch && gpu != kNoLaunch)
            launch[gpu] = runtime;
    }
    return launch;
}

} // namespace wb
