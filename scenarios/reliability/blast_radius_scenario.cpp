#include "reliability/blast_radius_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "reliability/llama3_interruptions.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

const char* kBrCluster = "Llama 3, arXiv:2407.21783, §3.3.1";
const char* kBrTable5 = "Llama 3, arXiv:2407.21783, Table 5";
const char* kBrPlacement = "Narayanan et al., SC'21 (arXiv:2104.04473), rank placement";

// The job's fate after a blast radius, in the model's terms.
std::string jobLine(const BlastRadius& b) {
    if (!b.lostGpus.empty())
        return "job stops: every collective waits for every rank";
    if (b.jobStops)
        return "job stops: no data loading, no checkpoints";
    if (b.restartBlocked)
        return "job runs on; no restart until it is back";
    return "job runs on: a redundant path carries it";
}

} // namespace

ClusterMapFrame clusterMapFrame(const ClusterFailureModel& model, const std::vector<int>& failed,
                                int revealed, const std::string& title) {
    const ClusterSpec& spec = model.spec();
    const ParallelLayout& l = model.layout();
    ClusterMapFrame f;
    f.title = title;
    f.gpusPerNode = spec.gpusPerNode;
    f.nodesPerRack = spec.nodesPerRack;
    f.racksPerPod = spec.racksPerPod;
    f.spinesPerPod = spec.spinesPerPod;
    f.racksPerPdu = spec.racksPerPdu;
    f.racksPerCoolingZone = spec.racksPerCoolingZone;
    f.tp = l.tp;
    f.pp = l.pp;
    f.dp = l.dp;
    f.tpStride = l.stride(Strategy::TP);
    f.ppStride = l.stride(Strategy::PP);
    f.dpStride = l.stride(Strategy::DP);
    f.layoutName = layoutName(l);
    f.gpus.assign(static_cast<std::size_t>(spec.gpus), MapGpuState::Healthy);
    for (int k = 1; k < kMapKinds; ++k)
        f.components[static_cast<std::size_t>(k)].assign(
            static_cast<std::size_t>(model.count(static_cast<ComponentKind>(k))),
            MapComponentState::Up);
    if (failed.empty()) {
        f.caption = fill("%1 GPUs up · %2", {std::to_string(spec.gpus), f.layoutName});
        return f;
    }
    const BlastRadius b = model.fail(failed);
    const Component& first = model.components()[static_cast<std::size_t>(failed.front())];
    f.failedKind = static_cast<int>(first.kind);
    f.failedIndex = first.index;

    // The failed components show at once; what they take down from the first reveal on.
    auto setState = [&](int id, MapComponentState s) {
        const Component& c = model.components()[static_cast<std::size_t>(id)];
        if (c.kind == ComponentKind::Gpu)
            return;
        f.components[static_cast<std::size_t>(c.kind)][static_cast<std::size_t>(c.index)] = s;
    };
    for (int id : b.down) {
        const bool isFailed = std::find(failed.begin(), failed.end(), id) != failed.end();
        if (isFailed || revealed >= 1)
            setState(id, isFailed ? MapComponentState::Failed : MapComponentState::Down);
    }
    if (revealed >= 1)
        for (int g : b.lostGpus)
            f.gpus[static_cast<std::size_t>(g)] = MapGpuState::Lost;
    if (revealed >= 2 && !b.lostGpus.empty()) {
        // Which groups lost a rank: the model counts them; the map needs their members. A group
        // of one dimension is named by the rank's coordinates along the other two.
        auto coord = [&](int r, Strategy s) { return (r / l.stride(s)) % l.size(s); };
        std::vector<char> tpHit(static_cast<std::size_t>(l.pp) * static_cast<std::size_t>(l.dp));
        std::vector<char> ppHit(static_cast<std::size_t>(l.tp) * static_cast<std::size_t>(l.dp));
        std::vector<char> dpHit(static_cast<std::size_t>(l.tp) * static_cast<std::size_t>(l.pp));
        auto keys = [&](int r) {
            const int t = coord(r, Strategy::TP), p = coord(r, Strategy::PP),
                      d = coord(r, Strategy::DP);
            return std::array<std::size_t, 3>{static_cast<std::size_t>(p * l.dp + d),
                                              static_cast<std::size_t>(t * l.dp + d),
                                              static_cast<std::size_t>(t * l.pp + p)};
        };
        for (int r : b.lostGpus) {
            const auto k = keys(r);
            tpHit[k[0]] = ppHit[k[1]] = dpHit[k[2]] = 1;
        }
        for (int r = 0; r < spec.gpus; ++r) {
            MapGpuState& s = f.gpus[static_cast<std::size_t>(r)];
            if (s == MapGpuState::Lost)
                continue;
            const auto k = keys(r);
            s = tpHit[k[0]]   ? MapGpuState::TpBroken
                : ppHit[k[1]] ? MapGpuState::PpBroken
                : dpHit[k[2]] ? MapGpuState::DpBroken
                              : MapGpuState::Healthy;
        }
    }
    if (revealed >= 3 && b.jobStops)
        for (MapGpuState& s : f.gpus)
            if (s == MapGpuState::Healthy)
                s = MapGpuState::Stopped;

    const int lost = static_cast<int>(b.lostGpus.size());
    f.consequences = {
        fill("1. %1 lost (%2 down)",
             {formatCount(lost, "GPU", "GPUs"),
              formatCount(static_cast<int>(b.down.size()), "component", "components")}),
        fill("2. groups broken: TP %1 · PP %2 · DP %3; %4/%5 replicas",
             {std::to_string(b.groups.tp), std::to_string(b.groups.pp), std::to_string(b.groups.dp),
              std::to_string(b.replicasBroken), std::to_string(l.dp)}),
        fill("3. %1", {jobLine(b)})};
    f.revealed = std::clamp(revealed, 0, 3);
    // The caption grows with the reveal: one " · " part per consequence shown so far.
    std::vector<std::string> parts = {fill("%1 failed", {first.name})};
    if (revealed >= 1)
        parts.push_back(fill("%1 lost", {formatCount(lost, "GPU", "GPUs")}));
    if (revealed >= 2)
        parts.push_back(
            fill("%1 groups broken", {std::to_string(b.groups.tp + b.groups.pp + b.groups.dp)}));
    if (revealed >= 3)
        parts.push_back(b.jobStops ? "job stopped" : "job runs");
    for (std::size_t i = 0; i < parts.size(); ++i)
        f.caption.append(i ? " · " : "").append(parts[i]);
    return f;
}

