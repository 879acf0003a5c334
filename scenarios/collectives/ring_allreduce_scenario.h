#pragma once
// ring-allreduce "Derive the cost of ring all-reduce": the algorithm simulated on real buffers,
// then its α-β cost against tree algorithms.
#include "engine/scenario.h"

namespace wb {

class RingAllReduceScenario final : public Scenario {
public:
    std::string id() const override { return "ring-allreduce"; }
    ScenarioGroup group() const override { return ScenarioGroup::CollectivesAndFabrics; }
    std::string title() const override { return "Ring all-reduce, step by step"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
