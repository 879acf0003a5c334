#pragma once
// Straggler candidates across ranks. In a synchronous job every rank's step takes as long as
// the slowest's (the collectives hold the fast ones), so step time cannot point at the
// straggler; its compute can. Each rank's compute per ProfilerStep (step_breakdown.h) goes
// through the reliability model's robust rule (straggler_detection.h: median over the ranks'
// medians + k·1.4826·MAD, at least minExcess above the median). The evidence beside each
// candidate is its wait in collectives against the others' median: a straggler makes the
// others wait and waits least itself. HTA has no such table (it compares ranks in its
// comm/comp overlap and per-rank breakdowns); the triage verdict (triage_verdict.h) is the
// job-level conclusion drawn from the same figures.
#include "analysis/step_breakdown.h"

#include <string>
#include <vector>

namespace wb {

inline constexpr double kStragglerMadK = 3.5;
inline constexpr double kStragglerMinExcess = 0.05;

struct RankStragglerRow {
    long rank = 0;
    double medianComputeUs = 0.0; // per step
    double robustZ = 0.0;
    double waitUs = 0.0; // over the range
    bool candidate = false;
};

struct StragglerCandidates {
    std::vector<RankStragglerRow> ranks;
    double medianComputeUs = 0.0; // over the ranks' medians
    double thresholdUs = 0.0;
    std::vector<long> candidates;
    std::vector<std::string> evidence; // one line per candidate
};

StragglerCandidates stragglerCandidates(const std::vector<RankBreakdown>& ranks);

} // namespace wb
