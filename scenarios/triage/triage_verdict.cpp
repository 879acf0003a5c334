#include "triage/triage_verdict.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <algorithm>

namespace wb {

namespace {

double median(std::vector<double> v) {
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string time(double us) {
    return formatSi(us * 1e-6, "s");
}

// Overlap against the most that could overlap: a rank can hide at most min(comm, compute).
// Overlap % (overlap ÷ comm) alone falls when comm grows far past compute, as on a very slow
// fabric, although nothing was serialized; this share does not.
double hiddenSharePct(const RankFigures& r) {
    const double most = std::min(r.commUs, r.computeUs);
    return most > 0.0 ? 100.0 * r.overlapUs / most : 0.0;
}

template <class F> std::vector<double> column(const std::vector<RankFigures>& ranks, F f) {
    std::vector<double> v;
    for (const auto& r : ranks)
        v.push_back(f(r));
    return v;
}

TriageVerdict applyRules(const std::vector<RankFigures>& ranks) {
    TriageVerdict v;
    if (ranks.empty()) {
        v.evidence = "no traces";
        return v;
    }
    const auto compute = column(ranks, [](const RankFigures& r) { return r.computeUs; });
    const auto comm = column(ranks, [](const RankFigures& r) { return r.commUs; });
    const auto wait = column(ranks, [](const RankFigures& r) { return r.waitUs; });
    const auto window = column(ranks, [](const RankFigures& r) { return r.windowUs; });
    const auto overlap = column(ranks, [](const RankFigures& r) { return r.overlapPct; });
    const auto exposed = column(ranks, [](const RankFigures& r) { return r.exposedCommUs; });
    const auto hidden = column(ranks, hiddenSharePct);
    const double medCompute = median(compute);
    const double medComm = median(comm);
    const double medWindow = median(window);
    const double medOverlap = median(overlap);
    const double medExposed = median(exposed);
    const double medWait = median(wait);
    const double medHidden = median(hidden);
    TriageMeasures& m = v.measures;
    m.medianWindowUs = medWindow;
    m.medianCommUs = medComm;
    m.medianOverlapPct = medOverlap;
    m.medianHiddenPct = medHidden;
    m.medianExposedUs = medExposed;
    m.medianWaitUs = medWait;
    m.minComputeUs = *std::min_element(compute.begin(), compute.end());
    m.maxComputeUs = *std::max_element(compute.begin(), compute.end());
    m.minExposedShare = 1e300;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        m.minExposedShare =
            std::min(m.minExposedShare, window[i] > 0.0 ? exposed[i] / window[i] : 0.0);

    if (medComm <= 0.0) {
        // A trace from a device whose work is not CUDA/ROCm kernels (MTIA) has no kernels of
        // any kind: saying "no NCCL kernels" would suggest the compute was read.
        v.evidence = m.maxComputeUs > 0.0
                         ? "no NCCL kernels in the traces: nothing waits on communication, so "
                           "the triage has nothing to compare"
                         : "no CUDA or ROCm kernels in the traces: the triage compares kernel "
                           "time, so it has nothing to compare";
        return v;
    }

    // Straggler: the most computing rank against the median of the others.
    std::string rejected;
    if (ranks.size() >= 2) {
        const auto s = static_cast<std::size_t>(std::max_element(compute.begin(), compute.end()) -
                                                compute.begin());
        std::vector<double> otherCompute, otherWait;
        for (std::size_t i = 0; i < ranks.size(); ++i)
            if (i != s) {
                otherCompute.push_back(compute[i]);
                otherWait.push_back(wait[i]);
            }
        const double othersCompute = median(otherCompute);
        const double othersWait = median(otherWait);
        const double minOtherWait = *std::min_element(otherWait.begin(), otherWait.end());
        const double excess = compute[s] - othersCompute;
        m.heaviestRank = ranks[s].rank;
        m.heaviestComputeUs = compute[s];
        m.othersComputeUs = othersCompute;
        m.excessPct = othersCompute > 0.0 ? 100.0 * excess / othersCompute : 0.0;
        m.heaviestWaitUs = wait[s];
        m.othersWaitUs = othersWait;
        if (othersCompute > 0.0 && excess > kTriageStragglerExcess * othersCompute &&
            wait[s] <= minOtherWait && othersWait - wait[s] >= kTriageWaitShareOfExcess * excess) {
            v.verdict = "straggler";
            v.stragglerRank = ranks[s].rank;
            v.evidence = fill("rank %1 computes %2, %3 more than the other ranks' median %4; it "
                              "waits least in collectives (%5) while the others wait %6 (median)",
                              {std::to_string(ranks[s].rank), time(compute[s]),
                               formatPercent(100.0 * excess / othersCompute), time(othersCompute),
                               time(wait[s]), time(othersWait)});
            return v;
        }
        if (othersCompute > 0.0 && excess > kTriageStragglerExcess * othersCompute)
            rejected =
                fill("; rank %1 computes %2 more than the others, but they wait only %3 "
                     "more than it in collectives (less than half the excess %4), so it is "
                     "not what holds them",
                     {std::to_string(ranks[s].rank), formatPercent(100.0 * excess / othersCompute),
                      time(othersWait - wait[s]), time(excess)});
    }

    const double maxCompute = m.maxComputeUs;
    const double minCompute = m.minComputeUs;
    const bool uniform = maxCompute <= (1.0 + kTriageUniformCompute) * medCompute &&
                         minCompute >= (1.0 - kTriageUniformCompute) * medCompute;
    const std::string computeText =
        fill("compute uniform (%1 to %2 per rank)", {time(minCompute), time(maxCompute)});
    m.computeUniform = uniform;
    if (uniform && medComm >= kTriageMaterialComm * medWindow && medHidden < kTriageNoOverlapPct &&
        medExposed >= kTriageExposedShare * medWindow) {
        v.verdict = "overlap";
        v.evidence =
            fill("%1, but only %2 of communication runs under compute (median; %3 of "
                 "what could hide): %4 of %5 comm is exposed, %6 of the window",
                 {computeText, formatPercent(medOverlap), formatPercent(medHidden),
                  time(medExposed), time(medComm), formatPercent(100.0 * medExposed / medWindow)});
        return v;
    }

    if (uniform && medHidden >= kTriageNoOverlapPct) {
        bool everyRank = true;
        for (std::size_t i = 0; i < ranks.size(); ++i)
            everyRank = everyRank && exposed[i] >= kTriageFabricExposed * window[i];
        const double maxExposed = *std::max_element(exposed.begin(), exposed.end());
        const double minExposed = *std::min_element(exposed.begin(), exposed.end());
        if (everyRank && minExposed >= kTriageFabricUniform * maxExposed &&
            medWait < kTriageFabricWaitShare * medExposed) {
            v.verdict = "fabric";
            v.evidence = fill("%1 and overlap present (%2 of comm, %3 of what could hide, "
                              "medians), yet every rank has %4 to %5 of exposed communication (%6 "
                              "of the window) with little waiting (%7 median): the collectives "
                              "themselves are slow",
                              {computeText, formatPercent(medOverlap), formatPercent(medHidden),
                               time(minExposed), time(maxExposed),
                               formatPercent(100.0 * medExposed / medWindow), time(medWait)});
            return v;
        }
    }

    // Idle is no rule's evidence (host-side stalls are outside these four causes) but it
    // tells the reader where else to look.
    const double medIdle = median(column(ranks, [](const RankFigures& r) { return r.idleUs; }));
    const double shareOfWindow = 100.0 / std::max(medWindow, 1e-9);
    // `rejected` is empty, or the straggler rule's near miss as its own clause.
    v.evidence = fill("no rule fired: compute %1 to %2 per rank, overlap %3, exposed comm %4 and "
                      "GPU idle %5 of the window (medians), wait %6 (median)%7",
                      {time(minCompute), time(maxCompute), formatPercent(medOverlap),
                       formatPercent(medExposed * shareOfWindow),
                       formatPercent(medIdle * shareOfWindow), time(medWait), rejected});
    return v;
}

} // namespace

TriageVerdict triageVerdict(const std::vector<RankFigures>& ranks, long worldSize) {
    TriageVerdict v = applyRules(ranks);
    const auto present = static_cast<long>(ranks.size());
    if (present > 0 && worldSize > present)
        v.evidence.append(fill(" (only %1 of %2 ranks in the set: a rank outside it can hold the "
                               "collectives unseen, and wait is measured against the ranks "
                               "present)",
                               {std::to_string(present), std::to_string(worldSize)}));
    return v;
}

} // namespace wb
