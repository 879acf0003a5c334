#pragma once
// scale-fluency "The resume walk: scale fluency and inflation tells": a claims sheet about a
// training run (GPUs, model size, tokens, days, MFU, checkpoint size and time, failures seen)
// checked against itself with the models the other lessons use (planning/claims_check.h): 6·N·D and
// MFU, ZeRO's 16 bytes per parameter against HBM, checkpoint bytes against storage
// bandwidth, failures against Llama 3's interruption rate. Presets: Megatron-LM's GPT-3
// 175B, Llama 3 405B's 54-day snapshot, and an impossible resume line.
#include "engine/scenario.h"

namespace wb {

class ScaleFluencyScenario final : public Scenario {
public:
    std::string id() const override { return "scale-fluency"; }
    ScenarioGroup group() const override { return ScenarioGroup::ReliabilityAtScale; }
    std::string title() const override { return "Scale fluency: checking a claims sheet"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
