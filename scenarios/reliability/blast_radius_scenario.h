#pragma once
// blast-radius "One component fails in a 16,384-GPU cluster. What stops?": the cluster drawn whole,
// a failure chosen by kind and index (or by a click), its consequences revealed in order — GPUs
// lost, parallel groups broken, the job stopped — the same failure under a layout aligned with the
// failure domains and a misaligned one, and the single points of failure the dependency graph
// (ClusterFailureModel) finds.
#include "engine/scenario.h"
#include "frames/cluster_map_frame.h"
#include "reliability/cluster_failure_model.h"

namespace wb {

// The map of `model`'s cluster after `failed` (component ids; empty: nothing failed) with
// `revealed` of its consequences shown (0: only the failed component, 1: + components down
// and GPUs lost, 2: + the GPUs of broken TP/PP/DP groups, 3: + the job stopped).
ClusterMapFrame clusterMapFrame(const ClusterFailureModel& model, const std::vector<int>& failed,
                                int revealed, const std::string& title);

class BlastRadiusScenario final : public Scenario {
public:
    std::string id() const override { return "blast-radius"; }
    ScenarioGroup group() const override { return ScenarioGroup::ReliabilityAtScale; }
    std::string title() const override { return "Blast radius and failure domains"; }
    std::string question() const override;
    std::string answer() const override;
    std::vector<SourceRef> sources() const override;
    std::vector<ParamSpec> parameters() const override;
    using Scenario::build;
    Story build(const Params& params, const ScenarioInputs& inputs) const override;
    // A click on the cluster map fails that component: `fail` becomes its kind and `index`
    // its index, as the panel would set them; nullopt for a kind or index the parameters
    // do not allow.
    std::optional<Params> paramsForClick(const Params& current,
                                         const ClickTarget& click) const override;
};

} // namespace wb
