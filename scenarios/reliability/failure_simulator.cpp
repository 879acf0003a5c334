#include "reliability/failure_simulator.h"

#include "engine/seeded_random.h"
#include "engine/sentence.h"
#include "reliability/argument_checks.h"
#include "reliability/checkpoint_interval.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

std::string segmentKindName(SegmentKind k) {
    switch (k) {
    case SegmentKind::Run:
        return "run";
    case SegmentKind::Checkpoint:
        return "checkpoint";
    case SegmentKind::Lost:
        return "lost";
    case SegmentKind::Restart:
        return "restart";
    }
    return "run";
}

void JobConfig::validate() const {
    if (sources.empty())
        throw std::invalid_argument("the job needs at least one failure source");
    for (const FailureSource& s : sources) {
        requirePositive(s.mtbfHoursPerUnit, fill("MTBF of %1", {s.name}));
        if (s.units < 1)
            throw std::invalid_argument(fill("units of %1 must be at least 1", {s.name}));
    }
    requirePositive(intervalS, "checkpoint interval");
    requireNonNegative(checkpointS, "checkpoint time");
    requireNonNegative(restartS, "restart time");
    requirePositive(durationS, "duration");
}

double JobConfig::failureRatePerS() const {
    double perHour = 0;
    for (const FailureSource& s : sources)
        perHour += s.ratePerHour();
    return perHour / 3600.0;
}

namespace {

// Which source failed: each with probability rate/total (one uniform draw, always taken so
// that keeping segments or not never changes the random stream).
const std::string& causeOf(const JobConfig& c, double totalPerHour, SeededRandom& g) {
    double pick = g.uniform() * totalPerHour;
    for (const FailureSource& s : c.sources) {
        pick -= s.ratePerHour();
        if (pick < 0)
            return s.name;
    }
    return c.sources.back().name;
}

} // namespace

JobRun simulateJob(const JobConfig& c, std::uint64_t seed, bool keepSegments) {
    c.validate();
    SeededRandom g(seed);
    const double rate = c.failureRatePerS();
    const double totalPerHour = rate * 3600.0;
    const double end = c.durationS;
    const double cycle = c.intervalS + c.checkpointS;
    if (keepSegments && end / cycle > 2e6)
        throw std::invalid_argument("a timeline of more than 2,000,000 checkpoint intervals is "
                                    "too long to keep; lengthen the interval or shorten the run");
    JobRun run;
    run.durationS = end;
    auto emit = [&](SegmentKind k, double a, double b, const std::string& cause) {
        if (keepSegments && b > a)
            run.segments.push_back({k, a, b, cause});
    };
    static const std::string none;
    double t = 0;
    // Memoryless: the next failure drawn once stays valid across completed cycles.
    double nextFail = g.exponential(rate);
    while (t < end) {
        // Whole cycles that finish before the next failure and before the end, at once.
        const double horizon = std::min(nextFail, end);
        const double whole = std::floor((horizon - t) / cycle);
        if (whole >= 1) {
            if (keepSegments)
                for (double i = 0; i < whole; ++i) {
                    const double s = t + i * cycle;
                    emit(SegmentKind::Run, s, s + c.intervalS, none);
                    emit(SegmentKind::Checkpoint, s + c.intervalS, s + cycle, none);
                }
            run.usefulS += whole * c.intervalS;
            t += whole * cycle;
            // Guard against t + whole·cycle rounding just past the horizon.
            t = std::min(t, horizon);
            continue;
        }
        if (end <= nextFail) {
            // Time runs out inside this cycle: the work so far was not lost.
            const double work = std::min(c.intervalS, end - t);
            emit(SegmentKind::Run, t, t + work, none);
            emit(SegmentKind::Checkpoint, t + work, end, none);
            run.usefulS += work;
            break;
        }
        // A failure inside this cycle: everything since the last checkpoint is lost.
        const std::string& cause = causeOf(c, totalPerHour, g);
        ++run.failures;
        emit(SegmentKind::Lost, t, nextFail, cause);
        t = nextFail;
        // Restart; a failure during it starts it over.
        for (;;) {
            nextFail = t + g.exponential(rate);
            const double done = t + c.restartS;
            if (nextFail >= done || done >= end) {
                emit(SegmentKind::Restart, t, std::min(done, end), cause);
                t = done;
                break;
            }
            emit(SegmentKind::Restart, t, nextFail, cause);
            ++run.failures;
            t = nextFail;
            causeOf(c, totalPerHour, g); // keep the stream identical; the restart is re-run
        }
        if (nextFail < t) // the restart ran out the clock
            break;
    }
    return run;
}

GoodputStats simulateGoodput(const JobConfig& c, int trials, std::uint64_t seed) {
    if (trials < 1)
        throw std::invalid_argument("trials must be at least 1");
    c.validate();
    const double expectedFailures = trials * c.durationS * c.failureRatePerS();
    if (expectedFailures > 2e8)
        throw std::invalid_argument(
            fill("about %1 failures to simulate (trials × duration × failure rate); at most 2e8: "
                 "lower the trials or the duration",
                 {std::to_string(static_cast<long long>(expectedFailures))}));
    std::vector<double> goodput(static_cast<std::size_t>(trials));
    GoodputStats s;
    s.trials = trials;
    double failures = 0;
    for (int k = 0; k < trials; ++k) {
        const JobRun r = simulateJob(c, mixSeed(seed, static_cast<std::uint64_t>(k)), false);
        goodput[static_cast<std::size_t>(k)] = r.goodput();
        failures += r.failures;
    }
    double sum = 0;
    for (double v : goodput)
        sum += v;
    s.mean = sum / trials;
    s.failuresMean = failures / trials;
    std::sort(goodput.begin(), goodput.end());
    // Nearest rank: the ⌈p·n⌉-th smallest value.
    auto percentile = [&](double p) {
        const double rank = std::ceil(p * trials);
        const auto i = static_cast<std::size_t>(std::clamp(rank, 1.0, double(trials))) - 1;
        return goodput[i];
    };
    s.p5 = percentile(0.05);
    s.p95 = percentile(0.95);
    return s;
}

CheckpointSweep sweepCheckpointInterval(const JobConfig& c, int points, int trials,
                                        std::uint64_t seed) {
    if (points < 2)
        throw std::invalid_argument("a sweep needs at least 2 points");
    c.validate();
    if (!(c.checkpointS > 0))
        throw std::invalid_argument("a sweep needs a checkpoint time above zero");
    CheckpointSweep out;
    const double m = c.mtbfS();
    out.youngS = youngInterval(c.checkpointS, m);
    out.dalyS = dalyInterval(c.checkpointS, m);
    const double lo = std::log(out.youngS / 8.0), hi = std::log(out.youngS * 8.0);
    double best = -1;
    for (int i = 0; i < points; ++i) {
        JobConfig at = c;
        at.intervalS = std::exp(lo + (hi - lo) * i / (points - 1));
        SweepPoint p;
        p.intervalS = at.intervalS;
        p.simulated = simulateGoodput(at, trials, seed).mean;
        p.analytic = 1.0 - expectedWaste(at.intervalS, c.checkpointS, m, c.restartS);
        if (p.simulated > best) {
            best = p.simulated;
            out.simulatedBestS = p.intervalS;
        }
        out.points.push_back(p);
    }
    return out;
}

} // namespace wb
