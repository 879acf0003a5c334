#pragma once
// moe-routing "Why do MoE routers collapse, and what does it cost the systems around them?": a toy
// top-k gate trained on its own routing (MoeRoutingSim) collapses onto a few experts without
// balancing; the Switch auxiliary loss or DeepSeek-V3's bias pulls the same router back; then
// the systems bill of both routers: tokens dropped at a capacity factor, the expert-parallel
// all-to-all, and per-expert batch sizes when serving.
#include "engine/scenario.h"

namespace wb {

class MoeRoutingScenario final : public Scenario {
public:
    std::string id() const override { return "moe-routing"; }
    ScenarioGroup group() const override { return ScenarioGroup::CollectivesAndFabrics; }
    std::string title() const override { return "Mixture-of-experts routing"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

// Hidden size and bytes per value the scenario's all-to-all assumes (a 4096-wide BF16 layer);
// the router itself is the toy of MoeRoutingSim. Exposed so tests cost the same traffic.
inline constexpr int kMoeScenarioHidden = 4096;
inline constexpr double kMoeScenarioBytesPerValue = 2.0;

} // namespace wb
