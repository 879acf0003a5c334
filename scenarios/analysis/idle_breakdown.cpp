#include "analysis/idle_breakdown.h"

#include "analysis/gpu_launches.h"

#include <algorithm>

namespace wb {

std::vector<StreamIdle> idleBreakdown(const RankInput& rank,
                                      const std::vector<std::uint32_t>& launches,
                                      const AnalysisRange& range) {
    const TraceStore& s = *rank.store;
    std::vector<StreamIdle> out;
    for (const TraceTrack& track : s.tracks()) {
        StreamIdle row;
        row.rank = rank.rank;
        bool any = false;
        std::int64_t first = 0, busyEnd = 0, busy = 0;
        std::int64_t hostNs = 0, kernelNs = 0, otherNs = 0;
        // Events of a track are sorted by start (TraceStore::finish).
        for (std::uint32_t i = track.begin; i < track.end; ++i) {
            const StoredEvent& e = s.events()[i];
            std::int64_t a = 0, b = 0;
            if (!isGpuActivity(e.kind) || e.phase != 'X' || !clipToRange(e, range, a, b))
                continue;
            if (!any) {
                any = true;
                first = a;
                busyEnd = b;
                busy = b - a;
                continue;
            }
            if (a > busyEnd) {
                const std::int64_t gap = a - busyEnd;
                ++row.gaps;
                const std::uint32_t l = launches[i];
                if (l == kNoLaunch)
                    otherNs += gap;
                else if (s.events()[l].startNs < busyEnd)
                    kernelNs += gap;
                else
                    hostNs += gap;
                busy += b - a;
                busyEnd = b;
            } else if (b > busyEnd) {
                busy += b - busyEnd;
                busyEnd = b;
            }
        }
        if (!any)
            continue;
        const std::string& procName = s.processes()[track.process].name;
        row.stream = !track.name.empty() ? track.name
                                         : std::string("pid ")
                                               .append(s.processes()[track.process].pid)
                                               .append(" tid ")
                                               .append(track.tid);
        if (!procName.empty() && !track.name.empty())
            row.stream = std::string(procName).append(" ").append(track.name);
        row.spanUs = static_cast<double>(busyEnd - first) / 1000.0;
        row.busyUs = static_cast<double>(busy) / 1000.0;
        row.idleUs = static_cast<double>(busyEnd - first - busy) / 1000.0;
        row.hostWaitUs = static_cast<double>(hostNs) / 1000.0;
        row.kernelWaitUs = static_cast<double>(kernelNs) / 1000.0;
        row.otherUs = static_cast<double>(otherNs) / 1000.0;
        out.push_back(row);
    }
    return out;
}

} // namespace wb
