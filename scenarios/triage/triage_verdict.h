#pragma once
// The verdict of the slowdown triage (slowdown-triage) from the per-rank figures (rank_analysis.h).
// Rules, checked in this order (thresholds are the constants in triage_verdict.cpp):
//   straggler  (≥ 2 ranks, NCCL kernels present) the rank with the most compute time
//              exceeds the median of the other ranks by more than 10 %, it waits least in
//              collectives, and the others' median wait exceeds its own by at least
//              half of that compute excess: the others sit in the all-reduce while it
//              computes.
//   overlap    compute uniform (every rank within 10 % of the median), communication
//              material (median comm ≥ 5 % of the window) and the median hidden share
//              under 15 %, with exposed comm ≥ 5 % of the window: communication is
//              serialized after compute. Hidden share = overlap ÷ min(comm, compute), the
//              part of what could overlap that did; overlap % (÷ comm) alone drops when a
//              very slow fabric stretches comm far past compute, with nothing serialized.
//   fabric     compute uniform, overlap present (median hidden share ≥ 15 %), and exposed
//              communication large and uniform: every rank ≥ 15 % of its window exposed,
//              the smallest exposed ≥ 60 % of the largest, and the median wait under a third
//              of the median exposed comm (the time goes to transfers, not to waiting for a
//              rank).
//              Traces carry no message sizes, so the rule cannot compare with bytes/link
//              rate; a uniformly slow collective every rank sees is what is left.
//   none       otherwise (including a single rank, or no NCCL kernels at all).
// Only NCCL's kernel names are used (through EventKind::CommKernel); compute kernels are
// whatever else ran on the GPU.
#include "triage/rank_analysis.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

struct TriageVerdict {
    std::string verdict = "none"; // none | straggler | fabric | overlap
    std::optional<long> stragglerRank;
    std::string evidence;
};

// `worldSize` is the job's size when the traces say it (distributedInfo), 0 when unknown.
// With fewer ranks than that, the rules still apply to the ranks present and the evidence
// says that a rank outside the set can hold the collectives unseen (wait is measured against
// the ranks present only).
TriageVerdict triageVerdict(const std::vector<RankFigures>& ranks, long worldSize = 0);

} // namespace wb
