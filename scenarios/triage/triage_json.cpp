#include "triage/triage_json.h"

namespace wb {

nlohmann::ordered_json rankFiguresJson(const RankFigures& f) {
    nlohmann::ordered_json o;
    o["rank"] = f.rank;
    for (const RankFigureKey& k : kRankFigureKeys)
        o[k.key] = f.*k.field;
    return o;
}

void putTriageJson(nlohmann::ordered_json& out, const TriageVerdict& verdict,
                   const std::vector<RankFigures>& figures) {
    out["verdict"] = verdict.verdict;
    out["straggler_rank"] = verdict.stragglerRank ? nlohmann::ordered_json(*verdict.stragglerRank)
                                                  : nlohmann::ordered_json(nullptr);
    out["evidence"] = verdict.evidence;
    out["per_rank"] = nlohmann::ordered_json::array();
    for (const RankFigures& f : figures)
        out["per_rank"].push_back(rankFiguresJson(f));
}

} // namespace wb
