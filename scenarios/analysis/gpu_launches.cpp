#include "analysis/gpu_launches.h"

#include "analysis/analysis_scope.h"

#include <unordered_map>

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

// GPU events the flows left unmatched, matched by the correlation id both ends carry
// (args.correlation): traces that were filtered or sampled keep the ids but lose the flows.
// Where several runtime events share an id (a runtime call and the driver call inside it),
// the earliest-starting one is the launch, the same call a flow starts from.
void matchByCorrelation(const TraceStore& s, std::vector<std::uint32_t>& launch) {
    const auto& events = s.events();
    bool anyMissing = false;
    for (std::uint32_t i = 0; i < events.size() && !anyMissing; ++i)
        anyMissing =
            isGpuActivity(events[i].kind) && launch[i] == kNoLaunch && events[i].correlation != 0;
    if (!anyMissing)
        return;
    std::unordered_map<std::uint32_t, std::uint32_t> runtimeOf;
    for (std::uint32_t i = 0; i < events.size(); ++i) {
        const StoredEvent& e = events[i];
        if (e.kind != EventKind::Runtime || e.phase != 'X' || e.correlation == 0)
            continue;
        const auto [it, added] = runtimeOf.try_emplace(e.correlation, i);
        if (!added && e.startNs < events[it->second].startNs)
            it->second = i;
    }
    for (std::uint32_t i = 0; i < events.size(); ++i) {
        const StoredEvent& e = events[i];
        if (!isGpuActivity(e.kind) || launch[i] != kNoLaunch || e.correlation == 0)
            continue;
        if (const auto it = runtimeOf.find(e.correlation); it != runtimeOf.end())
            launch[i] = it->second;
    }
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
    matchByCorrelation(s, launch);
    return launch;
}

} // namespace wb
