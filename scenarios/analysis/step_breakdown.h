#pragma once
// Per rank and per ProfilerStep: compute, communication, exposed communication, overlap %,
// idle, wait in collectives and step time. The figures are the triage's (rank_analysis.h,
// the same functions, so `import --summary` and `analyze` agree on a whole trace), computed
// once over each rank's range and once over each step's GPU events (profiler_steps.h):
//   step time   the CPU ProfilerStep annotation's duration (clipped to the range); for a
//               trace without steps, its span
//   window      first to last GPU activity of the step's events; idle is measured inside it
//   wait        collectives matched across ranks within the same step number, so a step's
//               wait compares like with like
// Times are exact nanoseconds shown as µs; HTA rounds the trace to whole µs first.
#include "analysis/analysis_scope.h"
#include "analysis/profiler_steps.h"
#include "triage/rank_analysis.h"

#include <map>
#include <vector>

namespace wb {

struct StepFigures {
    ProfilerStep step;
    double stepUs = 0.0;
    RankFigures figures; // rank, window, compute, comm, overlap, exposed, wait, idle
};

struct RankBreakdown {
    RankFigures whole; // over the range
    std::vector<StepFigures> steps;
};

// `assignments[i]` belongs to `ranks[i]`. measureRankSteps on each rank, their shortest
// calls, then breakdownRank on each.
std::vector<RankBreakdown> breakdownRanks(const std::vector<RankInput>& ranks,
                                          const std::vector<StepAssignment>& assignments,
                                          const AnalysisRange& range);

// breakdownRanks in its two parts (as analyseRanks, rank_analysis.h): what needs the rank's
// trace, and what needs only every rank's compact results.
struct StepMeasures {
    ProfilerStep step;
    RankMeasures measures;
};
struct RankStepMeasures {
    RankMeasures whole;
    std::vector<StepMeasures> steps; // in the assignment's order (by start)
};
RankStepMeasures measureRankSteps(const RankInput& rank, const StepAssignment& assignment,
                                  const AnalysisRange& range);

// The shortest calls over the whole range and per step number, over every rank added.
struct JobShortestCalls {
    ShortestCalls whole;
    std::map<long, ShortestCalls> byStep; // by ProfilerStep number
    void add(const RankStepMeasures& rank);
    void merge(const JobShortestCalls& other);
    bool operator==(const JobShortestCalls&) const = default;
};

RankBreakdown breakdownRank(const RankStepMeasures& measures, long rank,
                            const JobShortestCalls& shortest);

} // namespace wb
