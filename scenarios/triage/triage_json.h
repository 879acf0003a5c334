#pragma once
// The triage as JSON: one rank's figures and the job's verdict with every rank's figures,
// written once for `warpboard import --summary --json` and warpboard-summarize's job summary,
// so the two agree key for key.
#include "triage/rank_analysis.h"
#include "triage/triage_verdict.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace wb {

// {"rank", "compute_us", "comm_us", "wait_us", "overlap_pct", "exposed_comm_us", "idle_us",
//  "window_us"}
nlohmann::ordered_json rankFiguresJson(const RankFigures& f);

// Sets "verdict", "straggler_rank" (null when none), "evidence" and "per_rank" (each rank's
// rankFiguresJson, in the order given) in `out`.
void putTriageJson(nlohmann::ordered_json& out, const TriageVerdict& verdict,
                   const std::vector<RankFigures>& figures);

} // namespace wb
