#pragma once
// The triage as JSON: one rank's figures and the job's verdict with every rank's figures,
// written once for `warpboard import --summary --json` and warpboard-summarize's job summary,
// so the two agree key for key.
#include "triage/rank_analysis.h"
#include "triage/triage_verdict.h"

#include <array>
#include <nlohmann/json.hpp>
#include <vector>

namespace wb {

// The keys of one rank's figures after "rank", in the order they are written, with the field
// each holds: the one list the writer and the job summary's reader share.
struct RankFigureKey {
    const char* key;
    double RankFigures::*field;
};
inline constexpr std::array<RankFigureKey, 7> kRankFigureKeys = {{
    {"compute_us", &RankFigures::computeUs},
    {"comm_us", &RankFigures::commUs},
    {"wait_us", &RankFigures::waitUs},
    {"overlap_pct", &RankFigures::overlapPct},
    {"exposed_comm_us", &RankFigures::exposedCommUs},
    {"idle_us", &RankFigures::idleUs},
    {"window_us", &RankFigures::windowUs},
}};

// {"rank", then kRankFigureKeys}
nlohmann::ordered_json rankFiguresJson(const RankFigures& f);

// Sets "verdict", "straggler_rank" (null when none), "evidence" and "per_rank" (each rank's
// rankFiguresJson, in the order given) in `out`.
void putTriageJson(nlohmann::ordered_json& out, const TriageVerdict& verdict,
                   const std::vector<RankFigures>& figures);

} // namespace wb
