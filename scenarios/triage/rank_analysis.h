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
};

struct Interval {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};

// Total length of the union of `intervals` (sorted in place).
std::int64_t unionLengthNs(std::vector<Interval>& intervals);

// Figures for every rank, in the order given.
std::vector<RankFigures> analyseRanks(const std::vector<RankInput>& ranks);

} // namespace wb
