#pragma once
// parallelism-strategies "Compare DP, FSDP/ZeRO, TP, PP, SP/CP and EP": one training step of a
// small transformer under each strategy as a Gantt chart on GPU 0's streams (or one row per
// pipeline stage), every collective's kind, size and frequency from the model dimensions, the
// pipeline bubble measured from the simulated schedules, and a comparison table generated from the
// same timelines.
#include "engine/scenario.h"

namespace wb {

class ParallelismStrategiesScenario final : public Scenario {
public:
    std::string id() const override { return "parallelism-strategies"; }
    ScenarioGroup group() const override { return ScenarioGroup::CollectivesAndFabrics; }
    std::string title() const override { return "Parallelism strategies"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
