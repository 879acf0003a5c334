#include "analysis/step_breakdown.h"

#include <algorithm>
#include <map>

namespace wb {

RankStepMeasures measureRankSteps(const RankInput& rank, const StepAssignment& assignment,
                                  const AnalysisRange& range) {
    RankStepMeasures out;
    out.whole = measureRank({.store = rank.store,
                             .rank = rank.rank,
                             .fromNs = range.fromNs,
                             .toNs = range.toNs,
                             .events = nullptr});
    // Each step over its own GPU events, so its collectives can be matched within the step.
    const std::vector<int>& of = assignment.stepOfEvent;
    std::vector<bool> mask(of.size(), false);
    for (std::size_t k = 0; k < assignment.steps.size(); ++k) {
        for (std::size_t e = 0; e < of.size(); ++e)
            mask[e] = of[e] == static_cast<int>(k);
        out.steps.push_back({.step = assignment.steps[k],
                             .measures = measureRank({.store = rank.store,
                                                      .rank = rank.rank,
                                                      .fromNs = range.fromNs,
                                                      .toNs = range.toNs,
                                                      .events = &mask})});
    }
    return out;
}

void JobShortestCalls::add(const RankStepMeasures& rank) {
    whole.add(rank.whole);
    for (const StepMeasures& s : rank.steps)
        byStep[s.step.number].add(s.measures);
}

void JobShortestCalls::merge(const JobShortestCalls& other) {
    whole.merge(other.whole);
    for (const auto& [number, calls] : other.byStep)
        byStep[number].merge(calls);
}

RankBreakdown breakdownRank(const RankStepMeasures& measures, long rank,
                            const JobShortestCalls& shortest) {
    RankBreakdown out;
    out.whole = rankFigures(measures.whole, rank, shortest.whole);
    // Built in step-number order, then sorted by start, as the steps were always listed.
    std::vector<const StepMeasures*> byNumber;
    for (const StepMeasures& s : measures.steps)
        byNumber.push_back(&s);
    std::stable_sort(byNumber.begin(), byNumber.end(),
                     [](const StepMeasures* a, const StepMeasures* b) {
                         return a->step.number < b->step.number;
                     });
    for (const StepMeasures* s : byNumber)
        out.steps.push_back(
            {.step = s->step,
             .stepUs = static_cast<double>(s->step.endNs - s->step.startNs) / 1000.0,
             .figures = rankFigures(s->measures, rank, shortest.byStep.at(s->step.number))});
    std::sort(out.steps.begin(), out.steps.end(), [](const StepFigures& a, const StepFigures& b) {
        return a.step.startNs < b.step.startNs;
    });
    return out;
}

std::vector<RankBreakdown> breakdownRanks(const std::vector<RankInput>& ranks,
                                          const std::vector<StepAssignment>& assignments,
                                          const AnalysisRange& range) {
    std::vector<RankStepMeasures> measures;
    JobShortestCalls shortest;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        measures.push_back(measureRankSteps(ranks[i], assignments[i], range));
        shortest.add(measures.back());
    }
    std::vector<RankBreakdown> out;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        out.push_back(breakdownRank(measures[i], ranks[i].rank, shortest));
    return out;
}

} // namespace wb
