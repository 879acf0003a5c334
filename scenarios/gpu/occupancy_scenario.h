#pragma once
// occupancy "Is higher occupancy always better?": the occupancy calculator with the architecture's
// allocation rules, Little's law for latency hiding, and a warp-scheduler simulation where
// 25 % occupancy with ILP 4 keeps up with 75 % at ILP 1.
#include "engine/scenario.h"

namespace wb {

class OccupancyScenario final : public Scenario {
public:
    std::string id() const override { return "occupancy"; }
    ScenarioGroup group() const override { return ScenarioGroup::InsideOneGpu; }
    std::string title() const override { return "Occupancy: when 25 % beats 75 %"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
    std::optional<std::vector<RecordingInput>> recordingInputs(const Trace&) const override;
};

} // namespace wb
