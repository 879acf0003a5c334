#include "parallel/fabric_mapping_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "parallel/layout_search.h"
#include "parallel/topology_frame_builder.h"
#include "roofline/roofline_model.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

// Model shapes with Megatron-LM's 12·L·h² weight count (FACTS §9.3), so the traffic follows
// the dimensions. GPT-3 175B is Megatron-LM's own example (96 layers, h = 12288, 96 heads).
struct ModelShape {
    const char* id;
    int layers, hidden, heads;
};
constexpr ModelShape kShapes[] = {
    {.id = "gpt3-175b", .layers = 96, .hidden = 12288, .heads = 96},
    {.id = "70b", .layers = 80, .hidden = 8192, .heads = 64},
    {.id = "13b", .layers = 40, .hidden = 5120, .heads = 40},
    {.id = "7b", .layers = 32, .hidden = 4096, .heads = 32},
};

std::vector<std::string> shapeIds() {
    std::vector<std::string> ids;
    for (const ModelShape& s : kShapes)
        ids.emplace_back(s.id);
    return ids;
}

const char* kSources = "Narayanan et al. SC'21 §3.2 (TP, PP bytes); ZeRO §7 (DP); ring α-β";

struct Costed {
    ParallelLayout layout;
    StepEstimate estimate;
    std::string basis; // "50 % of 989 TFLOP/s (NVIDIA H100 SXM5 80 GB)": what compute assumes
};

FactsFrame trafficTable(const std::string& title, const Costed& c) {
    FactsFrame f;
    f.title = title;
    for (Strategy s : {Strategy::TP, Strategy::PP, Strategy::DP}) {
        double bytes = 0, time = 0;
        std::string link;
        for (const Traffic& tr : c.estimate.traffic) {
            if (tr.strategy != s)
                continue;
            bytes += tr.bytesPerStep();
            time += tr.timePerStep();
            link = linkName(tr.cost.span.bottleneck);
        }
        const std::string group =
            s == Strategy::TP   ? fill("TP, group of %1", {std::to_string(c.layout.tp)})
            : s == Strategy::PP ? fill("PP, %1 stages", {std::to_string(c.layout.pp)})
                                : fill("DP, %1 replicas", {std::to_string(c.layout.dp)});
        f.rows.push_back({.label = link.empty() ? group : fill("%1 on %2", {group, link}),
                          .value = bytes > 0
                                       ? fill("%1, %2", {formatBytes(bytes), formatSi(time, "s")})
                                       : std::string("none"),
                          .source = fill("per GPU per step · %1", {kSources}),
                          .emphasis = link == "network" && s == Strategy::TP});
    }
    const StepEstimate& e = c.estimate;
    f.rows.push_back({"compute + bubble",
                      fill("%1 + %2", {formatSi(e.computeS, "s"), formatSi(e.bubbleS, "s")}),
                      fill("6ND at %1; bubble (P−1)/(V·M) = %2 % with M = %3",
                           {c.basis, formatSignificant(e.bubbleOfIdeal * 100, 3),
                            std::to_string(e.microbatches)})});
    f.rows.push_back(
        {.label = "step, serialized / DP overlapped",
         .value = fill("%1 / %2", {formatSi(e.stepS, "s"), formatSi(e.stepOverlappedS, "s")}),
         .source = "DP hides under the backward pass (⅔ of compute)",
         .emphasis = true});
    f.rows.push_back({.label = "MFU, serialized / overlapped",
                      .value = fill("%1 % / %2 %", {formatSignificant(e.mfu * 100, 3),
                                                    formatSignificant(e.mfuOverlapped * 100, 3)}),
                      .source = "PaLM's MFU: 6ND ÷ (time × GPUs × peak)",
                      .emphasis = true});
    return f;
}

