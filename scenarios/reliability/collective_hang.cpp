#include "reliability/collective_hang.h"

#include "engine/number_format.h"
#include "engine/seeded_random.h"
#include "engine/sentence.h"
#include "reliability/argument_checks.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace wb {

const std::vector<std::string>& hangFaultNames() {
    static const std::vector<std::string> names = {"none", "dead-rank", "skip", "size", "order"};
    return names;
}

std::string hangFaultName(HangFault f) {
    return hangFaultNames()[static_cast<std::size_t>(f)];
}

HangFault parseHangFault(const std::string& name) {
    return parseNamed<HangFault>(hangFaultNames(), name, "fault");
}

std::string callStateName(CallState s) {
    switch (s) {
    case CallState::Completed:
        return "completed";
    case CallState::Started:
        return "started";
    case CallState::NotIssued:
        return "not issued";
    }
    return "not issued";
}

void HangConfig::validate() const {
    if (ranks < 3 || ranks > 65536)
        throw std::invalid_argument("ranks must be 3…65536 (a majority must be able to name "
                                    "the odd one out)");
    if (collectives < 2 || collectives > 100000)
        throw std::invalid_argument("collectives must be 2…100000");
    if (culprit < 0 || culprit >= ranks)
        throw std::invalid_argument(fill("culprit rank %1 is not among the %2 ranks",
                                         {std::to_string(culprit), std::to_string(ranks)}));
    // Swapping needs a call after the fault; the others may hit any call.
    const int lastFault = fault == HangFault::OrderMismatch ? collectives - 2 : collectives - 1;
    if (faultAt < 0 || faultAt > lastFault)
        throw std::invalid_argument(
            fill("fault position must be 0…%1", {std::to_string(lastFault)}));
    if (smCount < 1 || smCount > 100000)
        throw std::invalid_argument("SM count must be 1…100000");
    if (channels < 1 || channels > smCount)
        throw std::invalid_argument("channels must be 1…SM count");
}

CallState RankFlightRecord::stateAt(int seq) const {
    if (seq < 0 || seq >= static_cast<int>(entries.size()))
        return CallState::NotIssued;
    return entries[static_cast<std::size_t>(seq)].state;
}

namespace {

std::string callText(const CollectiveCall& c) {
    return fill("%1 of %2", {c.op, formatBytes(static_cast<double>(c.bytes))});
}

std::string rankList(const std::vector<int>& ranks) {
    std::string s;
    const std::size_t shown = std::min<std::size_t>(ranks.size(), 8);
    for (std::size_t i = 0; i < shown; ++i)
        s += (i ? ", " : "") + std::to_string(ranks[i]);
    if (ranks.size() > shown)
        s += fill(" and %1 more", {std::to_string(ranks.size() - shown)});
    return s;
}

std::string ranksWord(std::size_t n) {
    return n == 1 ? "rank" : "ranks";
}

} // namespace

