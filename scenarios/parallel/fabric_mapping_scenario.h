#pragma once
// fabric-mapping "You have 1,024 GPUs in 8-GPU NVLink nodes. Where do TP, PP and DP go?": the
// cluster with the layout's traffic on it, bytes and time per step on NVLink and on the network for
// each strategy, the step with and without overlap, the TP-across-nodes mistake costed by
// the same model, and the best layout found by searching every valid factorisation.
#include "engine/scenario.h"

namespace wb {

class FabricMappingScenario final : public Scenario {
public:
    std::string id() const override { return "fabric-mapping"; }
    ScenarioGroup group() const override { return ScenarioGroup::CollectivesAndFabrics; }
    std::string title() const override { return "Mapping parallelism onto the fabric"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
