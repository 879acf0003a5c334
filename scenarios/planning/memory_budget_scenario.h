#pragma once
// memory-budget "Memory budget in bytes before any buzzword": per-GPU weights, gradients, optimizer
// state, activations and buffers of a model under a layout, stacked against the chosen GPU's
// HBM; ZeRO's 7.5B / 64-GPU example (120 → 31.4 → 16.6 → 1.9 GB) reproduced; Korthikanti's
// activation bytes under TP, SP and recomputation; and the least intrusive layouts that fit.
// All numbers come from parallel/memory_budget.h.
#include "engine/scenario.h"

namespace wb {

class MemoryBudgetScenario final : public Scenario {
public:
    std::string id() const override { return "memory-budget"; }
    ScenarioGroup group() const override { return ScenarioGroup::ReliabilityAtScale; }
    std::string title() const override { return "Memory budget in bytes"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
