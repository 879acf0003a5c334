#pragma once
// coalescing-transpose "Why is my naive transpose 10× slower than a copy? Fix it.": every lane's
// address from the kernels' real indexing, global accesses as sectors per request, shared accesses
// as bank conflicts, and the user's own index expression.
#include "engine/scenario.h"

namespace wb {

class CoalescingTransposeScenario final : public Scenario {
public:
    std::string id() const override { return "coalescing-transpose"; }
    ScenarioGroup group() const override { return ScenarioGroup::InsideOneGpu; }
    std::string title() const override { return "Coalescing and bank conflicts: the transpose"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
    std::optional<std::vector<RecordingInput>> recordingInputs(const Trace&) const override;
};

} // namespace wb
