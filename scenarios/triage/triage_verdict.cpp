#include "triage/triage_verdict.h"

#include "engine/number_format.h"

#include <algorithm>

namespace wb {

namespace {

constexpr double kStragglerExcess = 0.10; // compute above the others' median
// A straggler holds every collective for about its whole compute excess, so the others'
// extra wait should be comparable to it; half leaves room for slack hidden by overlap.
constexpr double kWaitShareOfExcess = 0.5; // others' extra wait vs the compute excess
constexpr double kUniformCompute = 0.10;   // every rank within this of the median
constexpr double kMaterialComm = 0.05;     // median comm / window
constexpr double kNoOverlapPct = 15.0;     // median hidden share below this: serialized
constexpr double kExposedShare = 0.05;     // exposed comm worth fixing (overlap rule)
constexpr double kFabricExposed = 0.15;    // exposed / window on every rank (fabric)
constexpr double kFabricUniform = 0.60;    // smallest exposed / largest exposed
constexpr double kFabricWaitShare = 1.0 / 3.0;

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

    if (medComm <= 0.0) {
        v.evidence = "no NCCL kernels in the traces: nothing waits on communication, so the "
                     "triage has nothing to compare";
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
        if (othersCompute > 0.0 && excess > kStragglerExcess * othersCompute &&
            wait[s] <= minOtherWait && othersWait - wait[s] >= kWaitShareOfExcess * excess) {
            v.verdict = "straggler";
            v.stragglerRank = ranks[s].rank;
            v.evidence = "rank " + std::to_string(ranks[s].rank) + " computes " + time(compute[s]) +
                         ", " + formatPercent(100.0 * excess / othersCompute) +
                         " more than the other ranks' median " + time(othersCompute) +
                         "; it waits least in collectives (" + time(wait[s]) +
                         ") while the others wait " + time(othersWait) + " (median)";
            return v;
        }
        if (othersCompute > 0.0 && excess > kStragglerExcess * othersCompute)
            rejected = "; rank " + std::to_string(ranks[s].rank) + " computes " +
                       formatPercent(100.0 * excess / othersCompute) +
                       " more than the others, but they wait only " + time(othersWait - wait[s]) +
                       " more than it in collectives (less than " + "half the excess " +
                       time(excess) + "), so it is not what holds them";
    }

    const double maxCompute = *std::max_element(compute.begin(), compute.end());
    const double minCompute = *std::min_element(compute.begin(), compute.end());
    const bool uniform = maxCompute <= (1.0 + kUniformCompute) * medCompute &&
                         minCompute >= (1.0 - kUniformCompute) * medCompute;
    const std::string computeText =
        "compute uniform (" + time(minCompute) + " to " + time(maxCompute) + " per rank)";
    if (uniform && medComm >= kMaterialComm * medWindow && medHidden < kNoOverlapPct &&
        medExposed >= kExposedShare * medWindow) {
        v.verdict = "overlap";
        v.evidence = computeText + ", but only " + formatPercent(medOverlap) +
                     " of communication runs under compute (median; " + formatPercent(medHidden) +
                     " of what could hide): " + time(medExposed) + " of " + time(medComm) +
                     " comm is exposed, " + formatPercent(100.0 * medExposed / medWindow) +
                     " of the window";
        return v;
    }

    if (uniform && medHidden >= kNoOverlapPct) {
        bool everyRank = true;
        for (std::size_t i = 0; i < ranks.size(); ++i)
            everyRank = everyRank && exposed[i] >= kFabricExposed * window[i];
        const double maxExposed = *std::max_element(exposed.begin(), exposed.end());
        const double minExposed = *std::min_element(exposed.begin(), exposed.end());
        if (everyRank && minExposed >= kFabricUniform * maxExposed &&
            medWait < kFabricWaitShare * medExposed) {
            v.verdict = "fabric";
            v.evidence = computeText + " and overlap present (" + formatPercent(medOverlap) +
                         " of comm, " + formatPercent(medHidden) +
                         " of what could hide, medians), yet every rank has " + time(minExposed) +
                         " to " + time(maxExposed) + " of exposed communication (" +
                         formatPercent(100.0 * medExposed / medWindow) +
                         " of the window) with little waiting (" + time(medWait) +
                         " median): the collectives themselves are slow";
            return v;
        }
    }

    // Idle is no rule's evidence (host-side stalls are outside these four causes) but it
    // tells the reader where else to look.
    const double medIdle = median(column(ranks, [](const RankFigures& r) { return r.idleUs; }));
    const double shareOfWindow = 100.0 / std::max(medWindow, 1e-9);
    v.evidence = "no rule fired: compute " + time(minCompute) + " to " + time(maxCompute) +
                 " per rank, overlap " + formatPercent(medOverlap) + ", exposed comm " +
                 formatPercent(medExposed * shareOfWindow) + " and GPU idle " +
                 formatPercent(medIdle * shareOfWindow) + " of the window (medians), wait " +
                 time(medWait) + " (median)" + rejected;
    return v;
}

} // namespace

TriageVerdict triageVerdict(const std::vector<RankFigures>& ranks, long worldSize) {
    TriageVerdict v = applyRules(ranks);
    const auto present = static_cast<long>(ranks.size());
    if (present > 0 && worldSize > present)
        v.evidence.append(" (only " + std::to_string(present) + " of " + std::to_string(worldSize) +
                          " ranks in the set: a rank outside it can hold the collectives "
                          "unseen, and wait is measured against the ranks present)");
    return v;
}

} // namespace wb
