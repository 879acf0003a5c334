#pragma once
// Monte Carlo of a synchronous training job (failures-checkpoint): every component failure stops
// the whole job, which loses the work since its last checkpoint, restarts, and carries on.
//
// The job runs `interval` seconds of work, writes a checkpoint for `checkpoint` seconds, and
// repeats. A failure anywhere in that cycle loses the cycle so far (work and a partial
// checkpoint) and costs `restart` seconds, during which another failure may strike and start
// the restart over. Failures are Poisson: each unit of each source fails independently with
// its own mean time, so the job's next failure is the minimum of independent exponentials,
// itself exponential with rate Σ units/MTBF; the simulator samples that one time directly
// (its cost is per failure and per checkpoint, not per GPU). This is exactly Daly's model, so
// the mean waste converges to expectedWaste() in checkpoint_interval.h.
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct FailureSource {
    std::string name;            // "GPU", "Faulty GPU", "NIC", ...
    double mtbfHoursPerUnit = 0; // mean time between failures of one unit
    int units = 1;               // how many of them the job depends on
    double ratePerHour() const { return units / mtbfHoursPerUnit; }
};

struct JobConfig {
    std::vector<FailureSource> sources;
    double intervalS = 3600;  // τ, work between checkpoints
    double checkpointS = 60;  // δ, time to write one checkpoint
    double restartS = 600;    // R, from failure to running again
    double durationS = 86400; // wall time simulated
    // Throws std::invalid_argument naming the field (non-positive MTBF, zero units, NaN, ...).
    void validate() const;
    double failureRatePerS() const; // Σ units/MTBF, per second
    double mtbfS() const { return 1.0 / failureRatePerS(); }
};

enum class SegmentKind { Run, Checkpoint, Lost, Restart };
std::string segmentKindName(SegmentKind k); // "run", "checkpoint", "lost", "restart"

struct Segment {
    SegmentKind kind = SegmentKind::Run;
    double startS = 0;
    double endS = 0;
    std::string cause; // the failure source, for lost and restart segments
    bool operator==(const Segment&) const = default;
};

struct JobRun {
    std::vector<Segment> segments; // in time order, covering [0, durationS]; empty if not kept
    int failures = 0;
    double usefulS = 0; // work kept: checkpointed, or still running when time ran out
    double durationS = 0;
    double goodput() const { return durationS > 0 ? usefulS / durationS : 0.0; }
};

// One run; the same config and seed give the same run with any standard library. With
// keepSegments, refuses (std::invalid_argument) a timeline of more than 2,000,000 cycles.
JobRun simulateJob(const JobConfig& c, std::uint64_t seed, bool keepSegments = true);

struct GoodputStats {
    int trials = 0;
    double mean = 0, p5 = 0, p95 = 0; // goodput fractions; percentiles by nearest rank
    double failuresMean = 0;
};
// `trials` runs, trial k seeded with mixSeed(seed, k). Throws std::invalid_argument for
// trials < 1, a bad config, or more than 2·10⁸ expected failures in all (the cost is a few
// steps per failure: about a second per 10⁸ on one core).
GoodputStats simulateGoodput(const JobConfig& c, int trials, std::uint64_t seed);

struct SweepPoint {
    double intervalS = 0;
    double simulated = 0; // mean goodput over the trials
    double analytic = 0;  // 1 − expectedWaste (Daly's full model)
};
struct CheckpointSweep {
    std::vector<SweepPoint> points;
    double youngS = 0, dalyS = 0; // FACTS.md §5, with M = the job's MTBF
    double simulatedBestS = 0;    // the point with the highest simulated goodput
};
// Goodput against the checkpoint interval on a log grid from Young/8 to Young×8 (`points`
// values), the same seed at every point (common random numbers keep the curve smooth).
CheckpointSweep sweepCheckpointInterval(const JobConfig& c, int points, int trials,
                                        std::uint64_t seed);

} // namespace wb
