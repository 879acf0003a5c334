#pragma once
// warp-divergence "Which of these branches diverge?": a per-lane SIMT interpreter runs each branch
// kind (or the user's own condition) with a reconvergence stack; the frames are its state.
#include "engine/scenario.h"

namespace wb {

class WarpDivergenceScenario final : public Scenario {
public:
    std::string id() const override { return "warp-divergence"; }
    ScenarioGroup group() const override { return ScenarioGroup::InsideOneGpu; }
    std::string title() const override { return "Warp divergence"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
    std::optional<std::vector<RecordingInput>> recordingInputs(const Trace&) const override;
};

} // namespace wb
