#pragma once
// Every analysis of `warpboard analyze` over the ranks of one job, each in its own file with
// its definitions and how they differ from HTA (Meta's HolisticTraceAnalysis):
//   step_breakdown.h        per rank and per ProfilerStep (the triage's figures)
//   temporal_breakdown.h    idle / compute / non-compute per rank
//   idle_breakdown.h        host wait / kernel wait / other per stream
//   kernel_breakdown.h      time by kernel type, top kernels with p50 / p99
//   launch_stats.h          CPU launch, GPU duration, launch delay, outliers
//   straggler_candidates.h  robust outliers in compute per step, with the wait as evidence
//   triage_verdict.h        the slowdown triage's verdict, as `import --summary` gives it
// Qt-free; the command line (app/cli/analyze_command.cpp) only prints what this returns.
#include "analysis/analysis_scope.h"
#include "analysis/analysis_table.h"
#include "analysis/idle_breakdown.h"
#include "analysis/kernel_breakdown.h"
#include "analysis/launch_stats.h"
#include "analysis/step_breakdown.h"
#include "analysis/straggler_candidates.h"
#include "analysis/temporal_breakdown.h"
#include "triage/triage_verdict.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

namespace wb {

struct TraceAnalysis {
    AnalysisRange range;
    std::vector<long> ranks;
    std::vector<RankBreakdown> perRank;
    std::vector<TemporalBreakdown> temporal;
    std::vector<StreamIdle> idle;
    KernelBreakdown kernels;
    LaunchStats launches;
    StragglerCandidates stragglers;
    TriageVerdict triage;
    // Made from a job summary (summary/summary_analysis.h): no timeline behind it, and idle,
    // launches and kernels are not held, so they stay empty rather than zero.
    bool fromSummary = false;

    // The tables in report order: per_rank, per_step, temporal_breakdown, idle_breakdown,
    // kernel_types, top_kernels, launch_per_kernel, launch_outliers, stragglers.
    std::vector<AnalysisTable> tables() const;
    // {"ranks", "range"?, "per_rank" (each with its "steps"), "temporal_breakdown",
    //  "idle_breakdown", "kernel_breakdown", "launch_stats", "stragglers", "triage"}
    nlohmann::ordered_json json() const;
};

// How a caller on another thread follows and stops a long analysis (the Traces workspace):
// `progress` gets the fraction done in [0, 1] as ranks and analyses finish; `cancelled` is
// polled between them, and once it answers true the analysis returns early, incomplete, for
// the caller to drop. Both may be empty.
struct AnalysisControl {
    std::function<void(double)> progress;
    std::function<bool()> cancelled;
};

// `ranks` in rank order; `worldSize` as triageVerdict takes it (0 when unknown).
TraceAnalysis analyseTraces(const std::vector<RankInput>& ranks, const AnalysisRange& range,
                            long worldSize, const AnalysisControl& control = {});

} // namespace wb
