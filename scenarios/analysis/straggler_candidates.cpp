#include "analysis/straggler_candidates.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "reliability/straggler_detection.h"

namespace wb {

StragglerCandidates stragglerCandidates(const std::vector<RankBreakdown>& ranks) {
    StragglerCandidates out;
    std::vector<std::vector<double>> computePerStep;
    std::vector<const RankBreakdown*> used;
    for (const RankBreakdown& r : ranks) {
        std::vector<double> values;
        for (const StepFigures& s : r.steps)
            values.push_back(s.figures.computeUs);
        if (values.empty())
            continue;
        computePerStep.push_back(std::move(values));
        used.push_back(&r);
    }
    if (used.size() < 2) // one rank has nobody to straggle behind
        return out;
    const StragglerReport report =
        detectStragglers(computePerStep, kStragglerMadK, kStragglerMinExcess);
    out.medianComputeUs = report.medianS;
    out.thresholdUs = report.thresholdS;
    std::vector<double> waits;
    for (const RankBreakdown* r : used)
        waits.push_back(r->whole.waitUs);
    for (std::size_t i = 0; i < used.size(); ++i) {
        const RankStepStats& st = report.ranks[i];
        RankStragglerRow row{.rank = used[i]->whole.rank,
                             .medianComputeUs = st.medianS,
                             .robustZ = st.robustZ,
                             .waitUs = used[i]->whole.waitUs,
                             .candidate = st.straggler};
        out.ranks.push_back(row);
        if (!st.straggler)
            continue;
        out.candidates.push_back(row.rank);
        std::vector<double> others;
        for (std::size_t k = 0; k < used.size(); ++k)
            if (k != i)
                others.push_back(waits[k]);
        const double othersWait = median(others);
        const double excessPct =
            report.medianS > 0.0 ? 100.0 * (st.medianS - report.medianS) / report.medianS : 0.0;
        out.evidence.push_back(
            fill("rank %1 computes %2 µs per step, %3 % above the ranks' median %4 µs (threshold "
                 "%5 µs); it waits %6 µs in collectives, the others' median %7 µs",
                 {std::to_string(row.rank), formatSignificant(st.medianS, 4),
                  formatSignificant(excessPct, 3), formatSignificant(report.medianS, 4),
                  formatSignificant(report.thresholdS, 4), formatSignificant(row.waitUs, 4),
                  formatSignificant(othersWait, 4)}));
    }
    return out;
}

} // namespace wb
