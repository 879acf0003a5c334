#pragma once
// silicon-mapping "What does a thread block map to in hardware? What happens when you launch more
// blocks than fit?": blocks dispatched onto the SMs in waves, sized by the occupancy model.
#include "engine/scenario.h"

namespace wb {

class SiliconMappingScenario final : public Scenario {
public:
    std::string id() const override { return "silicon-mapping"; }
    ScenarioGroup group() const override { return ScenarioGroup::InsideOneGpu; }
    std::string title() const override { return "From grid to silicon: blocks, SMs and waves"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
    std::optional<std::vector<RecordingInput>> recordingInputs(const Trace&) const override;
};

} // namespace wb