std::string BlastRadiusScenario::question() const {
    return "One component fails in a 16,384-GPU cluster. How much of the training job does it "
           "take with it, which failures cost the most, and can the layout make that smaller?";
}

std::string BlastRadiusScenario::answer() const {
    return R"(**A synchronous job is as fragile as its most fragile rank: any lost GPU stops it.**
- Everything under a failed component goes with it: a node takes 8 GPUs, a rack or its **ToR** 16, a **PDU** 8 racks (128 GPUs, assumed), a cooling zone 64 racks (assumed). The model walks the dependency graph; nothing is typed in.
- Llama 3's cluster: 8-GPU servers, 16 GPUs per ToR, pods of 192 racks = 3,072 GPUs, pods joined by a 1:7 oversubscribed aggregation layer (Llama 3 §3.3.1). Spine counts, PDUs and cooling zones are not in the paper: this model assumes them.
- Rank by **blast size × failure rate × hours down**: GPUs fail most often (Llama 3 Table 5), so they cost the most; a PDU or a cooling zone is rarer but bigger than any spare pool.
- **Hot spares** turn a wait for the repair into a restart for every failure whose GPUs fit in the pool; storage must itself come back.
- **Align the layout with the failure domains** (tp-pp-dp: a TP group in one node, a replica on consecutive racks) and a rack failure stays inside one DP replica when a replica spans a rack or more; misaligned (dp-pp-tp) it damages 16.)";
}

std::vector<SourceRef> BlastRadiusScenario::sources() const {
    return {
        {"Grattafiori et al., The Llama 3 Herd of Models §3.3.1 and §3.3.4, Table 5 "
         "(arXiv:2407.21783)",
         "https://arxiv.org/abs/2407.21783"},
        {"Narayanan et al., Megatron-LM on GPU clusters (SC'21): rank placement",
         "https://arxiv.org/abs/2104.04473"},
        {"Barroso, Hölzle, Ranganathan, The Datacenter as a Computer (failure domains)",
         "https://doi.org/10.1007/978-3-031-01761-2"},
    };
}

