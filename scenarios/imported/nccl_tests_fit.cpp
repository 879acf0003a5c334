#include "imported/nccl_tests_fit.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace wb {

std::optional<Collective> collectiveOfTest(const std::string& test) {
    if (test.rfind("all_reduce", 0) == 0)
        return Collective::AllReduce;
    if (test.rfind("all_gather", 0) == 0)
        return Collective::AllGather;
    if (test.rfind("reduce_scatter", 0) == 0)
        return Collective::ReduceScatter;
    if (test.rfind("broadcast", 0) == 0)
        return Collective::Broadcast;
    if (test.rfind("reduce", 0) == 0)
        return Collective::Reduce;
    if (test.rfind("alltoall", 0) == 0)
        return Collective::AllToAll;
    return std::nullopt;
}

namespace {

std::optional<double> medianBusbwRatio(const NcclTestsResult& result) {
    std::vector<double> ratios;
    for (const auto& row : result.rows)
        for (const auto* place : {&row.outOfPlace, &row.inPlace})
            if (place->algbw >= 1.0 && place->busbw > 0.0)
                ratios.push_back(place->busbw / place->algbw);
    if (ratios.empty())
        return std::nullopt;
    std::sort(ratios.begin(), ratios.end());
    return ratios[ratios.size() / 2];
}

} // namespace

TestKind ncclTestsKind(const NcclTestsResult& result) {
    if (!result.test.empty())
        return {collectiveOfTest(result.test), result.test, "named in the file"};
    const auto ratio = medianBusbwRatio(result);
    if (ratio && *ratio > 1.01)
        return {Collective::AllReduce, "not named in the file",
                fill("taken as all-reduce: busbw ÷ algbw = %1 > 1, and only all-reduce's factor "
                     "2(N−1)/N exceeds 1",
                     {formatSignificant(*ratio, 4)})};
    return {std::nullopt, "not named in the file", "unknown test: no model to compare"};
}

RankCount ncclTestsRanks(const NcclTestsResult& result, Collective collective) {
    if (result.nranks && *result.nranks >= 1)
        return {*result.nranks, "stated in the file"};
    const auto ratio = medianBusbwRatio(result);
    if (!ratio)
        return {0, "not in the file"};
    const double median = *ratio;
    int best = 0;
    double bestGap = 1e300;
    for (int n = 2; n <= 4096; ++n) {
        const double gap = std::fabs(busbwFactor(collective, n) - median);
        if (gap < bestGap - 1e-12) {
            bestGap = gap;
            best = n;
        }
    }
    // Factors that do not depend on N (broadcast, reduce) say nothing about it.
    if (std::fabs(busbwFactor(collective, 2) - busbwFactor(collective, 4096)) < 1e-9)
        return {0, "not in the file"};
    return {best, fill("inferred: median busbw ÷ algbw = %1 is nccl-tests' factor for N = %2",
                       {formatSignificant(median, 4), std::to_string(best)})};
}

namespace {

// Least squares of t = a·L + K·S·b (a = α, b = 1/B), weighted by 1/t² (relative error), for
// any cost that is affine in K; `cost(bytes, ab)` is the model's own time, used for the
// residuals. L and S are read from the same cost at α = 1 s, B = 1 B/s.
template <typename Cost>
AlphaBetaFit fitAffine(int ranks, const std::vector<TimedSize>& measured, Cost cost) {
    AlphaBetaFit fit;
    std::set<double> sizes;
    for (const auto& m : measured)
        if (m.seconds > 0.0 && m.bytes > 0.0)
            sizes.insert(m.bytes);
    if (ranks < 2 || sizes.size() < 2) {
        fit.problem = "needs two or more message sizes and at least 2 ranks";
        return fit;
    }
    const AlphaBeta unit{1.0, 1.0};
    const double latencyCoef = cost(1.0, unit).latencyS;
    const double byteCoef = cost(1.0, unit).bandwidthS;
    double s11 = 0, s12 = 0, s22 = 0, r1 = 0, r2 = 0;
    for (const auto& m : measured) {
        if (!(m.seconds > 0.0) || !(m.bytes > 0.0))
            continue;
        const double w = 1.0 / (m.seconds * m.seconds);
        const double x1 = latencyCoef;
        const double x2 = m.bytes * byteCoef;
        s11 += w * x1 * x1;
        s12 += w * x1 * x2;
        s22 += w * x2 * x2;
        r1 += w * x1 * m.seconds;
        r2 += w * x2 * m.seconds;
        ++fit.points;
    }
    const double det = s11 * s22 - s12 * s12;
    if (!(std::fabs(det) > 0.0)) {
        fit.problem = "the sizes do not separate latency from bandwidth";
        return fit;
    }
    const double a = (r1 * s22 - r2 * s12) / det;
    const double b = (s11 * r2 - s12 * r1) / det;
    if (!(b > 0.0) || a < 0.0) {
        fit.problem = "the least-squares fit gives α < 0 or B ≤ 0: the times do not follow the "
                      "model";
        return fit;
    }
    fit.ab = AlphaBeta{a, 1.0 / b};
    double sq = 0.0;
    for (const auto& m : measured) {
        if (!(m.seconds > 0.0) || !(m.bytes > 0.0))
            continue;
        const double rel = (cost(m.bytes, fit.ab).timeS - m.seconds) / m.seconds;
        sq += rel * rel;
    }
    fit.rmsRelative = std::sqrt(sq / static_cast<double>(fit.points));
    fit.ok = true;
    return fit;
}

} // namespace

AlphaBetaFit fitAllReduceAlphaBeta(AllReduceAlgorithm algorithm, int ranks,
                                   const std::vector<TimedSize>& measured) {
    return fitAffine(ranks, measured, [&](double bytes, const AlphaBeta& ab) {
        return allReduceCost(algorithm, ranks, bytes, ab);
    });
}

AlphaBetaFit fitCollectiveAlphaBeta(Collective collective, int ranks,
                                    const std::vector<TimedSize>& measured) {
    return fitAffine(ranks, measured, [&](double bytes, const AlphaBeta& ab) {
        return collectiveCost(collective, ranks, bytes, ab);
    });
}

} // namespace wb
