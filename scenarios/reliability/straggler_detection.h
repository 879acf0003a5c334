#pragma once
// Straggler detection (failures-checkpoint): per-rank step-time distributions and a robust outlier
// rule.
//
// A synchronous job steps at the pace of its slowest rank, so one slow GPU (thermal
// throttling, a bad HBM stack, a noisy neighbour on the host) slows all of them. Each rank's
// own compute time per step still shows who is slow. The rule uses the median and the median
// absolute deviation (MAD), which a few stragglers cannot drag along the way they drag a mean
// and a standard deviation: rank r is a straggler when its median step time exceeds
//   m + k·σ̂,   σ̂ = 1.4826·MAD   (1.4826 makes σ̂ estimate σ for normal data),
// with m and MAD taken over the ranks' medians — the "modified z-score" of Iglewicz & Hoaglin
// (1993), whose customary cut-off is 3.5 — and also exceeds m by a minimum share, so timer
// noise on a perfectly even cluster (MAD ≈ 0) flags nobody.
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct InjectedStraggler {
    int rank = 0;
    double slowdown = 1.5; // step time multiplier, > 1
};

struct StepTimeConfig {
    int ranks = 64;
    int steps = 50;
    double stepS = 1.0;   // healthy median step time
    double jitter = 0.02; // relative standard deviation of a healthy rank's step time
    std::vector<InjectedStraggler> stragglers;
    void validate() const; // throws std::invalid_argument
};

// "5:1.3,17:1.1" (rank:slowdown, comma-separated; empty for none); throws
// std::invalid_argument naming the item.
std::vector<InjectedStraggler> parseStragglers(const std::string& text);

// times[rank][step], seeded (SeededRandom's hand-written normal draws): the same seed
// gives the same times everywhere. Every rank has its own small speed offset (silicon
// lottery) plus per-step noise; injected stragglers are multiplied by their slowdown.
std::vector<std::vector<double>> generateStepTimes(const StepTimeConfig& c, std::uint64_t seed);

struct RankStepStats {
    int rank = 0;
    double medianS = 0, p5S = 0, p95S = 0; // of this rank's steps
    double robustZ = 0;                    // (median − m)/σ̂
    bool straggler = false;
};

struct StragglerReport {
    std::vector<RankStepStats> ranks;
    double medianS = 0;    // m, the median over the ranks' medians
    double madS = 0;       // MAD of the ranks' medians (unscaled)
    double thresholdS = 0; // max(m + k·1.4826·MAD, m·(1 + minExcess))
    std::vector<int> stragglers;
};

double median(std::vector<double> values); // throws std::invalid_argument when empty

// Throws std::invalid_argument for no ranks, an empty rank, non-finite times or k ≤ 0.
StragglerReport detectStragglers(const std::vector<std::vector<double>>& times, double k = 3.5,
                                 double minExcess = 0.02);

} // namespace wb
