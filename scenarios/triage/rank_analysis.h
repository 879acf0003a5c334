#pragma once
// Per-rank figures of the slowdown triage (slowdown-triage), computed from the GPU activity of each
// rank's trace. Definitions (all in µs of that rank's own clock, so clock skew between hosts
// never matters):
//   window     first to last GPU activity (kernels, memcpy, memset) of the rank
//   compute    length of the union of compute-kernel intervals (every stream): two kernels
//              running at once count once
//   comm       length of the union of NCCL kernel intervals
//   overlap    comm hidden under compute: |compute ∩ comm| = compute + comm − |compute ∪ comm|;
//              overlap % = overlap / comm × 100 (0 when there is no comm)
//   exposed    comm − overlap: communication nothing else hides
//   idle       window − |union of all GPU activity|
//   wait       time spent inside collectives waiting for other ranks. Collectives are
//              matched across ranks by kind (AllReduce, SendRecv, ...) and order of start
//              on each rank; all ranks of a collective finish together, so the rank that
//              entered last has the shortest kernel and its duration is the transfer.
//              wait = Σ (own duration − shortest duration of the same collective across
//              ranks). Only durations are compared, never timestamps across hosts.
//              With one rank, or a kind whose counts differ, the surplus calls count 0.
#include "import/trace_store.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace wb {

struct RankInput {
    const TraceStore* store = nullptr;
    long rank = 0;
    // An optional scope (warpboard analyze: --range, one ProfilerStep): GPU intervals are
    // clipped to [fromNs, toNs) and, with `events` set, only the events it marks (by index
    // into store->events()) count. The defaults take the whole trace, as the triage does.
    std::int64_t fromNs = std::numeric_limits<std::int64_t>::min();
    std::int64_t toNs = std::numeric_limits<std::int64_t>::max();
    const std::vector<bool>* events = nullptr;
};

struct RankFigures {
    long rank = 0;
    double windowUs = 0.0;
    double computeUs = 0.0;
    double commUs = 0.0;
    double overlapUs = 0.0;
    double overlapPct = 0.0;
    double exposedCommUs = 0.0;
    double waitUs = 0.0;
    double idleUs = 0.0;
    int collectives = 0; // NCCL kernels
    int steps = 0;       // ProfilerStep annotations (0 when the trace has none)
    bool operator==(const RankFigures&) const = default;
};

struct Interval {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};

// Total length of the union of `intervals` (sorted in place).
std::int64_t unionLengthNs(std::vector<Interval>& intervals);

// Figures for every rank, in the order given: measureRank on each, the ranks' shortest calls,
// then rankFigures on each.
std::vector<RankFigures> analyseRanks(const std::vector<RankInput>& ranks);

// analyseRanks in its two parts, so the part that reads a trace can run where the trace is
// (warpboard-summarize's processes) and only these compact results travel.
// One rank's measurements: everything of its figures but the wait, plus the durations of its
// NCCL calls by collective kind in order of start, from which the wait is found.
struct RankMeasures {
    bool active = false; // any GPU activity in scope (otherwise the figures are zero)
    std::int64_t firstNs = 0, lastNs = 0;
    std::int64_t computeNs = 0, commNs = 0, computeOrCommNs = 0, busyNs = 0;
    int collectives = 0;
    int steps = 0;
    std::map<std::string, std::vector<std::int64_t>> calls;
};
RankMeasures measureRank(const RankInput& rank);

// The cross-rank part of the wait: per collective kind, the shortest duration of each call
// over the ranks added; a kind some rank never ran is kept empty (it cannot be matched).
// merge() is associative and commutative, so groups of ranks can be reduced on their own and
// then combined, with the same result as adding every rank to one.
struct ShortestCalls {
    std::map<std::string, std::vector<std::int64_t>> byKind;
    bool hasRanks = false;
    void add(const RankMeasures& rank);
    void merge(const ShortestCalls& other);
    bool operator==(const ShortestCalls&) const = default;
};

// One rank's figures from its measurements and the shortest calls of the ranks it is
// compared with (itself included).
RankFigures rankFigures(const RankMeasures& m, long rank, const ShortestCalls& shortest);

} // namespace wb
