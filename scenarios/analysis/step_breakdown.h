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

// `assignments[i]` belongs to `ranks[i]`.
std::vector<RankBreakdown> breakdownRanks(const std::vector<RankInput>& ranks,
                                          const std::vector<StepAssignment>& assignments,
                                          const AnalysisRange& range);

} // namespace wb
