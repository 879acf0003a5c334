#pragma once
// A job summary (job_summary.h) as the TraceAnalysis the Traces workspace's panels draw, so
// the app opens a `*.wbsum.json` of thousands of ranks with the panels it uses for traces.
// Filled from the summary's own figures: per rank and per ProfilerStep (the steps carry no
// timestamps: a summary has no timeline), the temporal breakdown from the whole figures
// (temporalBreakdown, the same formula), the straggler rows and candidates as summarised,
// and the triage's verdict as summarised, with the measures its rules compared recomputed
// from the whole figures (triageVerdict, the same rules). What a summary does not hold stays
// empty and `fromSummary` says so: stream idle, launch statistics, and the pooled kernel
// table (a summary keeps only each rank's top kernels, whose percentiles do not pool).
// Qt-free.
#include "analysis/trace_analysis.h"
#include "summary/job_summary.h"

namespace wb {

TraceAnalysis analysisFromSummary(const JobSummary& summary);

} // namespace wb
