#pragma once
// memory-hierarchy "Walk me through the GPU memory hierarchy with latencies and bandwidths": the
// ladder from registers to the network, Little's law for each level, and the latency staircase of
// a pointer chase (modeled until a measured recording exists).
#include "engine/scenario.h"

namespace wb {

class MemoryHierarchyScenario final : public Scenario {
public:
    std::string id() const override { return "memory-hierarchy"; }
    ScenarioGroup group() const override { return ScenarioGroup::InsideOneGpu; }
    std::string title() const override { return "Memory hierarchy: latency and bandwidth"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
    std::optional<std::vector<RecordingInput>> recordingInputs(const Trace&) const override;
};

} // namespace wb