std::vector<ParamSpec> BlastRadiusScenario::parameters() const {
    return {
        ParamSpec::text("layout", "Layout TP, PP, DP", "tp=8,pp=16,dp=128",
                        "tp×pp×dp must be 16,384; Llama 3 405B used 8×16×128 (Table 4)"),
        ParamSpec::choice("order", "Rank order", {"aligned", "misaligned"}, "aligned",
                          "aligned: tp-pp-dp (TP inside a node); misaligned: dp-pp-tp"),
        ParamSpec::choice("fail", "Component to fail", componentKindNames(), "node",
                          "or click one on the map"),
        ParamSpec::integer("index", "Which one", "", 0, 16383, 37, false,
                           "wraps around the number of components of that kind"),
        ParamSpec::integer("spares", "Hot spare GPUs", "GPUs", 0, 4096, 32, false,
                           "assumed: GPUs kept ready to take a lost rank's place"),
        ParamSpec::real("repair", "Repair time", "h", 1, 72, 8, false,
                        "assumed: hours until a failed component is back"),
        ParamSpec::real("restart", "Restart on spares", "min", 1, 240, 20, false,
                        "assumed: minutes to restart the job on spares"),
    };
}

std::optional<Params> BlastRadiusScenario::paramsForClick(const Params& current,
                                                          const ClickTarget& click) const {
    // The map numbers components as MapKind, the same order as ComponentKind's names.
    const auto& kinds = componentKindNames();
    if (click.kind < 0 || static_cast<std::size_t>(click.kind) >= kinds.size())
        return std::nullopt;
    Params next = current;
    if (next.set("fail", kinds[static_cast<std::size_t>(click.kind)]) ||
        next.set("index", std::to_string(click.index)))
        return std::nullopt;
    return next;
}

namespace {

// A kind as a slide names it: "ToR", "cooling zones".
std::string brKindLabel(ComponentKind k, bool plural) {
    static const char* one[kMapKinds] = {"GPU", "node",         "rack",    "ToR",      "spine",
                                         "PDU", "cooling zone", "storage", "scheduler"};
    const std::string s = one[static_cast<int>(k)];
    return plural && k != ComponentKind::Storage && k != ComponentKind::Scheduler ? s + "s" : s;
}

// What a component kind is in the cluster, and whether its size is published or assumed.
std::string brKindRole(ComponentKind k, const ClusterSpec& c) {
    const std::string rack = std::to_string(c.gpusPerNode * c.nodesPerRack);
    switch (k) {
    case ComponentKind::Gpu:
        return fill("H100, one rank each · %1", {kBrCluster});
    case ComponentKind::Node:
        return fill("%1 GPUs on NVLink · %2", {std::to_string(c.gpusPerNode), kBrCluster});
    case ComponentKind::Rack:
        return fill("%1 nodes, %2 GPUs · %3", {std::to_string(c.nodesPerRack), rack, kBrCluster});
    case ComponentKind::Tor:
        return fill("one per rack of %1 GPUs · %2", {rack, kBrCluster});
    case ComponentKind::Spine:
        return fill("%1 per pod, every ToR on all: assumed", {std::to_string(c.spinesPerPod)});
    case ComponentKind::Pdu:
        return fill("power for %1 racks: assumed", {std::to_string(c.racksPerPdu)});
    case ComponentKind::Cooling:
        return fill("%1 racks: assumed", {std::to_string(c.racksPerCoolingZone)});
    case ComponentKind::Storage:
        return fill("one service (Tectonic) · %1", {kBrCluster});
    case ComponentKind::Scheduler:
        return "places and restarts jobs: assumed one";
    }
    return {};
}

// The job's cost of each kind as bars, in the ranking's order, on one scale for both policies.
BarChartFrame brLossBars(const LossRanking& r, bool withSpares, const std::string& title,
                         const std::string& caption) {
    BarChartFrame f;
    f.title = title;
    f.caption = caption;
    f.horizontal = true;
    f.axisTitle = "GPU-hours the job loses per day";
    f.series = {withSpares ? "with hot spares" : "no spares: wait for the repair"};
    double top = 0.0;
    for (const KindLoss& l : r.kinds) {
        top = std::max({top, l.lossNoSpares, l.lossSpares});
        const double v = withSpares ? l.lossSpares : l.lossNoSpares;
        f.categories.push_back(
            {fill("%1 (%2)", {brKindLabel(l.kind, false), formatCount(l.blastGpus, "GPU", "GPUs")}),
             {{v, 0,
               fill("%1 failures a day × %2 h down × %3 GPUs idle",
                    {formatSignificant(l.failuresPerDay, 3),
                     formatSignificant(withSpares ? l.outageSparesH : l.outageNoSparesH, 3),
                     l.stopsJob ? "all the job's" : "none of the job's"})}},
             ""});
    }
    f.axisMax = top;
    f.emphasis = 0;
    return f;
}

} // namespace

