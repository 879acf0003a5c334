#include "triage/rank_analysis.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>

namespace wb {

namespace {

constexpr double kNsPerUs = 1000.0;

double us(std::int64_t ns) {
    return static_cast<double>(ns) / kNsPerUs;
}

struct RankEvents {
    std::vector<Interval> compute, comm, all;
    // NCCL kernels by collective kind, in order of start: their durations.
    std::map<std::string, std::vector<std::int64_t>> calls;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    std::set<std::uint32_t> stepNames; // "ProfilerStep#N" (CPU and GPU annotations alike)
};

RankEvents collect(const RankInput& in) {
    const TraceStore& s = *in.store;
    RankEvents r;
    struct Call {
        std::int64_t start;
        std::int64_t dur;
        std::string kind;
    };
    std::vector<Call> calls;
    for (std::size_t i = 0; i < s.events().size(); ++i) {
        const StoredEvent& e = s.events()[i];
        if (e.kind == EventKind::Annotation || e.kind == EventKind::CpuOp) {
            if (s.strings().text(e.name).starts_with("ProfilerStep#"))
                r.stepNames.insert(e.name);
            continue;
        }
        if (e.kind != EventKind::Kernel && e.kind != EventKind::CommKernel &&
            e.kind != EventKind::Memcpy && e.kind != EventKind::Memset)
            continue;
        if (e.phase != 'X' || (in.events && !(*in.events)[i]))
            continue;
        if (e.endNs() < in.fromNs || e.startNs >= in.toNs)
            continue;
        const Interval iv{std::max(e.startNs, in.fromNs), std::min(e.endNs(), in.toNs)};
        r.all.push_back(iv);
        r.first = std::min(r.first, iv.startNs);
        r.last = std::max(r.last, iv.endNs);
        if (e.kind == EventKind::Kernel) {
            r.compute.push_back(iv);
        } else if (e.kind == EventKind::CommKernel) {
            r.comm.push_back(iv);
            std::string kind = "nccl";
            if (e.kernel != StoredEvent::kNoKernel)
                kind = std::string(s.strings().text(s.kernels()[e.kernel].collective));
            calls.push_back({iv.startNs, iv.endNs - iv.startNs, std::move(kind)});
        }
    }
    std::stable_sort(calls.begin(), calls.end(),
                     [](const Call& a, const Call& b) { return a.start < b.start; });
    for (const Call& c : calls)
        r.calls[c.kind].push_back(c.dur);
    return r;
}

} // namespace

std::int64_t unionLengthNs(std::vector<Interval>& v) {
    std::sort(v.begin(), v.end(),
              [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; });
    std::int64_t total = 0;
    std::int64_t curStart = 0, curEnd = 0;
    bool open = false;
    for (const Interval& iv : v) {
        if (iv.endNs <= iv.startNs)
            continue;
        if (!open || iv.startNs > curEnd) {
            if (open)
                total += curEnd - curStart;
            curStart = iv.startNs;
            curEnd = iv.endNs;
            open = true;
        } else {
            curEnd = std::max(curEnd, iv.endNs);
        }
    }
    if (open)
        total += curEnd - curStart;
    return total;
}

std::vector<RankFigures> analyseRanks(const std::vector<RankInput>& ranks) {
    std::vector<RankEvents> events;
    events.reserve(ranks.size());
    for (const RankInput& in : ranks)
        events.push_back(collect(in));

    // The shortest duration of each matched collective across ranks.
    std::map<std::string, std::vector<std::int64_t>> shortest;
    for (const RankEvents& e : events) {
        for (const auto& [kind, durs] : e.calls) {
            auto [it, fresh] = shortest.try_emplace(kind, durs);
            if (fresh)
                continue;
            std::vector<std::int64_t>& best = it->second;
            best.resize(std::min(best.size(), durs.size()));
            for (std::size_t i = 0; i < best.size(); ++i)
                best[i] = std::min(best[i], durs[i]);
        }
    }
    // A kind some rank never ran cannot be matched.
    for (auto& [kind, best] : shortest)
        for (const RankEvents& e : events)
            if (!e.calls.contains(kind))
                best.clear();

    std::vector<RankFigures> out;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        RankEvents& e = events[i];
        RankFigures f;
        f.rank = ranks[i].rank;
        f.steps = static_cast<int>(e.stepNames.size());
        f.collectives = static_cast<int>(e.comm.size());
        if (e.all.empty()) {
            out.push_back(f);
            continue;
        }
        std::vector<Interval> both = e.compute;
        both.insert(both.end(), e.comm.begin(), e.comm.end());
        const std::int64_t compute = unionLengthNs(e.compute);
        const std::int64_t comm = unionLengthNs(e.comm);
        const std::int64_t computeOrComm = unionLengthNs(both);
        const std::int64_t busy = unionLengthNs(e.all);
        const std::int64_t overlap = compute + comm - computeOrComm;
        std::int64_t wait = 0;
        for (const auto& [kind, durs] : e.calls) {
            const std::vector<std::int64_t>& best = shortest[kind];
            for (std::size_t k = 0; k < best.size() && k < durs.size(); ++k)
                wait += durs[k] - best[k];
        }
        f.windowUs = us(e.last - e.first);
        f.computeUs = us(compute);
        f.commUs = us(comm);
        f.overlapUs = us(overlap);
        f.overlapPct =
            comm > 0 ? 100.0 * static_cast<double>(overlap) / static_cast<double>(comm) : 0.0;
        f.exposedCommUs = us(comm - overlap);
        f.waitUs = us(wait);
        f.idleUs = us(e.last - e.first - busy);
        out.push_back(f);
    }
    return out;
}

} // namespace wb
