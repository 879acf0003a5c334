#pragma once
// scheduler "Design a GPU cluster scheduler": one seeded arrival trace replayed under four policies
// (FIFO first-fit, gang scheduling with backfill, topology-aware packing, preemption under
// checkpoint contracts) by simulateCluster; each schedule as a Gantt per node, the allocated
// and stranded GPUs over time from the model's samples, the lost work of preemptions, and the
// policies side by side. The frames only draw what the simulation recorded.
#include "engine/scenario.h"

namespace wb {

class SchedulerScenario final : public Scenario {
public:
    std::string id() const override { return "scheduler"; }
    ScenarioGroup group() const override { return ScenarioGroup::ReliabilityAtScale; }
    std::string title() const override { return "Designing a GPU cluster scheduler"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