HangSimulation simulateHang(const HangConfig& c, std::uint64_t seed) {
    c.validate();
    SeededRandom g(seed);
    static const char* ops[] = {"allreduce", "allgather", "reducescatter", "broadcast"};
    auto draw = [&] {
        CollectiveCall call;
        call.op = ops[g.next() % 4];
        call.bytes = 1'000'000LL << (g.next() % 9); // 1 MB … 256 MB, gradient-bucket sizes
        return call;
    };
    HangSimulation sim;
    sim.config = c;
    for (int i = 0; i < c.collectives; ++i)
        sim.program.push_back(draw());
    const auto at = static_cast<std::size_t>(c.faultAt);
    // A swap of two equal calls would change nothing: make the pair differ.
    if (c.fault == HangFault::OrderMismatch)
        while (sim.program[at + 1] == sim.program[at])
            sim.program[at + 1] = draw();

    std::vector<std::vector<CollectiveCall>> calls(static_cast<std::size_t>(c.ranks), sim.program);
    auto& bad = calls[static_cast<std::size_t>(c.culprit)];
    switch (c.fault) {
    case HangFault::None:
        break;
    case HangFault::DeadRank:
        bad.resize(at);
        break;
    case HangFault::SkippedCollective:
        bad.erase(bad.begin() + static_cast<std::ptrdiff_t>(at));
        break;
    case HangFault::SizeMismatch:
        bad[at].bytes *= 2;
        break;
    case HangFault::OrderMismatch:
        std::swap(bad[at], bad[at + 1]);
        break;
    }

    // Collective s completes when every rank called it with the same op and size; the first
    // that does not is where every rank that reached it stays.
    std::size_t longest = 0;
    for (const auto& r : calls)
        longest = std::max(longest, r.size());
    std::size_t s = 0;
    for (; s < longest; ++s) {
        bool complete = true;
        for (const auto& r : calls)
            complete = complete && s < r.size() && r[s] == calls.front()[s];
        if (!complete)
            break;
    }
    sim.hung = s < longest;
    sim.stuckSeq = sim.hung ? static_cast<int>(s) : -1;
    const double spinning = static_cast<double>(c.channels) / c.smCount;
    for (int r = 0; r < c.ranks; ++r) {
        const auto& mine = calls[static_cast<std::size_t>(r)];
        RankFlightRecord rec;
        rec.rank = r;
        rec.alive = !(c.fault == HangFault::DeadRank && r == c.culprit);
        const std::size_t done = std::min(s, mine.size());
        for (std::size_t i = 0; i < done; ++i)
            rec.entries.push_back({static_cast<int>(i), mine[i], CallState::Completed});
        if (sim.hung && s < mine.size()) {
            rec.entries.push_back({static_cast<int>(s), mine[s], CallState::Started});
            // Spinning in a collective that never completes: a kernel is always resident.
            rec.gpuUtil = 100.0;
            rec.smActivity = spinning;
        }
        sim.ranks.push_back(rec);
    }
    return sim;
}

