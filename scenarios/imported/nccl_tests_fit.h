#pragma once
// nccl-tests rows against the α-β model: which collective a test measures, the rank count
// (from the file, or from busbw ÷ algbw through nccl-tests' factors), and a least-squares
// fit of α and B to the measured times through the model's own cost function.
#include "collectives/collective_cost.h"
#include "import/nccl_tests_importer.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

// "all_reduce_perf" → AllReduce, ... ; nullopt for names the cost model does not cover.
std::optional<Collective> collectiveOfTest(const std::string& test);

// The test a file holds: its name when the file says ("all_reduce_perf"), else all-reduce
// when busbw ÷ algbw exceeds 1 (only all-reduce's factor 2(N−1)/N does), else unknown.
struct TestKind {
    std::optional<Collective> collective;
    std::string name;   // "all_reduce_perf", or "not named in the file"
    std::string source; // how we know
};
TestKind ncclTestsKind(const NcclTestsResult& result);

// A rank count the file states, or the one whose busbwFactor(collective, N) is nearest the
// median busbw ÷ algbw of the rows (rows with algbw ≥ 1 GB/s, where rounding is small).
struct RankCount {
    int ranks = 0;      // 0 = unknown
    std::string source; // "the file's \"# Rank\" lines", "busbw ÷ algbw = 1.875", ...
};
RankCount ncclTestsRanks(const NcclTestsResult& result, Collective collective);

// One measured time.
struct TimedSize {
    double bytes = 0.0;
    double seconds = 0.0;
};

struct AlphaBetaFit {
    AlphaBeta ab;             // fitted α (s) and B (bytes/s)
    double rmsRelative = 0.0; // root mean square of (model − measured) ÷ measured
    int points = 0;
    bool ok = false; // false: fewer than two sizes, or a fit with α < 0 or B ≤ 0
    std::string problem;
};

// Least squares on relative error (every size counts alike, from 8 B to GBs): the cost of
// `algorithm` is affine in K, t = α·L(N) + K·S(N)/B, with L and S read from allReduceCost
// itself (at α = 1 s, B = 1 B/s), so the fit and the model share one formula.
AlphaBetaFit fitAllReduceAlphaBeta(AllReduceAlgorithm algorithm, int ranks,
                                   const std::vector<TimedSize>& measured);
// The same fit for any collective nccl-tests measures, through collectiveCost (ring costs:
// all-gather, reduce-scatter, all-to-all, broadcast and reduce; all-reduce is the ring).
AlphaBetaFit fitCollectiveAlphaBeta(Collective collective, int ranks,
                                    const std::vector<TimedSize>& measured);

} // namespace wb
