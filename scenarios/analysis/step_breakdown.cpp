#include "analysis/step_breakdown.h"

#include <algorithm>
#include <map>

namespace wb {

std::vector<RankBreakdown> breakdownRanks(const std::vector<RankInput>& ranks,
                                          const std::vector<StepAssignment>& assignments,
                                          const AnalysisRange& range) {
    std::vector<RankInput> whole;
    for (const RankInput& r : ranks)
        whole.push_back({.store = r.store,
                         .rank = r.rank,
                         .fromNs = range.fromNs,
                         .toNs = range.toNs,
                         .events = nullptr});
    const std::vector<RankFigures> figures = analyseRanks(whole);
    std::vector<RankBreakdown> out(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i)
        out[i].whole = figures[i];

    // One analyseRanks per step number, over the ranks that have that step, so collectives
    // are matched within the step. The masks live until the call returns.
    struct Member {
        std::size_t rank;
        int step;
    };
    std::map<long, std::vector<Member>> byNumber;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        for (std::size_t k = 0; k < assignments[i].steps.size(); ++k)
            byNumber[assignments[i].steps[k].number].push_back({i, static_cast<int>(k)});
    for (const auto& [number, members] : byNumber) {
        std::vector<std::vector<bool>> masks;
        masks.reserve(members.size());
        std::vector<RankInput> inputs;
        for (const Member& m : members) {
            const std::vector<int>& of = assignments[m.rank].stepOfEvent;
            std::vector<bool>& mask = masks.emplace_back(of.size(), false);
            for (std::size_t e = 0; e < of.size(); ++e)
                mask[e] = of[e] == m.step;
            inputs.push_back({.store = ranks[m.rank].store,
                              .rank = ranks[m.rank].rank,
                              .fromNs = range.fromNs,
                              .toNs = range.toNs,
                              .events = &mask});
        }
        const std::vector<RankFigures> stepFigures = analyseRanks(inputs);
        for (std::size_t k = 0; k < members.size(); ++k) {
            const ProfilerStep& step =
                assignments[members[k].rank].steps[static_cast<std::size_t>(members[k].step)];
            out[members[k].rank].steps.push_back(
                {.step = step,
                 .stepUs = static_cast<double>(step.endNs - step.startNs) / 1000.0,
                 .figures = stepFigures[k]});
        }
    }
    for (RankBreakdown& r : out)
        std::sort(r.steps.begin(), r.steps.end(), [](const StepFigures& a, const StepFigures& b) {
            return a.step.startNs < b.step.startNs;
        });
    return out;
}

} // namespace wb
