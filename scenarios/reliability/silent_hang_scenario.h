#pragma once
// silent-hang "Every GPU shows 100 % and nothing progresses. Find the rank that hangs the job.":
// ranks issue the same collectives; one injected fault (a dead rank, a skipped collective, a size
// or order mismatch) leaves a collective that never completes. Every rank's flight recorder, the
// GPU-Util that NVML reports while the kernels spin, and the triage steps that narrow the
// suspects from the recorders to the culprit.
#include "engine/scenario.h"

namespace wb {

class SilentHangScenario final : public Scenario {
public:
    std::string id() const override { return "silent-hang"; }
    ScenarioGroup group() const override { return ScenarioGroup::ReliabilityAtScale; }
    std::string title() const override { return "The silent hang"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