HangTriage triageHang(const std::vector<RankFlightRecord>& ranks) {
    HangTriage t;
    std::vector<int> all;
    for (const auto& r : ranks)
        all.push_back(r.rank);
    // 1. The first sequence number not completed everywhere.
    auto completedPrefix = [](const RankFlightRecord& r) {
        int n = 0;
        while (n < static_cast<int>(r.entries.size()) &&
               r.entries[static_cast<std::size_t>(n)].state == CallState::Completed)
            ++n;
        return n;
    };
    int stuck = -1, longest = 0;
    for (const auto& r : ranks) {
        const int n = completedPrefix(r);
        stuck = stuck < 0 ? n : std::min(stuck, n);
        longest = std::max(longest, static_cast<int>(r.entries.size()));
    }
    if (ranks.empty() || stuck >= longest) {
        t.steps.push_back({TriageKind::NoHang,
                           "No hang in the recorders",
                           "Every rank completed every collective it recorded, and all recorded "
                           "the same number: the flight recorders show no stuck collective.",
                           {}});
        return t;
    }
    std::vector<int> started, notIssued;
    for (const auto& r : ranks)
        (r.stateAt(stuck) == CallState::NotIssued ? notIssued : started).push_back(r.rank);
    t.stuckSeq = stuck;
    t.steps.push_back(
        {TriageKind::FirstIncomplete, "Find the first collective that never completed",
         fill("Sequence number %1 is the lowest one that did not complete on every rank. %2 %3 "
              "entered it and spin there: NVML GPU-Util reads %4 for a resident NCCL kernel, "
              "so utilisation cannot tell victims from the culprit. Every rank is still a "
              "suspect.",
              {std::to_string(stuck), std::to_string(started.size()), ranksWord(started.size()),
               formatPercent(100.0)}),
         all});

    // 2. Ranks that never issued it: everyone else waits for them.
    if (!notIssued.empty()) {
        std::string why =
            fill("%1 %2 (%3) never called collective #%4; the %5 others are waiting for %6.",
                 {std::to_string(notIssued.size()), ranksWord(notIssued.size()),
                  rankList(notIssued), std::to_string(stuck), std::to_string(started.size()),
                  notIssued.size() == 1 ? "it" : "them"});
        t.steps.push_back({TriageKind::NeverIssued,
                           fill("Who never issued #%1", {std::to_string(stuck)}), why, notIssued});
        t.culprits = notIssued;
    } else {
        t.steps.push_back({TriageKind::AllIssued,
                           fill("Every rank issued #%1", {std::to_string(stuck)}),
                           fill("All ranks called collective #%1, yet it did not complete: the "
                                "calls must disagree.",
                                {std::to_string(stuck)}),
                           all});
        // 3. The calls at the stuck number: the majority's is presumed right.
        std::map<std::pair<std::string, long long>, std::vector<int>> bySignature;
        for (const auto& r : ranks) {
            const FlightEntry& e = r.entries[static_cast<std::size_t>(stuck)];
            bySignature[{e.call.op, e.call.bytes}].push_back(r.rank);
        }
        const std::vector<int>* majority = nullptr;
        bool tie = false;
        CollectiveCall majorityCall;
        for (const auto& [sig, members] : bySignature) {
            if (!majority || members.size() > majority->size()) {
                majority = &members;
                majorityCall = {sig.first, sig.second};
                tie = false;
            } else if (members.size() == majority->size()) {
                tie = true;
            }
        }
        if (bySignature.size() == 1 || tie) {
            t.steps.push_back({TriageKind::CompareCalls,
                               fill("Compare the calls at #%1", {std::to_string(stuck)}),
                               bySignature.size() == 1
                                   ? "Every rank called the same op and size: the recorders "
                                     "cannot narrow it further (look at the network or a "
                                     "kernel that never finishes)."
                                   : "No call has a majority: the recorders cannot say which "
                                     "side is wrong.",
                               all});
            t.culprits = all;
            return t;
        }
        std::vector<int> odd;
        std::string detail;
        for (const auto& r : ranks) {
            const FlightEntry& e = r.entries[static_cast<std::size_t>(stuck)];
            if (e.call == majorityCall)
                continue;
            odd.push_back(r.rank);
            if (detail.empty())
                detail = fill(e.call.op != majorityCall.op
                                  ? "rank %1 called %2 (a different op: its calls are out of "
                                    "order or one was skipped)"
                                  : "rank %1 called %2 (the same op, a different size: "
                                    "mismatched shapes, or its calls are out of order)",
                              {std::to_string(r.rank), callText(e.call)});
        }
        t.steps.push_back({TriageKind::CompareCalls,
                           fill("Compare the calls at #%1", {std::to_string(stuck)}),
                           fill("%1 ranks called %2 at #%3; %4.",
                                {std::to_string(majority->size()), callText(majorityCall),
                                 std::to_string(stuck), detail}),
                           odd});
        t.culprits = odd;
    }
    if (t.culprits.size() == 1) {
        // The culprit came from these records, so the search always finds it.
        const auto r = std::find_if(ranks.begin(), ranks.end(), [&](const RankFlightRecord& rec) {
            return rec.rank == t.culprits.front();
        });
        std::string why;
        if (r->stateAt(stuck) == CallState::NotIssued) {
            const std::string last =
                r->last() ? fill("Its last entry is #%1 (%2), %3.",
                                 {std::to_string(r->last()->seq), callText(r->last()->call),
                                  callStateName(r->last()->state)})
                          : std::string("It never called a collective.");
            why = fill("Rank %1 is the culprit. %2 %3",
                       {std::to_string(r->rank), last,
                        r->alive ? "The process is alive but outside NCCL: py-spy dump --pid "
                                   "prints its Python stacks, which say what it does instead."
                                 : "Its process is gone: read its own log and the host's kernel "
                                   "log (dmesg) for the crash."});
        } else {
            why = fill("Rank %1 is the culprit. Its call disagrees with everyone else's: py-spy "
                       "dump it and a healthy rank, and compare where each called from (a "
                       "rank-dependent branch, uneven data).",
                       {std::to_string(r->rank)});
        }
        t.steps.push_back({TriageKind::Culprit, fill("Culprit: rank %1", {std::to_string(r->rank)}),
                           why, t.culprits});
    }
    return t;
}

std::vector<std::vector<int>> identicalRankGroups(const std::vector<RankFlightRecord>& ranks) {
    std::vector<std::vector<int>> groups;
    std::vector<const RankFlightRecord*> firsts; // each group's first member
    for (const RankFlightRecord& r : ranks) {
        std::size_t g = 0;
        for (; g < firsts.size(); ++g) {
            const RankFlightRecord& o = *firsts[g];
            if (o.alive == r.alive && o.entries == r.entries && o.gpuUtil == r.gpuUtil &&
                o.smActivity == r.smActivity)
                break;
        }
        if (g == firsts.size()) {
            firsts.push_back(&r);
            groups.emplace_back();
        }
        groups[g].push_back(r.rank);
    }
    return groups;
}

} // namespace wb