// One step laid end to end: compute, the bubble (hatched), then each strategy's
// communication on the critical path; with `overlap` DP runs under the backward pass.
ScheduleRow stepRow(const std::string& label, const Costed& c, bool overlap) {
    const StepEstimate& e = c.estimate;
    ScheduleRow r;
    r.label = label;
    r.idleIsBubble = true;
    r.bars.push_back({.startS = 0,
                      .endS = e.computeS,
                      .kind = ScheduleKind::Compute,
                      .label = "compute",
                      .shade = 0,
                      .tip = fill("forward + backward: %1", {formatSi(e.computeS, "s")})});
    double x = e.computeS + e.bubbleS; // the gap is the pipeline bubble
    const ScheduleKind kinds[3] = {ScheduleKind::AllReduce, ScheduleKind::SendRecv,
                                   c.layout.zero > 0 ? ScheduleKind::ReduceScatter
                                                     : ScheduleKind::AllReduce};
    const char* names[3] = {"TP", "PP", "DP"};
    for (int s = 0; s < 3; ++s) {
        double d = e.commS[s];
        if (d <= 0)
            continue;
        if (overlap && s == 2) {
            const double hidden = std::min(d, e.computeS * 2.0 / 3.0);
            r.bars.push_back(
                {.startS = e.computeS / 3.0,
                 .endS = e.computeS / 3.0 + hidden,
                 .kind = kinds[s],
                 .label = "DP",
                 .shade = 1,
                 .tip = fill("DP hidden under the backward pass: %1", {formatSi(hidden, "s")})});
            d -= hidden;
            if (d <= 0)
                continue;
        }
        r.bars.push_back({.startS = x,
                          .endS = x + d,
                          .kind = kinds[s],
                          .label = names[s],
                          .shade = 0,
                          .tip = fill("%1 communication on the critical path: %2",
                                      {names[s], formatSi(d, "s")})});
        x += d;
    }
    return r;
}

ScheduleFrame stepBars(const std::string& title, std::vector<ScheduleRow> rows, double endS,
                       const std::string& caption, double t) {
    ScheduleFrame f;
    f.title = title;
    f.rows = std::move(rows);
    f.endS = endS;
    f.cursorS = t >= 1.0 ? -1.0 : t * endS;
    f.caption = caption;
    return f;
}

} // namespace

std::string FabricMappingScenario::question() const {
    return "You have 1,024 GPUs in 8-GPU NVLink nodes. Where do tensor, pipeline and data "
           "parallelism go, and what happens if you get it wrong?";
}

std::string FabricMappingScenario::answer() const {
    return R"(**Put the chattiest, least hideable traffic on the fastest link.**
- **TP** sends 4 all-reduces of b·s·h per layer per micro-batch (8bsh(t−1)/t per layer per device, Megatron-LM §3.2), on the critical path: it needs NVLink (~450 GB/s per GPU per direction on H100 vs 50 GB/s for a 400 Gb/s NIC, ≈ 9×). **TP ≤ GPUs per node, consecutive ranks.**
- **PP** sends one b·s·h/t activation per micro-batch per stage boundary: small, point-to-point, tolerant of the network. **PP across nodes.**
- **DP** moves 2Ψ/(t·p) per step once (3Ψ with ZeRO-3) and overlaps it with the backward pass. **DP over the rest, outermost.**
- Rank order matters as much as sizes: with `dp` fastest, TP groups straddle nodes even when TP = 8.
- Bubble (P−1)/(V·M) grows with PP; DP shrinks the micro-batches per replica (M = G/(b·d)), so the best layout balances them. The search below costs every valid TP×PP×DP and rank order with the same model; "TP inside the node" falls out of the numbers.
Megatron-LM takeaway #1: tensor parallelism up to the GPUs of one server, pipeline parallelism across servers.)";
}

std::vector<SourceRef> FabricMappingScenario::sources() const {
    return {
        {"Narayanan et al., Megatron-LM on GPU clusters (SC'21)",
         "https://arxiv.org/abs/2104.04473"},
        {"Rajbhandari et al., ZeRO (SC'20)", "https://arxiv.org/abs/1910.02054"},
        {"Chowdhery et al., PaLM (MFU, Appendix B)", "https://arxiv.org/abs/2204.02311"},
        {"NVIDIA H100 Tensor Core GPU datasheet (NVLink 900 GB/s bidirectional)",
         "https://www.nvidia.com/en-us/data-center/h100/"},
    };
}

std::vector<ParamSpec> FabricMappingScenario::parameters() const {
    return {
        ParamSpec::integer("nodes", "Nodes", "", 1, 512, 128, true, "8 GPUs each"),
        ParamSpec::choice("model", "Model", shapeIds(), "gpt3-175b",
                          "shape: layers, hidden, heads; 12·L·h² weights"),
        ParamSpec::integer("tp", "Tensor parallel TP", "", 1, 64, 8, true),
        ParamSpec::integer("pp", "Pipeline parallel PP", "", 1, 96, 8, true),
        ParamSpec::choice("rank-order", "Rank order (fastest first)",
                          {"tp-pp-dp", "tp-dp-pp", "pp-tp-dp", "pp-dp-tp", "dp-tp-pp", "dp-pp-tp"},
                          "tp-pp-dp", "which dimension sits on consecutive ranks"),
        ParamSpec::integer("zero", "ZeRO stage", "", 0, 3, 1),
        ParamSpec::integer("global-batch", "Global batch", "sequences", 8, 65536, 1536, true),
        ParamSpec::integer("seq", "Sequence", "tokens", 256, 131072, 2048, true),
        ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm",
                          "dense BF16 peak from the catalogue"),
        ParamSpec::real("nvlink-gbs", "NVLink per GPU, one direction", "GB/s", 1, 2000, 450),
        ParamSpec::real("network-gbs", "Network per GPU, one direction", "GB/s", 1, 400, 50, false,
                        "400 Gb/s NIC = 50 GB/s"),
        ParamSpec::real("efficiency", "Fraction of peak reached", "", 0.05, 1.0, 0.5, false,
                        "an assumption"),
    };
}

