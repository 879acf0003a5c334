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
//   none       otherwise (including a single rank, or no NCCL kernels at all; the evidence
//              tells a set without any CUDA/ROCm kernel from one with compute only).
// Only NCCL's kernel names are used (through EventKind::CommKernel); compute kernels are
// whatever else ran on the GPU.
#include "triage/rank_analysis.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

// The rules' thresholds, here so that a slide quoting a rule quotes the value it applies.
inline constexpr double kTriageStragglerExcess = 0.10; // compute above the others' median
// A straggler holds every collective for about its whole compute excess, so the others'
// extra wait should be comparable to it; half leaves room for slack hidden by overlap.
inline constexpr double kTriageWaitShareOfExcess = 0.5;     // others' extra wait vs the excess
inline constexpr double kTriageUniformCompute = 0.10;       // every rank within this of the median
inline constexpr double kTriageMaterialComm = 0.05;         // median comm / window
inline constexpr double kTriageNoOverlapPct = 15.0;         // median hidden share below: serialized
inline constexpr double kTriageExposedShare = 0.05;         // exposed comm worth fixing (overlap)
inline constexpr double kTriageFabricExposed = 0.15;        // exposed / window on every rank
inline constexpr double kTriageFabricUniform = 0.60;        // smallest exposed / largest exposed
inline constexpr double kTriageFabricWaitShare = 1.0 / 3.0; // median wait / median exposed

// What the rules compared, for a slide that shows a rule with the values it saw. Filled as
// far as the rules got (a set without NCCL kernels stops after the medians).
struct TriageMeasures {
    long heaviestRank = -1;         // the rank with the most compute (straggler candidate)
    double heaviestComputeUs = 0.0; // its compute
    double othersComputeUs = 0.0;   // the median compute of the other ranks
    double excessPct = 0.0;         // its compute above theirs, % of theirs
    double heaviestWaitUs = 0.0;    // its wait in collectives
    double othersWaitUs = 0.0;      // the other ranks' median wait
    double minComputeUs = 0.0, maxComputeUs = 0.0;
    bool computeUniform = false; // every rank within kTriageUniformCompute of the median
    double medianWindowUs = 0.0;
    double medianCommUs = 0.0;
    double medianOverlapPct = 0.0; // overlap ÷ comm
    double medianHiddenPct = 0.0;  // overlap ÷ min(comm, compute)
    double medianExposedUs = 0.0;
    double minExposedShare = 0.0; // the least exposed ÷ window over the ranks, fraction
    double medianWaitUs = 0.0;
};

struct TriageVerdict {
    std::string verdict = "none"; // none | straggler | fabric | overlap
    std::optional<long> stragglerRank;
    std::string evidence;
    TriageMeasures measures;
};

// `worldSize` is the job's size when the traces say it (distributedInfo), 0 when unknown.
// With fewer ranks than that, the rules still apply to the ranks present and the evidence
// says that a rank outside the set can hold the collectives unseen (wait is measured against
// the ranks present only).
TriageVerdict triageVerdict(const std::vector<RankFigures>& ranks, long worldSize = 0);

} // namespace wb
