#pragma once
// nccl-topology "What does NCCL build inside a server, how does data reach the NIC, and why does
// nvidia-smi say 100 %?": an 8-GPU server's PCIe/NVSwitch/NIC topology; NCCL's rings and trees
// over it (and those of the user's NCCL log, when one is open); GPUDirect RDMA vs a bounce
// through host memory with the copies each makes; and a waiting rank whose GPU-Util reads
// 100 % while its SMs are nearly idle.
#include "engine/scenario.h"

namespace wb {

class NcclTopologyScenario final : public Scenario {
public:
    std::string id() const override { return "nccl-topology"; }
    ScenarioGroup group() const override { return ScenarioGroup::CollectivesAndFabrics; }
    std::string title() const override { return "NCCL topology and the misleading metric"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
};

} // namespace wb