Story FabricMappingScenario::build(const Params& p, const ScenarioInputs&) const {
    const std::string shapeId = p.text("model");
    const ModelShape shape = *std::find_if(std::begin(kShapes), std::end(kShapes),
                                           [&](const ModelShape& s) { return shapeId == s.id; });
    TransformerConfig m;
    m.layers = shape.layers;
    m.hidden = shape.hidden;
    m.heads = shape.heads;
    m.params = 12.0 * m.layers * static_cast<double>(m.hidden) * m.hidden;
    m.seq = static_cast<int>(p.integer("seq"));
    m.microBatch = 1;
    m.globalBatch = static_cast<int>(p.integer("global-batch"));
    ClusterTopology t;
    t.nodes = static_cast<int>(p.integer("nodes"));
    t.nvlinkGBs = p.number("nvlink-gbs");
    t.networkGBs = p.number("network-gbs");
    const GpuSpec& gpu = *HardwareCatalogue::builtin().find(p.text("gpu"));
    const double peak = peakTflops(gpu, Precision::BF16).value_or(0.0) * 1e12;
    const double eff = p.number("efficiency");
    const std::string basis = fill(
        "%1 % of %2 (%3)", {formatSignificant(eff * 100, 3), formatSi(peak, "FLOP/s"), gpu.name});

    ParallelLayout l;
    l.tp = static_cast<int>(p.integer("tp"));
    l.pp = static_cast<int>(p.integer("pp"));
    l.zero = static_cast<int>(p.integer("zero"));
    l.order = parseRankOrder(p.text("rank-order"));
    if (t.gpus() % (l.tp * l.pp) != 0)
        throw std::invalid_argument(fill("TP × PP = %1 does not divide the %2 GPUs",
                                         {std::to_string(l.tp * l.pp), std::to_string(t.gpus())}));
    l.dp = t.gpus() / (l.tp * l.pp);
    auto yours = std::make_shared<const Costed>(Costed{l, estimateStep(m, l, t, peak, eff), basis});

    // The mistake: the same sizes with DP fastest, so every TP group straddles nodes (or, when
    // DP = 1, TP spread by PP first).
    ParallelLayout wrong = l;
    wrong.order = {Strategy::DP, Strategy::PP, Strategy::TP};
    if (l.tp == 1) {
        wrong.tp = std::min(2 * t.gpusPerNode, m.heads);
        wrong.dp = t.gpus() / (wrong.tp * wrong.pp);
    }
    std::shared_ptr<const Costed> mistake;
    try {
        mistake = std::make_shared<const Costed>(
            Costed{wrong, estimateStep(m, wrong, t, peak, eff), basis});
    } catch (const std::invalid_argument&) {
        mistake = yours; // the mistake cannot be built with these sizes; the step says so
    }
    const LayoutSearch search = searchLayouts(m, t, peak, eff, l.zero, std::min(64, m.layers));
    if (search.ranked.empty())
        throw std::invalid_argument(fill("no TP × PP × DP layout of %1 GPUs fits this model and "
                                         "batch",
                                         {std::to_string(t.gpus())}));
    const ParallelLayout bestLayout = search.ranked.front().layout;
    auto best = std::make_shared<const Costed>(
        Costed{bestLayout, estimateStep(m, bestLayout, t, peak, eff), basis});
    auto top = std::make_shared<std::vector<LayoutCandidate>>(
        search.ranked.begin(),
        search.ranked.begin() +
            static_cast<std::ptrdiff_t>(std::min<std::size_t>(6, search.ranked.size())));

    Story story;
    story.provenance =
        fill("modeled on CPU: %1 × %2 (%3 nodes of 8), NVLink %4 GB/s, network %5 GB/s per GPU, "
             "%6-shaped model, %7 % of BF16 peak",
             {std::to_string(t.gpus()), gpu.name, std::to_string(t.nodes),
              formatSignificant(t.nvlinkGBs, 3), formatSignificant(t.networkGBs, 3), shape.id,
              formatSignificant(eff * 100, 3)});
    const std::string yourName = layoutName(l);
    story.steps.push_back(
        {fill("The cluster and your layout: %1", {yourName}),
         "Each node's 8 GPUs share an NVSwitch; each GPU has its own NIC to a leaf switch. "
         "Packets show each strategy's traffic between rank 0's partners, their rate "
         "proportional to the bytes per second the model computes; link colour is the share of "
         "the step the link is busy.",
         6.0, [yours, t, yourName](double tt) {
             return Frames{{topologyFrame(fill("Your layout: %1", {yourName}), t, yours->layout,
                                          yours->estimate, tt * 6.0),
                            trafficTable("Per step, per GPU", *yours)}};
         }});
    story.steps.push_back(
        {"Step time with and without overlap",
         "Compute and the pipeline bubble first, then what the step must wait for. TP and PP "
         "sit on the critical path; the DP reduction can run under the backward pass, which "
         "is the difference between the two rows.",
         6.0, [yours](double tt) {
             const StepEstimate& e = yours->estimate;
             return Frames{{stepBars(fill("One step, %1", {layoutName(yours->layout)}),
                                     {stepRow("serialized", *yours, false),
                                      stepRow("DP overlapped", *yours, true)},
                                     e.stepS,
                                     fill("step %1 serialized, %2 with DP overlapped · MFU %3 %",
                                          {formatSi(e.stepS, "s"), formatSi(e.stepOverlappedS, "s"),
                                           formatSignificant(e.mfuOverlapped * 100, 3)}),
                                     tt),
                            trafficTable("Per step, per GPU", *yours)}};
         }});
    const bool wrongBuilt = mistake != yours;
    const double blowUp = yours->estimate.stepOverlappedS > 0
                              ? mistake->estimate.stepOverlappedS / yours->estimate.stepOverlappedS
                              : 1.0;
    story.steps.push_back(
        {wrongBuilt
             ? fill("The mistake: TP across nodes, %1× the step", {formatSignificant(blowUp, 3)})
             : "The mistake cannot be built with these sizes",
         wrongBuilt
             ? "The same layout with DP varying fastest puts consecutive TP ranks on different "
               "nodes, so four all-reduces per layer per micro-batch cross the NICs at a ninth "
               "of NVLink's bandwidth. Nothing else changed."
             : "With these sizes no TP group can straddle nodes; raise TP or the node count to "
               "see the mistake.",
         6.0, [mistake, yours, t](double tt) {
             return Frames{
                 {topologyFrame(fill("TP across nodes: %1", {layoutName(mistake->layout)}), t,
                                mistake->layout, mistake->estimate, tt * 6.0),
                  stepBars("Your layout vs TP across nodes (DP overlapped)",
                           {stepRow("your layout", *yours, true),
                            stepRow("TP across nodes", *mistake, true)},
                           std::max(yours->estimate.stepS, mistake->estimate.stepS),
                           fill("%1 → %2 per step; TP %3 → %4",
                                {formatSi(yours->estimate.stepOverlappedS, "s"),
                                 formatSi(mistake->estimate.stepOverlappedS, "s"),
                                 formatSi(yours->estimate.commS[0], "s"),
                                 formatSi(mistake->estimate.commS[0], "s")}),
                           tt),
                  trafficTable("TP across nodes, per GPU", *mistake)}};
         }});
    const int evaluated = search.evaluated, rejected = search.rejected;
    story.steps.push_back(
        {fill("The best layout: %1", {layoutName(bestLayout)}),
         "Every factorisation of the GPUs into TP × PP × DP that the model allows, in every rank "
         "order, costed with the same model; the fastest step wins. TP stays inside the node "
         "because the numbers say so, not because a rule was typed in.",
         6.0, [best, top, t, evaluated, rejected](double tt) {
             FactsFrame f;
             f.title = fill("Fastest of %1 layouts (%2 refused by the model)",
                            {std::to_string(evaluated), std::to_string(rejected)});
             int rank = 1;
             for (const LayoutCandidate& c : *top) {
                 f.rows.push_back(
                     {.label = fill("%1. %2", {std::to_string(rank), layoutName(c.layout)}),
                      .value = fill("%1 per step, MFU %2 %",
                                    {formatSi(c.stepS, "s"), formatSignificant(c.mfu * 100, 3)}),
                      .source = "estimateStep, serialized",
                      .emphasis = rank == 1});
                 ++rank;
             }
             return Frames{{topologyFrame(fill("Best: %1", {layoutName(best->layout)}), t,
                                          best->layout, best->estimate, tt * 6.0),
                            f}};
         }});
    return story;
}

} // namespace wb
