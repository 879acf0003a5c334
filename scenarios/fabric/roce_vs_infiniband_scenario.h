#pragma once
// roce-vs-infiniband "RoCE or InfiniBand?": the same 400 Gb/s incast (N senders → one receiver,
// plus a victim flow that shares one uplink) simulated packet by packet on InfiniBand credits, RoCE
// with PFC alone, RoCE with PFC + ECN/DCQCN and lossy RoCE; the pause climbing upstream and
// stalling the victim (once more in slow motion), what a drop costs with go-back-N, and the
// decision with the conditions that flip it.
#include "engine/scenario.h"

namespace wb {

class RoceVsInfinibandScenario final : public Scenario {
public:
    // Animation frames per simulated run (each kFabricFrameS of fabric time), and the packet
    // loss rates the go-back-N step sweeps.
    static constexpr int kFrames = 90;
    static constexpr int kSweepPoints = 8;
    // The slowed-down PFC run: frames of three packet times, long enough for the pause to
    // reach the hosts behind T at any link rate (the climb takes a fixed number of packets).
    static constexpr int kSlowFrames = 80;
    static constexpr int kSlowFrameSlots = 3;

    std::string id() const override { return "roce-vs-infiniband"; }
    ScenarioGroup group() const override { return ScenarioGroup::CollectivesAndFabrics; }
    std::string title() const override { return "RoCE vs InfiniBand"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
