#include "reliability/straggler_detection.h"

#include "engine/number_format.h"
#include "engine/seeded_random.h"
#include "engine/sentence.h"
#include "reliability/argument_checks.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace wb {

void StepTimeConfig::validate() const {
    if (ranks < 1 || ranks > 1 << 20)
        throw std::invalid_argument("ranks must be 1…1048576");
    if (steps < 1 || steps > 1 << 20)
        throw std::invalid_argument("steps must be 1…1048576");
    requirePositive(stepS, "step time");
    if (!std::isfinite(jitter) || jitter < 0 || jitter > 0.5)
        throw std::invalid_argument("jitter must be 0…0.5");
    for (const InjectedStraggler& s : stragglers) {
        if (s.rank < 0 || s.rank >= ranks)
            throw std::invalid_argument(fill("straggler rank %1 is not among the %2 ranks",
                                             {std::to_string(s.rank), std::to_string(ranks)}));
        if (!std::isfinite(s.slowdown) || !(s.slowdown > 1.0))
            throw std::invalid_argument("a straggler's slowdown must be above 1");
    }
}

std::vector<InjectedStraggler> parseStragglers(const std::string& text) {
    std::vector<InjectedStraggler> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        start = comma + 1;
        const auto colon = item.find(':');
        const auto rank = parseNumber(item.substr(0, colon));
        const auto slowdown =
            colon == std::string::npos ? std::nullopt : parseNumber(item.substr(colon + 1));
        if (!rank || !slowdown || *rank != std::floor(*rank) || *rank < 0 || *rank > 1e7)
            throw std::invalid_argument(
                fill("straggler '%1' must be rank:slowdown, e.g. 5:1.3", {item}));
        out.push_back({static_cast<int>(*rank), *slowdown});
    }
    return out;
}

std::vector<std::vector<double>> generateStepTimes(const StepTimeConfig& c, std::uint64_t seed) {
    c.validate();
    SeededRandom g(seed);
    std::vector<double> factor(static_cast<std::size_t>(c.ranks), 1.0);
    for (const InjectedStraggler& s : c.stragglers)
        factor[static_cast<std::size_t>(s.rank)] *= s.slowdown;
    std::vector<std::vector<double>> times(static_cast<std::size_t>(c.ranks));
    for (std::size_t r = 0; r < times.size(); ++r) {
        // Half the jitter is the rank's own steady offset, half varies step to step.
        const double offset = 1.0 + 0.5 * c.jitter * g.normal();
        auto& row = times[r];
        row.resize(static_cast<std::size_t>(c.steps));
        for (double& t : row) {
            const double noise = 1.0 + c.jitter * g.normal();
            // A step never takes less than a tenth of the nominal time, even in the tails.
            t = c.stepS * factor[r] * std::max(0.1, offset * noise);
        }
    }
    return times;
}

double median(std::vector<double> v) {
    if (v.empty())
        throw std::invalid_argument("median of no values");
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return 0.5 * (lower + upper);
}

namespace {

// Nearest-rank percentile of a sorted vector.
double percentileOf(const std::vector<double>& sorted, double p) {
    const double n = static_cast<double>(sorted.size());
    const double rank = std::clamp(std::ceil(p * n), 1.0, n);
    return sorted[static_cast<std::size_t>(rank) - 1];
}

} // namespace

StragglerReport detectStragglers(const std::vector<std::vector<double>>& times, double k,
                                 double minExcess) {
    if (times.empty())
        throw std::invalid_argument("no ranks to compare");
    if (!std::isfinite(k) || !(k > 0))
        throw std::invalid_argument("k must be a positive number");
    if (!std::isfinite(minExcess) || minExcess < 0)
        throw std::invalid_argument("the minimum excess must be zero or positive");
    StragglerReport rep;
    std::vector<double> medians;
    for (std::size_t r = 0; r < times.size(); ++r) {
        std::vector<double> sorted = times[r];
        if (sorted.empty())
            throw std::invalid_argument(fill("rank %1 has no step times", {std::to_string(r)}));
        for (double t : sorted)
            if (!std::isfinite(t) || t < 0)
                throw std::invalid_argument(
                    fill("rank %1 has a step time that is not a number ≥ 0", {std::to_string(r)}));
        std::sort(sorted.begin(), sorted.end());
        RankStepStats s;
        s.rank = static_cast<int>(r);
        s.medianS = median(sorted);
        s.p5S = percentileOf(sorted, 0.05);
        s.p95S = percentileOf(sorted, 0.95);
        medians.push_back(s.medianS);
        rep.ranks.push_back(s);
    }
    rep.medianS = median(medians);
    std::vector<double> dev;
    for (double m : medians)
        dev.push_back(std::fabs(m - rep.medianS));
    rep.madS = median(dev);
    const double sigma = 1.4826 * rep.madS;
    rep.thresholdS = std::max(rep.medianS + k * sigma, rep.medianS * (1.0 + minExcess));
    for (RankStepStats& s : rep.ranks) {
        s.robustZ = sigma > 0 ? (s.medianS - rep.medianS) / sigma : 0.0;
        s.straggler = s.medianS > rep.thresholdS;
        if (s.straggler)
            rep.stragglers.push_back(s.rank);
    }
    return rep;
}

} // namespace wb
