#include "summary/summary_analysis.h"

namespace wb {

TraceAnalysis analysisFromSummary(const JobSummary& summary) {
    TraceAnalysis a;
    a.fromSummary = true;
    std::vector<RankFigures> whole;
    a.ranks.reserve(summary.ranks.size());
    a.perRank.reserve(summary.ranks.size());
    a.temporal.reserve(summary.ranks.size());
    whole.reserve(summary.ranks.size());
    for (const JobSummaryRank& r : summary.ranks) {
        a.ranks.push_back(r.whole.rank);
        whole.push_back(r.whole);
        RankBreakdown b;
        b.whole = r.whole;
        b.steps.reserve(r.steps.size());
        for (const JobSummaryStep& s : r.steps) {
            StepFigures f;
            f.step.number = s.number;
            f.stepUs = s.stepUs;
            f.figures = s.figures;
            b.steps.push_back(f);
        }
        a.perRank.push_back(std::move(b));
        a.temporal.push_back(temporalBreakdown(r.whole));
        // The straggler table's rows are the ranks with steps (as stragglerCandidates makes
        // them), its wait the rank's over the whole trace.
        if (!r.steps.empty())
            a.stragglers.ranks.push_back({.rank = r.whole.rank,
                                          .medianComputeUs = r.medianComputeUs,
                                          .robustZ = r.robustZ,
                                          .waitUs = r.whole.waitUs,
                                          .candidate = r.candidate});
    }
    a.stragglers.medianComputeUs = summary.stragglerMedianComputeUs;
    a.stragglers.thresholdUs = summary.stragglerThresholdUs;
    a.stragglers.candidates = summary.stragglerCandidates;
    a.stragglers.evidence = summary.stragglerEvidence;
    if (!whole.empty())
        a.triage.measures = triageVerdict(whole, summary.worldSize).measures;
    a.triage.verdict = summary.verdict;
    a.triage.stragglerRank = summary.stragglerRank;
    a.triage.evidence = summary.evidence;
    return a;
}

} // namespace wb