Story BlastRadiusScenario::build(const Params& p, const ScenarioInputs&) const {
    ParallelLayout chosen = parseLayoutSizes(p.text("layout"));
    const bool aligned = p.text("order") == "aligned";
    ParallelLayout alignedL = chosen, misalignedL = chosen;
    alignedL.order = {Strategy::TP, Strategy::PP, Strategy::DP};
    misalignedL.order = {Strategy::DP, Strategy::PP, Strategy::TP};
    const ClusterSpec spec;
    auto mAligned = std::make_shared<const ClusterFailureModel>(spec, alignedL);
    auto mMisaligned = std::make_shared<const ClusterFailureModel>(spec, misalignedL);
    auto model = aligned ? mAligned : mMisaligned;

    const ComponentKind kind = parseComponentKind(p.text("fail"));
    const int index = static_cast<int>(p.integer("index") % model->count(kind));
    const int failedId = model->id(kind, index);
    const std::string name = model->components()[static_cast<std::size_t>(failedId)].name;
    const BlastRadius b = model->fail(failedId);
    const BlastRadius bA = mAligned->fail(failedId), bM = mMisaligned->fail(failedId);
    const int spine = model->id(ComponentKind::Spine, index % model->count(ComponentKind::Spine));
    const int storage = model->id(ComponentKind::Storage, 0);
    const BlastRadius bSpine = model->fail(spine), bStorage = model->fail(storage);
    const int rack0 = model->id(ComponentKind::Rack, 0);
    const BlastRadius rackA = mAligned->fail(rack0), rackM = mMisaligned->fail(rack0);

    SparePolicy policy;
    policy.spareGpus = static_cast<int>(p.integer("spares"));
    policy.repairH = p.number("repair");
    policy.restartH = p.number("restart") / 60.0;
    const auto ranking = std::make_shared<const LossRanking>(model->expectedLosses(policy));
    const KindLoss& top = ranking->kinds.front();
    const KindLoss* gpuLoss = nullptr;
    for (const KindLoss& l : ranking->kinds)
        if (l.kind == ComponentKind::Gpu)
            gpuLoss = &l;

    const ParallelLayout& l = model->layout();
    const int lost = static_cast<int>(b.lostGpus.size());
    const int rackGpus = spec.gpusPerNode * spec.nodesPerRack;
    const int replicaGpus = l.tp * l.pp;
    const double jobGpuHoursPerDay = spec.gpus * 24.0;

    Story story;
    story.provenance =
        fill("modeled on CPU: %1 GPUs in a dependency graph after Llama 3's cluster "
             "(Llama 3 §3.3.1; spines, PDUs, cooling and rates beyond Table 5 assumed); %2",
             {std::to_string(spec.gpus), layoutName(l)});
    story.results = {
        {"GPUs", spec.gpus},
        {"TP", l.tp},
        {"PP", l.pp},
        {"DP", l.dp},
        {"GPUs per node", spec.gpusPerNode},
        {"nodes per rack", spec.nodesPerRack},
        {"GPUs per rack", rackGpus},
        {"racks per pod", spec.racksPerPod},
        {"GPUs per pod", spec.racksPerPod * rackGpus},
        {"aggregation oversubscription", 7},
        {"oversubscription's 1", 1},
        {"spines per pod", spec.spinesPerPod},
        {"racks per PDU", spec.racksPerPdu},
        {"racks per cooling zone", spec.racksPerCoolingZone},
        {"failed index", index},
        {"GPUs lost", lost},
        {"components down", b.down.size()},
        {"TP groups broken", b.groups.tp},
        {"PP groups broken", b.groups.pp},
        {"DP groups broken", b.groups.dp},
        {"groups broken", b.groups.tp + b.groups.pp + b.groups.dp},
        {"replicas damaged", b.replicasBroken},
        {"replicas damaged, aligned", bA.replicasBroken},
        {"replicas damaged, misaligned", bM.replicasBroken},
        {"TP groups, aligned", bA.groups.tp},
        {"TP groups, misaligned", bM.groups.tp},
        {"rack's replicas, aligned", rackA.replicasBroken},
        {"rack's replicas, misaligned", rackM.replicasBroken},
        {"replica GPUs", replicaGpus},
        {"spine GPUs lost", bSpine.lostGpus.size()},
        {"spine index in pod", index % spec.spinesPerPod},
        {"spine's pod", (index % model->count(ComponentKind::Spine)) / spec.spinesPerPod},
        {"storage GPUs lost", bStorage.lostGpus.size()},
        {"availability, no spares", ranking->availabilityNoSpares},
        {"availability, spares", ranking->availabilitySpares},
        {"GPU-hours lost a day, no spares", ranking->lossNoSpares},
        {"GPU-hours lost a day, spares", ranking->lossSpares},
        {"loss share, no spares", ranking->lossNoSpares / jobGpuHoursPerDay},
        {"loss share, spares", ranking->lossSpares / jobGpuHoursPerDay},
        {"Table 5 days", llama3Record().days},
    };
    for (int k = 0; k < kMapKinds; ++k)
        story.results.push_back({"count", model->count(static_cast<ComponentKind>(k))});
    for (const KindLoss& kl : ranking->kinds) {
        story.results.push_back({"blast", kl.blastGpus});
        story.results.push_back({"failures a day", kl.failuresPerDay});
        story.results.push_back({"loss, no spares", kl.lossNoSpares});
        story.results.push_back({"loss, spares", kl.lossSpares});
        story.results.push_back({"loss share, no spares", kl.lossNoSpares / jobGpuHoursPerDay});
        story.results.push_back({"loss share, spares", kl.lossSpares / jobGpuHoursPerDay});
    }
    const std::string mapTitle = fill("Cluster · %1", {layoutName(l)});

    // 1. The cluster, with what is published and what is assumed.
    story.steps.push_back(
        {fill("%1 GPUs, drawn whole", {std::to_string(spec.gpus)}),
         fill("Every GPU is a cell: %1 per node, %2 nodes per rack under one ToR switch (the strip "
              "on top), pods of %3 racks = %4 GPUs, as published. Assumed, since the "
              "paper gives no counts: %5 spines per pod (above each pod), a PDU per %6 racks (the "
              "bar below) and a cooling zone per %7 racks (the strip on the left). Click any of "
              "them to fail it.",
              {std::to_string(spec.gpusPerNode), std::to_string(spec.nodesPerRack),
               std::to_string(spec.racksPerPod), std::to_string(spec.racksPerPod * rackGpus),
               std::to_string(spec.spinesPerPod), std::to_string(spec.racksPerPdu),
               std::to_string(spec.racksPerCoolingZone)}),
         5.0, [model, mapTitle, spec, rackGpus](double) {
             FactsFrame f;
             f.title = "Components";
             for (int k = 0; k < kMapKinds; ++k) {
                 const auto ck = static_cast<ComponentKind>(k);
                 f.rows.push_back({brKindLabel(ck, false), std::to_string(model->count(ck)),
                                   brKindRole(ck, spec)});
             }
             f.rows.push_back(
                 {.label = "pod",
                  .value = fill("%1 GPUs", {std::to_string(spec.racksPerPod * rackGpus)}),
                  .source = fill("%1 racks; pods joined 1:7 oversubscribed · %2",
                                 {std::to_string(spec.racksPerPod), kBrCluster}),
                  .emphasis = false});
             return Frames{{clusterMapFrame(*model, {}, 0, mapTitle), f}};
         }});

    // 2. One failure, its consequences in order.
    story.steps.push_back(
        {fill("Fail %1: %2 lost, %3",
              {name, formatCount(lost, "GPU", "GPUs"), b.jobStops ? "job stops" : "job runs on"}),
         lost > 0 ? std::string("The outlined region is the failed component's reach: its GPUs "
                                "are lost. Then every TP, PP and DP group holding a lost rank "
                                "breaks, and the synchronous job stops, since each collective "
                                "waits for every rank.")
                  : std::string("It takes no GPU with it. What still matters is whether the "
                                "job needs it: a redundant switch can go, the storage cannot."),
         8.0, [model, failedId, mapTitle, b](double t) {
             const int revealed = std::min(3, static_cast<int>(t * 4.0));
             FactsFrame f;
             f.title = "In order";
             const ClusterMapFrame map = clusterMapFrame(*model, {failedId}, revealed, mapTitle);
             for (int i = 0; i < revealed; ++i)
                 f.rows.push_back({.label = map.consequences[static_cast<std::size_t>(i)].substr(3),
                                   .value = "",
                                   .source = i == 2
                                                 ? b.explanation
                                                 : "modeled: what the failed component takes down",
                                   .emphasis = i == revealed - 1});
             if (f.rows.empty())
                 f.rows.push_back({"failed", map.caption, "the component chosen"});
             return Frames{{map, f}};
         }});

    // 3. The same failure under both rank orders, two maps of one size and arrangement.
    story.steps.push_back(
        {fill("Aligned vs misaligned: %1 vs %2 replicas damaged",
              {std::to_string(bA.replicasBroken), std::to_string(bM.replicasBroken)}),
         fill("The same failure on the same hardware under two rank orders. Aligned (tp-pp-dp) "
              "keeps a TP group in a node and a replica on neighbouring racks: %1 broken against "
              "%2 misaligned (dp-pp-tp), %3 damaged against %4.",
              {formatCount(bA.groups.tp, "TP group", "TP groups"), std::to_string(bM.groups.tp),
               formatCount(bA.replicasBroken, "replica", "replicas"),
               std::to_string(bM.replicasBroken)}),
         8.0, [mAligned, mMisaligned, failedId](double t) {
             const int revealed = std::min(3, 1 + static_cast<int>(t * 3.0));
             return Frames{
                 {clusterMapFrame(*mAligned, {failedId}, revealed,
                                  fill("Aligned · %1", {layoutName(mAligned->layout())})),
                  clusterMapFrame(*mMisaligned, {failedId}, revealed,
                                  fill("Misaligned · %1", {layoutName(mMisaligned->layout())}))},
                 Arrangement::Grid}; // side by side at one size, to be compared
         }});

    // 4. Redundancy against a component the job needs.
    const bool spineHarmless = bSpine.lostGpus.empty() && !bSpine.jobStops;
    story.steps.push_back(
        {fill("Redundant or not: a spine %1, the storage %2",
              {spineHarmless
                   ? std::string("loses nothing")
                   : fill("loses %1",
                          {formatCount(static_cast<int>(bSpine.lostGpus.size()), "GPU", "GPUs")}),
               bStorage.jobStops ? "stops the job" : "does not stop it"}),
         fill("A ToR uplinks to all %1 spines of its pod, so one spine down loses %2. The storage "
              "takes %3 with it, yet the job %4: it cannot read data or write checkpoints.",
              {std::to_string(spec.spinesPerPod),
               formatCount(static_cast<int>(bSpine.lostGpus.size()), "GPU", "GPUs"),
               formatCount(static_cast<int>(bStorage.lostGpus.size()), "GPU", "GPUs"),
               bStorage.jobStops ? "stops" : "runs on"}),
         6.0, [model, spine, storage](double t) {
             const int revealed = std::min(3, 1 + static_cast<int>(t * 3.0));
             return Frames{{clusterMapFrame(*model, {spine}, revealed, "One spine failed"),
                            clusterMapFrame(*model, {storage}, revealed, "Storage failed")},
                           Arrangement::Grid};
         }});

    // 5. Which failures cost the most: blast size × failure rate × hours down.
    const std::string repairH = formatNumber(policy.repairH);
    story.steps.push_back(
        {fill("Ranked by expected loss: %1 the most",
              {fill(brKindLabel(top.kind, true) == brKindLabel(top.kind, false) ? "%1 costs"
                                                                                : "%1 cost",
                    {brKindLabel(top.kind, true)})}),
         fill("Expected loss = failures a day × hours the job is down × GPUs idled. Without spares "
              "every stop waits %1 h for the repair, so the job runs %2 of the time. Top of the "
              "list, %3: %4 failures a day.",
              {repairH, formatShare(ranking->availabilityNoSpares), brKindLabel(top.kind, true),
               formatSignificant(top.failuresPerDay, 3)}),
         7.0, [ranking](double) {
             FactsFrame f;
             f.title = "Failures a day";
             for (const KindLoss& kl : ranking->kinds)
                 f.rows.push_back({.label = brKindLabel(kl.kind, false),
                                   .value = formatSignificant(kl.failuresPerDay, 3),
                                   .source = kl.rate.source,
                                   .emphasis = kl.lossNoSpares > 0});
             return Frames{
                 {brLossBars(*ranking, false, "No spares: every stop waits for the repair",
                             fill("the job runs %1 of the time",
                                  {formatShare(ranking->availabilityNoSpares)})),
                  f}};
         }});

    // 6. What hot spares buy, and the layout that keeps a rack inside one replica.
    std::vector<std::string> covered, uncovered;
    for (const KindLoss& kl : ranking->kinds)
        if (kl.stopsJob)
            (kl.sparesCover ? covered : uncovered).push_back(brKindLabel(kl.kind, false));
    auto joined = [](const std::vector<std::string>& v) {
        std::string out;
        for (const std::string& x : v)
            out.append(out.empty() ? "" : ", ").append(x);
        return out.empty() ? std::string("none") : out;
    };
    const std::string restartMin = formatNumber(p.number("restart"));
    const std::string rackVerdict =
        rackA.replicasBroken < rackM.replicasBroken
            ? fill("aligned keeps a rack's failure to %1 against %2 misaligned",
                   {formatCount(rackA.replicasBroken, "replica", "replicas"),
                    std::to_string(rackM.replicasBroken)})
        : rackA.replicasBroken > rackM.replicasBroken
            ? fill("here misaligned damages fewer replicas with a rack (%1 against %2)",
                   {std::to_string(rackM.replicasBroken), std::to_string(rackA.replicasBroken)})
            : fill("both orders damage %1 with a rack",
                   {formatCount(rackA.replicasBroken, "replica", "replicas")});
    story.steps.push_back(
        {fill("Hot spares: the job runs %1 of the time instead of %2",
              {formatShare(ranking->availabilitySpares),
               formatShare(ranking->availabilityNoSpares)}),
         fill("With %1 ready, a failure whose GPUs fit in them costs %2 min of restart instead "
              "of %3 h of repair: the loss falls from %4 to %5 of the job's GPU-hours. %6 And %7.",
              {formatCount(policy.spareGpus, "spare GPU", "spare GPUs"), restartMin, repairH,
               formatShare(ranking->lossNoSpares / jobGpuHoursPerDay),
               formatShare(ranking->lossSpares / jobGpuHoursPerDay),
               uncovered.empty() ? std::string("Every failure that stops the job fits in the pool.")
                                 : fill("Still waiting for their repair: %1.", {joined(uncovered)}),
               rackVerdict}),
         7.0,
         [ranking, covered, uncovered, joined, rackA, rackM, policy, restartMin, repairH,
          replicaGpus](double) {
             FactsFrame f;
             f.title = "What spares and layout buy";
             f.rows = {
                 {.label = "job running, no spares",
                  .value = formatShare(ranking->availabilityNoSpares),
                  .source = fill("every stop waits %1 h for its repair (assumed)", {repairH}),
                  .emphasis = false},
                 {.label = "job running, hot spares",
                  .value = formatShare(ranking->availabilitySpares),
                  .source = fill("%1, restart in %2 min (assumed)",
                                 {formatCount(policy.spareGpus, "GPU", "GPUs"), restartMin}),
                  .emphasis = true},
                 {.label = "spares cover",
                  .value = joined(covered),
                  .source = "its GPUs fit in the pool: restart, no wait",
                  .emphasis = false},
                 {.label = "still wait",
                  .value = joined(uncovered),
                  .source = "bigger than the pool, or the storage itself",
                  .emphasis = false},
                 {.label = "a rack fails, aligned",
                  .value = fill("%1 damaged",
                                {formatCount(rackA.replicasBroken, "replica", "replicas")}),
                  .source = fill("tp-pp-dp: a replica is %1 consecutive GPUs · %2",
                                 {std::to_string(replicaGpus), kBrPlacement}),
                  .emphasis = rackA.replicasBroken < rackM.replicasBroken},
                 {.label = "a rack fails, misaligned",
                  .value = fill("%1 damaged",
                                {formatCount(rackM.replicasBroken, "replica", "replicas")}),
                  .source = "dp-pp-tp: neighbouring GPUs hold different replicas",
                  .emphasis = false},
             };
             return Frames{{brLossBars(*ranking, true, "Hot spares: a restart instead of a repair",
                                       fill("the job runs %1 of the time",
                                            {formatShare(ranking->availabilitySpares)})),
                            f}};
         }});

    // The closing answer and the questions, with this run's numbers.
    story.whiteboard.question =
        fill("One component fails in a %1-GPU cluster. What does it take with it, which "
             "failures cost the most, and how do you make that smaller?",
             {std::to_string(spec.gpus)});
    story.whiteboard.points = {
        {fill("Map the failure domains: %1 GPUs per node, %2 per rack and ToR, pods of %3 GPUs; "
              "PDUs, cooling and spines are assumed here. A synchronous job stops on any lost GPU.",
              {std::to_string(spec.gpusPerNode), std::to_string(rackGpus),
               std::to_string(spec.racksPerPod * rackGpus)}),
         kBrCluster},
        {fill("Failing %1 takes %2 and breaks %3 parallel groups; the job %4.",
              {name, formatCount(lost, "GPU", "GPUs"),
               std::to_string(b.groups.tp + b.groups.pp + b.groups.dp),
               b.jobStops ? "stops" : "runs on"}),
         ""},
        {fill("Rank by failures a day × hours down × GPUs idled: %1 lead with %2 failures a day; "
              "without spares the job runs %3 of the time.",
              {brKindLabel(top.kind, true), formatSignificant(top.failuresPerDay, 3),
               formatShare(ranking->availabilityNoSpares)}),
         kBrTable5},
        {fill("Hot spares turn %1 h of repair into %2 min of restart for failures that fit in "
              "them: %3 of the time running.",
              {repairH, restartMin, formatShare(ranking->availabilitySpares)}),
         ""},
        {fill("Align ranks with the domains: %1.", {rackVerdict}), kBrPlacement},
    };
    story.checks = {
        {fill("How many GPUs does failing %1 take down?", {name}), static_cast<double>(lost),
         "GPUs", 0.0,
         fill("Everything that depends on %1 goes with it: %2.",
              {name, formatCount(lost, "GPU", "GPUs")})},
        {"Under the misaligned order (dp-pp-tp), how many model replicas does one rack's failure "
         "damage?",
         static_cast<double>(rackM.replicasBroken), "replicas", 0.0,
         fill("A rack holds %1 consecutive ranks; dp varies fastest, so they sit in %2 "
              "different replicas (at most DP = %3).",
              {std::to_string(rackGpus), std::to_string(rackM.replicasBroken),
               std::to_string(misalignedL.dp)})},
        {fill("At Table 5's GPU failure rate, how many GPU failures a day do %1 GPUs see?",
              {std::to_string(spec.gpus)}),
         gpuLoss->failuresPerDay, "failures a day", 0.05,
         fill("%1 GPUs × %2 a day per GPU = %3.",
              {std::to_string(spec.gpus),
               formatSignificant(gpuLoss->rate.perComponentPerHour * 24.0, 3),
               formatSignificant(gpuLoss->failuresPerDay, 3)})},
    };
    addWhiteboardStep(story,
                      fill("Any lost GPU stops the job; %1 lead the expected loss, hot spares "
                           "lift the running time from %2 to %3.",
                           {brKindLabel(top.kind, true), formatShare(ranking->availabilityNoSpares),
                            formatShare(ranking->availabilitySpares)}));
    return story;
}

} // namespace wb
