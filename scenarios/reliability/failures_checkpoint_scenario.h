#pragma once
// failures-checkpoint "A 16,384-GPU job fails every three hours. How often should it
// checkpoint?": Llama 3's interruption record as published (Table 5's counts as bars, §3.3.4's
// headline figures), a Monte Carlo run of the synchronous job (runs, checkpoints, lost work,
// restarts), goodput against the checkpoint interval with Young's and Daly's optima on the
// curve beside the simulated one, Daly's waste split exactly into writing, rework and restart,
// stragglers found by a robust outlier rule, and the whiteboard answer with this run's numbers.
#include "engine/scenario.h"
#include "reliability/failure_simulator.h"

namespace wb {

// The job the scenario simulates: one source per Llama 3 Table 5 row (its share of failures
// as published), every rate scaled so that one GPU's MTBF over all causes is `gpuMtbfHours`
// (Llama 3's own record gives 16,384 × 54 × 24 h / 419 ≈ 50,677 h). Times in seconds.
// Throws std::invalid_argument for gpus < 1, a non-positive MTBF or a bad time.
JobConfig failuresCheckpointJob(int gpus, double gpuMtbfHours, double intervalS, double checkpointS,
                                double restartS, double durationS);

class FailuresCheckpointScenario final : public Scenario {
public:
    std::string id() const override { return "failures-checkpoint"; }
    ScenarioGroup group() const override { return ScenarioGroup::ReliabilityAtScale; }
    std::string title() const override {
        // The GPU count is a parameter: the slides say it, the title does not.
        return "Failures at scale and the checkpoint interval";
    }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
