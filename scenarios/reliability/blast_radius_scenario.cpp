#include "reliability/blast_radius_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

const char* kLlama3 = "Llama 3 §3.3.1";

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
           "take with it, and can the layout make that smaller?";
}

std::string BlastRadiusScenario::answer() const {
    return R"(**A synchronous job is as fragile as its most fragile rank: any lost GPU stops it.**
- Everything under a failed component goes with it: a node takes 8 GPUs, a rack or its **ToR** 16, a **PDU** 8 racks (128 GPUs), a cooling zone 64 racks. The model walks the dependency graph; nothing is typed in.
- Redundancy removes single points of failure: each ToR uplinks to all 8 spines of its pod, so one spine down loses no GPU. The scheduler only blocks restarts; storage stops the job without losing a GPU.
- Every TP, PP and DP group holding a lost rank breaks, and the job waits in its next collective. Llama 3 saw **466 interruptions in 54 days** on 16K H100s, **419 unexpected**, GPUs the largest cause (Llama 3 §3.3.4).
- **Align the layout with the failure domains** (tp-pp-dp: a TP group in one node, a replica on consecutive racks) and a node failure damages **1 replica** instead of **8** (dp-pp-tp): with elastic DP or hot spares the job drops one replica, not eight.
- The cluster is shaped after Llama 3's: 8-GPU Grand Teton nodes, 16 GPUs per Minipack2 ToR (Llama 3 §3.3.1); pods of 128 racks, 8 spines, PDUs and cooling zones are this model's assumptions.)";
}

std::vector<SourceRef> BlastRadiusScenario::sources() const {
    return {
        {"Grattafiori et al., The Llama 3 Herd of Models §3.3 (arXiv:2407.21783)",
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
    auto spofs = std::make_shared<const std::vector<SpofSummary>>(model->singlePointsOfFailure());

    Story story;
    story.provenance =
        fill("modeled on CPU: %1 GPUs in a dependency graph shaped after Llama 3's cluster; %2",
             {std::to_string(spec.gpus), layoutName(model->layout())});
    const std::string mapTitle = fill("Cluster · %1", {layoutName(model->layout())});

    story.steps.push_back(
        {"16,384 GPUs, drawn whole",
         "Every GPU is a cell: 8 per node, 2 nodes per rack under one ToR switch (the strip on "
         "top), 128 racks per pod under 8 spines, a PDU per 8 racks (the bar below) and a "
         "cooling zone per 64 racks (the strip on the left). Click any of them to fail it.",
         5.0, [model, mapTitle](double) {
             FactsFrame f;
             f.title = "Components";
             const char* why[kMapKinds] = {"one rank each",
                                           "8 GPUs, NVLink",
                                           "2 nodes",
                                           "one per rack, 16 GPUs",
                                           "per pod, all ToRs on all",
                                           "row power, 8 racks",
                                           "64 racks",
                                           "Tectonic in Llama 3",
                                           "places and restarts jobs"};
             for (int k = 0; k < kMapKinds; ++k) {
                 const auto ck = static_cast<ComponentKind>(k);
                 f.rows.push_back({componentKindName(ck), std::to_string(model->count(ck)),
                                   fill("%1 · %2", {why[k], kLlama3})});
             }
             return Frames{{clusterMapFrame(*model, {}, 0, mapTitle), f}};
         }});

    const std::string stepTitle =
        fill("Fail %1: %2 GPUs lost, %3",
             {name, std::to_string(b.lostGpus.size()), b.jobStops ? "job stops" : "job runs on"});
    story.steps.push_back(
        {stepTitle,
         "First the components that depend on it go down and their GPUs are lost; then every "
         "TP, PP and DP group holding a lost rank breaks; then the synchronous job stops, since "
         "each collective waits for every rank.",
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

    auto compareRows = [](const BlastRadius& x, const BlastRadius& y) {
        FactsFrame f;
        f.title = "Aligned vs misaligned";
        auto row = [&](const std::string& label, int a, int m, const std::string& src) {
            f.rows.push_back({.label = label,
                              .value = fill("%1 vs %2", {std::to_string(a), std::to_string(m)}),
                              .source = src,
                              .emphasis = a != m});
        };
        row("GPUs lost", static_cast<int>(x.lostGpus.size()), static_cast<int>(y.lostGpus.size()),
            "same hardware, same failure");
        row("TP groups broken", x.groups.tp, y.groups.tp, "groups with a lost rank");
        row("PP groups broken", x.groups.pp, y.groups.pp, "groups with a lost rank");
        row("DP groups broken", x.groups.dp, y.groups.dp, "groups with a lost rank");
        row("replicas damaged", x.replicasBroken, y.replicasBroken, "what elastic DP would drop");
        return f;
    };
    story.steps.push_back(
        {fill("Aligned vs misaligned: %1 vs %2 replicas damaged",
              {std::to_string(bA.replicasBroken), std::to_string(bM.replicasBroken)}),
         "The same failure on the same hardware under two rank orders. Aligned (tp-pp-dp) keeps a "
         "TP group in a node and a replica on neighbouring racks, so the damage stays in few "
         "groups; misaligned (dp-pp-tp) spreads every node over many replicas.",
         8.0, [mAligned, mMisaligned, failedId, bA, bM, compareRows](double t) {
             const int revealed = std::min(3, 1 + static_cast<int>(t * 3.0));
             return Frames{
                 {clusterMapFrame(*mAligned, {failedId}, revealed,
                                  fill("Aligned · %1", {layoutName(mAligned->layout())})),
                  clusterMapFrame(*mMisaligned, {failedId}, revealed,
                                  fill("Misaligned · %1", {layoutName(mMisaligned->layout())})),
                  compareRows(bA, bM)},
                 Arrangement::Grid}; // the two maps at one size
         }});

    const int spine = model->id(ComponentKind::Spine, index % model->count(ComponentKind::Spine));
    const int storage = model->id(ComponentKind::Storage, 0);
    story.steps.push_back(
        {"Redundant or not: a spine vs the storage",
         "A ToR reaches all 8 spines of its pod, so one spine down loses nothing. Storage loses "
         "no GPU either, yet the job stops: it cannot read data or write checkpoints.",
         6.0, [model, spine, storage](double t) {
             const int revealed = std::min(3, 1 + static_cast<int>(t * 3.0));
             return Frames{{clusterMapFrame(*model, {spine}, revealed, "One spine failed"),
                            clusterMapFrame(*model, {storage}, revealed, "Storage failed")}};
         }});

    story.steps.push_back(
        {"Single points of failure, found by failing each component",
         "The model fails every component alone and keeps those whose blast radius stops the "
         "job. Only redundancy (the spines) and components the running job does not need (the "
         "scheduler) stay off the list.",
         6.0, [model, spofs, failedId, mapTitle](double) {
             FactsFrame f;
             f.title = "Single points of failure";
             for (const SpofSummary& s : *spofs)
                 f.rows.push_back(
                     {.label = componentKindName(s.kind),
                      .value = fill("%1 of %2", {std::to_string(s.spofs), std::to_string(s.total)}),
                      .source = s.why,
                      .emphasis = s.spofs > 0});
             return Frames{{clusterMapFrame(*model, {failedId}, 3, mapTitle), f}};
         }});
    return story;
}

} // namespace wb
