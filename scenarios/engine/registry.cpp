#include "engine/registry.h"

#include "collectives/ring_allreduce_scenario.h"
#include "fabric/roce_vs_infiniband_scenario.h"
#include "gpu/coalescing_transpose_scenario.h"
#include "gpu/memory_hierarchy_scenario.h"
#include "gpu/occupancy_scenario.h"
#include "gpu/silicon_mapping_scenario.h"
#include "gpu/warp_divergence_scenario.h"
#include "moe/moe_routing_scenario.h"
#include "node/nccl_topology_scenario.h"
#include "parallel/fabric_mapping_scenario.h"
#include "parallel/parallelism_strategies_scenario.h"
#include "planning/memory_budget_scenario.h"
#include "planning/scale_fluency_scenario.h"
#include "planning/scheduler_scenario.h"
#include "reliability/blast_radius_scenario.h"
#include "reliability/failures_checkpoint_scenario.h"
#include "reliability/silent_hang_scenario.h"
#include "roofline/roofline_scenario.h"
#include "triage/slowdown_triage_scenario.h"

namespace wb {

const std::vector<std::unique_ptr<Scenario>>& allScenarios() {
    // Order within a group is the order of the browser and of --list.
    static const std::vector<std::unique_ptr<Scenario>> list = [] {
        std::vector<std::unique_ptr<Scenario>> v;
        v.push_back(std::make_unique<SiliconMappingScenario>());
        v.push_back(std::make_unique<WarpDivergenceScenario>());
        v.push_back(std::make_unique<MemoryHierarchyScenario>());
        v.push_back(std::make_unique<CoalescingTransposeScenario>());
        v.push_back(std::make_unique<OccupancyScenario>());
        v.push_back(std::make_unique<RooflineScenario>());
        v.push_back(std::make_unique<RingAllReduceScenario>());
        v.push_back(std::make_unique<ParallelismStrategiesScenario>());
        v.push_back(std::make_unique<FabricMappingScenario>());
        v.push_back(std::make_unique<NcclTopologyScenario>());
        v.push_back(std::make_unique<RoceVsInfinibandScenario>());
        v.push_back(std::make_unique<MoeRoutingScenario>());
        v.push_back(std::make_unique<FailuresCheckpointScenario>());
        v.push_back(std::make_unique<SilentHangScenario>());
        v.push_back(std::make_unique<SlowdownTriageScenario>());
        v.push_back(std::make_unique<MemoryBudgetScenario>());
        v.push_back(std::make_unique<ScaleFluencyScenario>());
        v.push_back(std::make_unique<SchedulerScenario>());
        v.push_back(std::make_unique<BlastRadiusScenario>());
        return v;
    }();
    return list;
}

const Scenario* findScenario(std::string_view id) {
    for (const auto& s : allScenarios())
        if (s->id() == id)
            return s.get();
    return nullptr;
}

const Scenario& defaultScenario() {
    return *findScenario("ring-allreduce");
}

} // namespace wb
