#include "import/trace_store.h"

#include <algorithm>
#include <numeric>

namespace wb {

std::uint32_t TraceStore::process(std::string_view pid) {
    std::string key(pid);
    if (auto it = m_processIds.find(key); it != m_processIds.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_processes.size());
    TraceProcess p;
    p.pid = key;
    m_processes.push_back(std::move(p));
    m_processIds.emplace(std::move(key), id);
    return id;
}

std::uint32_t TraceStore::track(std::string_view pid, std::string_view tid) {
    // '\x1f' cannot appear in a number and separates the two parts of string ids.
    std::string key(pid);
    key += '\x1f';
    key += tid;
    if (auto it = m_trackIds.find(key); it != m_trackIds.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_tracks.size());
    TraceTrack t;
    t.process = process(pid);
    t.tid = std::string(tid);
    m_tracks.push_back(std::move(t));
    m_trackIds.emplace(std::move(key), id);
    return id;
}

std::uint32_t TraceStore::addEvent(const StoredEvent& e) {
    m_events.push_back(e);
    return static_cast<std::uint32_t>(m_events.size() - 1);
}

std::uint32_t TraceStore::addKernel(const KernelInfo& k) {
    m_kernels.push_back(k);
    return static_cast<std::uint32_t>(m_kernels.size() - 1);
}

void TraceStore::noteTime(std::int64_t startNs, std::int64_t endNs) {
    m_minNs = std::min(m_minNs, startNs);
    m_maxNs = std::max(m_maxNs, std::max(startNs, endNs));
}

void TraceStore::finish() {
    // Per track by start; longer first on ties so parents come before their children.
    std::vector<std::uint32_t> order(m_events.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const StoredEvent& x = m_events[a];
        const StoredEvent& y = m_events[b];
        if (x.track != y.track)
            return x.track < y.track;
        if (x.startNs != y.startNs)
            return x.startNs < y.startNs;
        return x.durNs > y.durNs;
    });
    std::vector<StoredEvent> sorted;
    sorted.reserve(m_events.size());
    for (const std::uint32_t i : order)
        sorted.push_back(m_events[i]);
    m_events.swap(sorted);
    m_maxEndNs.assign(m_events.size(), 0);
    for (auto& t : m_tracks)
        t.begin = t.end = 0;
    for (std::uint32_t i = 0; i < m_events.size(); ++i) {
        StoredEvent& e = m_events[i];
        if (e.kernel != StoredEvent::kNoKernel)
            m_kernels[e.kernel].event = i;
        TraceTrack& t = m_tracks[e.track];
        const bool first = t.begin == t.end;
        if (first)
            t.begin = i;
        t.end = i + 1;
        m_maxEndNs[i] = first ? e.endNs() : std::max(m_maxEndNs[i - 1], e.endNs());
    }

    // Flows: points with one id, in time order, chained from each 's' through 't's to 'f'.
    // Kineto writes 'f' before 's' and leaves many 'f' without an 's': those stay unlinked.
    std::vector<std::uint32_t> flows(m_flowPoints.size());
    std::iota(flows.begin(), flows.end(), 0u);
    auto rank = [](char ph) { return ph == 's' ? 0 : ph == 't' ? 1 : 2; };
    std::stable_sort(flows.begin(), flows.end(), [&](std::uint32_t a, std::uint32_t b) {
        const FlowPoint& x = m_flowPoints[a];
        const FlowPoint& y = m_flowPoints[b];
        if (x.textId != y.textId)
            return x.textId < y.textId;
        if (x.id != y.id)
            return x.id < y.id;
        if (x.tsNs != y.tsNs)
            return x.tsNs < y.tsNs;
        return rank(x.phase) < rank(y.phase);
    });
    m_flowLinks.clear();
    m_dangling = 0;
    std::size_t i = 0;
    while (i < flows.size()) {
        std::size_t j = i;
        while (j < flows.size() && m_flowPoints[flows[j]].id == m_flowPoints[flows[i]].id &&
               m_flowPoints[flows[j]].textId == m_flowPoints[flows[i]].textId)
            ++j;
        bool open = false;
        std::uint32_t last = 0;
        for (std::size_t k = i; k < j; ++k) {
            const FlowPoint& p = m_flowPoints[flows[k]];
            if (p.phase == 's') {
                if (open)
                    ++m_dangling; // the previous chain never finished
                open = true;
                last = flows[k];
            } else if (!open) {
                ++m_dangling;
            } else {
                m_flowLinks.push_back({last, flows[k]});
                last = flows[k];
                if (p.phase == 'f')
                    open = false;
            }
        }
        if (open)
            ++m_dangling;
        i = j;
    }
}

std::pair<std::uint32_t, std::uint32_t>
TraceStore::overlapping(std::uint32_t track, std::int64_t t0, std::int64_t t1) const {
    const TraceTrack& t = m_tracks[track];
    // The first event whose running max end reaches t0: nothing before it can overlap.
    const auto endsBegin = m_maxEndNs.begin() + t.begin;
    const auto endsEnd = m_maxEndNs.begin() + t.end;
    const auto first = std::lower_bound(endsBegin, endsEnd, t0);
    const auto from = static_cast<std::uint32_t>(first - m_maxEndNs.begin());
    // The first event starting at or after t1: nothing from there on overlaps.
    const auto last =
        std::lower_bound(m_events.begin() + from, m_events.begin() + t.end, t1,
                         [](const StoredEvent& e, std::int64_t limit) { return e.startNs < limit; });
    return {from, static_cast<std::uint32_t>(last - m_events.begin())};
}

} // namespace wb
