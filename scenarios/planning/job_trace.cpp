#include "planning/job_trace.h"

#include "engine/seeded_random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

namespace {

// Index i with probability weights[i] / 100 (the weights add up to 100), from one uniform draw.
template <std::size_t N> int weighted(SeededRandom& draw, const double (&weights)[N]) {
    double u = draw.uniform() * 100.0;
    for (std::size_t i = 0; i < N; ++i) {
        if (u < weights[i])
            return static_cast<int>(i);
        u -= weights[i];
    }
    return static_cast<int>(N - 1);
}

} // namespace

std::vector<Job> generateJobTrace(const JobTraceConfig& c) {
    if (c.jobs < 1 || c.jobs > 10'000'000)
        throw std::invalid_argument("jobs must be 1…10000000");
    if (c.clusterGpus < 1)
        throw std::invalid_argument("the cluster needs at least one GPU");
    if (!(c.load > 0.0) || !(c.load <= 10.0))
        throw std::invalid_argument("load must be in (0, 10]");
    if (c.teams < 1)
        throw std::invalid_argument("teams must be at least 1");
    SeededRandom draw(c.seed);
    constexpr double sizeWeights[] = {30, 15, 15, 20, 10, 6, 4};
    constexpr double priorityWeights[] = {60, 30, 10};
    constexpr double intervals[] = {0.5, 1.0, 2.0};
    constexpr double shortest = 0.1, longest = 24.0;
    std::vector<Job> jobs(static_cast<std::size_t>(c.jobs));
    double gpuHours = 0.0;
    for (int i = 0; i < c.jobs; ++i) {
        Job& j = jobs[static_cast<std::size_t>(i)];
        j.id = i;
        j.gpus = std::min(1 << weighted(draw, sizeWeights), c.clusterGpus);
        j.durationH = shortest * std::pow(longest / shortest, draw.uniform());
        j.priority = weighted(draw, priorityWeights);
        j.team = std::min(static_cast<int>(draw.uniform() * c.teams), c.teams - 1);
        j.checkpointIntervalH = intervals[std::min(static_cast<int>(draw.uniform() * 3), 2)];
        gpuHours += j.gpus * j.durationH;
    }
    // Poisson arrivals: the mean gap makes the offered GPU-hours per hour load × cluster GPUs.
    const double meanGapH = gpuHours / c.jobs / (c.load * c.clusterGpus);
    double t = 0.0;
    for (Job& j : jobs) {
        j.arrivalH = t;
        t += meanGapH * draw.exponential(1.0);
    }
    return jobs;
}

} // namespace wb
