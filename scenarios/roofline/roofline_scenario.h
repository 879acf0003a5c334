#pragma once
// roofline "Is this kernel compute- or memory-bound? Why is decode at batch 1 never
// compute-bound?": rooflines from the catalogue, reference kernels, and a decode point
// that batching slides toward the ridge.
#include "engine/scenario.h"

namespace wb {

class RooflineScenario final : public Scenario {
public:
    std::string id() const override { return "roofline"; }
    ScenarioGroup group() const override { return ScenarioGroup::InsideOneGpu; }
    std::string title() const override { return "The roofline"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
    std::optional<std::vector<RecordingInput>> recordingInputs(const Trace&) const override;
};

} // namespace wb
