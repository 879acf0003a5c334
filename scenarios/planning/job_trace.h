#pragma once
// A seeded arrival trace of training jobs for the scheduler (scheduler): sizes in GPUs, durations,
// priorities, teams and checkpoint contracts. Every policy replays the same trace, so their
// metrics differ only by the policy. The distributions are illustrative (not fitted to a
// published trace): many small jobs and a few large ones, as in the Philly and Alibaba traces
// the FGD and Jeon et al. papers describe (FACTS.md §10), without claiming their numbers.
#include <cstdint>
#include <vector>

namespace wb {

struct Job {
    int id = 0;
    int gpus = 1;
    double arrivalH = 0.0;
    double durationH = 1.0; // work at full speed; also the estimate the backfill trusts
    int priority = 0;       // 0 low (opportunistic), 1 normal, 2 high
    int team = 0;
    double checkpointIntervalH = 1.0; // the contract: at most this much work lost on preemption
};

struct JobTraceConfig {
    int jobs = 1000;
    int clusterGpus = 512; // sizes are capped here and the arrival rate scales with it
    std::uint64_t seed = 1;
    double load = 0.9; // offered GPU-hours ÷ cluster GPU-hours over the arrival window
    int teams = 4;
};

// Sizes: 1, 2, 4, 8, 16, 32, 64 GPUs with weights 30, 15, 15, 20, 10, 6, 4 %; durations
// log-uniform on 0.1…24 h; priorities low 60 %, normal 30 %, high 10 %; checkpoint interval
// 0.5, 1 or 2 h; Poisson arrivals at the rate that offers `load`. Throws std::invalid_argument.
std::vector<Job> generateJobTrace(const JobTraceConfig& c);

} // namespace wb
