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

RankMeasures measureRank(const RankInput& in) {
    RankEvents e = collect(in);
    RankMeasures m;
    m.steps = static_cast<int>(e.stepNames.size());
    m.collectives = static_cast<int>(e.comm.size());
    m.calls = std::move(e.calls);
    if (e.all.empty())
        return m;
    m.active = true;
    m.firstNs = e.first;
    m.lastNs = e.last;
    std::vector<Interval> both = e.compute;
    both.insert(both.end(), e.comm.begin(), e.comm.end());
    m.computeNs = unionLengthNs(e.compute);
    m.commNs = unionLengthNs(e.comm);
    m.computeOrCommNs = unionLengthNs(both);
    m.busyNs = unionLengthNs(e.all);
    return m;
}

void ShortestCalls::merge(const ShortestCalls& other) {
    if (!other.hasRanks)
        return;
    if (!hasRanks) {
        *this = other;
        return;
    }
    // A kind only one side ran is unmatched for every rank.
    for (auto& [kind, best] : byKind)
        if (!other.byKind.contains(kind))
            best.clear();
    for (const auto& [kind, durs] : other.byKind) {
        auto [it, fresh] = byKind.try_emplace(kind);
        std::vector<std::int64_t>& best = it->second;
        if (fresh)
            continue; // stays empty
        best.resize(std::min(best.size(), durs.size()));
        for (std::size_t i = 0; i < best.size(); ++i)
            best[i] = std::min(best[i], durs[i]);
    }
}

void ShortestCalls::add(const RankMeasures& rank) {
    merge(ShortestCalls{.byKind = rank.calls, .hasRanks = true});
}

RankFigures rankFigures(const RankMeasures& m, long rank, const ShortestCalls& shortest) {
    RankFigures f;
    f.rank = rank;
    f.steps = m.steps;
    f.collectives = m.collectives;
    if (!m.active)
        return f;
    const std::int64_t overlap = m.computeNs + m.commNs - m.computeOrCommNs;
    std::int64_t wait = 0;
    for (const auto& [kind, durs] : m.calls) {
        const auto best = shortest.byKind.find(kind);
        if (best == shortest.byKind.end())
            continue;
        for (std::size_t k = 0; k < best->second.size() && k < durs.size(); ++k)
            wait += durs[k] - best->second[k];
    }
    f.windowUs = us(m.lastNs - m.firstNs);
    f.computeUs = us(m.computeNs);
    f.commUs = us(m.commNs);
    f.overlapUs = us(overlap);
    f.overlapPct =
        m.commNs > 0 ? 100.0 * static_cast<double>(overlap) / static_cast<double>(m.commNs) : 0.0;
    f.exposedCommUs = us(m.commNs - overlap);
    f.waitUs = us(wait);
    f.idleUs = us(m.lastNs - m.firstNs - m.busyNs);
    return f;
}

std::vector<RankFigures> analyseRanks(const std::vector<RankInput>& ranks) {
    std::vector<RankMeasures> measures;
    measures.reserve(ranks.size());
    ShortestCalls shortest;
    for (const RankInput& in : ranks) {
        measures.push_back(measureRank(in));
        shortest.add(measures.back());
    }
    std::vector<RankFigures> out;
    out.reserve(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i)
        out.push_back(rankFigures(measures[i], ranks[i].rank, shortest));
    return out;
}

} // namespace wb
