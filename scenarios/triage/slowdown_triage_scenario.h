#pragma once
// slowdown-triage "The silent slowdown (half speed, no error)": per-rank timelines of compute and
// NCCL kernels, the per-rank figures (compute, comm, wait, overlap, idle) and a verdict computed
// from them — on generated traces of four cases, and on the user's own Kineto files.
#include "engine/scenario.h"

namespace wb {

class SlowdownTriageScenario final : public Scenario {
public:
    std::string id() const override { return "slowdown-triage"; }
    ScenarioGroup group() const override { return ScenarioGroup::ReliabilityAtScale; }
    std::string title() const override { return "The silent slowdown"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
