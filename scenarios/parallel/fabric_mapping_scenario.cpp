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

// Model shapes with Megatron-LM's 12·L·h² weight count (Narayanan et al. 2021 §5.1), so the
// traffic follows the dimensions. GPT-3 175B is Megatron-LM's own example (96 layers,
// h = 12288, 96 heads). `name` is what the slides say; `id` is the parameter's choice.
struct ModelShape {
    const char* id;
    const char* name;
    int layers, hidden, heads;
};
constexpr ModelShape kShapes[] = {
    {.id = "gpt3-175b", .name = "GPT-3 175B", .layers = 96, .hidden = 12288, .heads = 96},
    {.id = "70b", .name = "a 70B-class model", .layers = 80, .hidden = 8192, .heads = 64},
    {.id = "13b", .name = "a 13B-class model", .layers = 40, .hidden = 5120, .heads = 40},
    {.id = "7b", .name = "a 7B-class model", .layers = 32, .hidden = 4096, .heads = 32},
};

std::vector<std::string> shapeIds() {
    std::vector<std::string> ids;
    for (const ModelShape& s : kShapes)
        ids.emplace_back(s.id);
    return ids;
}

// Primary sources of each row, as the slides cite them.
const char* kTpSource = "4 all-reduces of b·s·h per layer per micro-batch: Narayanan et al. "
                        "2021 §3.2; ring α-β";
const char* kPpSource = "b·s·h/t per send with Megatron's scatter/gather: Narayanan et al. "
                        "2021 §4.1";
const char* kDpSource = "2Ψ/(t·p) of gradients, 3Ψ with ZeRO-3: Rajbhandari et al. 2020 §7";
const char* kMemorySource = "states: ZeRO §3.1; activations: Korthikanti et al. 2022 Table 2";

struct Costed {
    ParallelLayout layout;
    StepEstimate estimate;
    double hbmBytes = 0.0;
    bool fits() const { return estimate.fitsIn(hbmBytes); }
    // The DP time the backward pass hides, and what is left on the critical path.
    double hiddenDp() const { return estimate.hiddenDpS; }
    double exposedDp() const { return estimate.commS[2] - hiddenDp(); }
};

GroupSpan spanOfGroup(const ClusterTopology& t, const ParallelLayout& l, Strategy s) {
    return spanOf(t, {0, l.size(s), l.stride(s)});
}

// "TP 8 × PP 8 × DP 16": the sizes; the rank order follows where it matters.
std::string sizesWords(const ParallelLayout& l) {
    return fill("TP %1 × PP %2 × DP %3",
                {std::to_string(l.tp), std::to_string(l.pp), std::to_string(l.dp)});
}
std::string orderWords(const std::vector<Strategy>& order) {
    std::string out;
    for (Strategy s : order)
        out.append(out.empty() ? "" : ", ")
            .append(s == Strategy::TP   ? "TP"
                    : s == Strategy::PP ? "PP"
                                        : "DP");
    return out;
}
std::string layoutWords(const ParallelLayout& l) {
    return fill("%1 (rank order %2)", {sizesWords(l), orderWords(l.order)});
}

// One strategy's traffic per GPU per step, summed over its transfers, and the link it runs on.
struct StrategyTraffic {
    double bytes = 0.0, timeS = 0.0;
    std::string link; // empty: the strategy sends nothing
};
StrategyTraffic trafficOf(const StepEstimate& e, Strategy s) {
    StrategyTraffic out;
    for (const Traffic& tr : e.traffic)
        if (tr.strategy == s) {
            out.bytes += tr.bytesPerStep();
            out.timeS += tr.timePerStep();
            out.link = linkWords(tr.cost.span.bottleneck);
        }
    return out;
}

std::string memoryWords(const Costed& c) {
    return c.fits() ? fill("%1 of %2",
                           {formatBytes(c.estimate.memoryBytesPerGpu), formatBytes(c.hbmBytes)})
                    : fill("%1 > %2: does not fit",
                           {formatBytes(c.estimate.memoryBytesPerGpu), formatBytes(c.hbmBytes)});
}

FactsFrame trafficTable(const std::string& title, const Costed& c, const std::string& basis,
                        const std::string& hbmSource) {
    FactsFrame f;
    f.title = title;
    const StepEstimate& e = c.estimate;
    for (Strategy s : {Strategy::TP, Strategy::PP, Strategy::DP}) {
        const StrategyTraffic traffic = trafficOf(e, s);
        const double bytes = traffic.bytes, time = traffic.timeS;
        const std::string& link = traffic.link;
        const std::string group =
            s == Strategy::TP   ? fill("TP: group of %1", {std::to_string(c.layout.tp)})
            : s == Strategy::PP ? fill("PP: %1", {formatCount(c.layout.pp, "stage", "stages")})
                                : fill("DP: %1", {formatCount(c.layout.dp, "replica", "replicas")});
        f.rows.push_back({.label = link.empty() ? group : fill("%1, on %2", {group, link}),
                          .value = bytes > 0
                                       ? fill("%1, %2", {formatBytes(bytes), formatSi(time, "s")})
                                       : std::string("none"),
                          .source = s == Strategy::TP   ? kTpSource
                                    : s == Strategy::PP ? kPpSource
                                                        : kDpSource,
                          .emphasis = link == "the network" && s == Strategy::TP});
    }
    f.rows.push_back(
        {.label = "compute + pipeline bubble",
         .value = fill("%1 + %2", {formatSi(e.computeS, "s"), formatSi(e.bubbleS, "s")}),
         .source = fill("6ND (Kaplan et al. 2020 §2.1) at %1; bubble (P−1)/(V·M) = %2, M = %3: "
                        "Narayanan et al. 2021 §2.2",
                        {basis, formatShare(e.bubbleOfIdeal), std::to_string(e.microbatches)})});
    f.rows.push_back(
        {.label = "step: serialized / DP overlapped",
         .value = fill("%1 / %2", {formatSi(e.stepS, "s"), formatSi(e.stepOverlappedS, "s")}),
         .source = "derived: DP hides under the backward pass, two thirds of compute",
         .emphasis = true});
    f.rows.push_back({.label = "MFU: serialized / DP overlapped",
                      .value = fill("%1 / %2", {formatShare(e.mfu), formatShare(e.mfuOverlapped)}),
                      .source = "Chowdhery et al. 2022 (PaLM) App. B: 6ND ÷ (time × GPUs × peak)",
                      .emphasis = true});
    f.rows.push_back({.label = "memory per GPU: states + activations + buffers",
                      .value = memoryWords(c),
                      .source = fill("%1; buffers %2 (assumed); HBM: %3",
                                     {kMemorySource, formatBytes(e.bufferBytesPerGpu), hbmSource}),
                      .emphasis = !c.fits()});
    return f;
}

// One step on one GPU: compute, the bubble (hatched), then the communication on the critical
// path. With `overlap`, DP runs on a second row, its own stream, beside the backward pass (the
// last two thirds of compute), and only what does not fit under it joins the critical path.
std::vector<ScheduleRow> stepRows(const std::string& label, const Costed& c, bool overlap) {
    const StepEstimate& e = c.estimate;
    ScheduleRow r;
    r.label = label;
    r.idleIsBubble = true;
    r.idleEndS = overlap ? e.stepOverlappedS : e.stepS; // a shorter step is not a bubble
    r.bars.push_back({.startS = 0,
                      .endS = e.computeS,
                      .kind = ScheduleKind::Compute,
                      .label = "compute",
                      .shade = 0,
                      .tip = fill("forward + backward: %1", {formatSi(e.computeS, "s")})});
    double x = e.computeS + e.bubbleS; // the gap is the pipeline bubble
    const ScheduleKind dpKind =
        c.layout.zero > 0 ? ScheduleKind::ReduceScatter : ScheduleKind::AllReduce;
    const ScheduleKind kinds[3] = {ScheduleKind::AllReduce, ScheduleKind::SendRecv, dpKind};
    const char* names[3] = {"TP", "PP", "DP"};
    const double hidden = overlap ? c.hiddenDp() : 0.0;
    for (int s = 0; s < 3; ++s) {
        const double d = s == 2 ? e.commS[2] - hidden : e.commS[s];
        if (d <= 0)
            continue;
        r.bars.push_back({.startS = x,
                          .endS = x + d,
                          .kind = kinds[s],
                          .label = names[s],
                          .shade = 0,
                          .tip = fill("%1 communication on the critical path: %2",
                                      {names[s], formatSi(d, "s")})});
        x += d;
    }
    std::vector<ScheduleRow> rows{r};
    if (hidden > 0) {
        ScheduleRow dp;
        dp.label = fill("%1, DP stream", {label});
        const double backward = e.computeS / 3.0; // forward is a third of 6ND
        dp.bars.push_back(
            {.startS = backward,
             .endS = backward + hidden,
             .kind = dpKind,
             .label = "DP",
             .shade = 1,
             .tip = fill("DP beside the backward pass, hidden: %1", {formatSi(hidden, "s")})});
        rows.push_back(dp);
    }
    return rows;
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

// Every value of one costed layout that a slide may quote.
void addResults(std::vector<ResultValue>& out, const Costed& c, const ClusterTopology& t) {
    const StepEstimate& e = c.estimate;
    out.insert(out.end(), {{"TP", c.layout.tp},
                           {"PP", c.layout.pp},
                           {"DP", c.layout.dp},
                           {"micro-batches per replica", e.microbatches},
                           {"bubble of ideal", e.bubbleOfIdeal},
                           {"compute", e.computeS},
                           {"bubble", e.bubbleS},
                           {"step, serialized", e.stepS},
                           {"step, DP overlapped", e.stepOverlappedS},
                           {"MFU", e.mfu},
                           {"MFU, DP overlapped", e.mfuOverlapped},
                           {"memory per GPU", e.memoryBytesPerGpu},
                           {"model states per GPU", e.modelStateBytesPerGpu},
                           {"activations per GPU", e.activationBytesPerGpu},
                           {"buffers per GPU", e.bufferBytesPerGpu},
                           {"DP hidden", c.hiddenDp()},
                           {"DP exposed", c.exposedDp()}});
    for (Strategy s : {Strategy::TP, Strategy::PP, Strategy::DP}) {
        const StrategyTraffic traffic = trafficOf(e, s);
        out.push_back({strategyName(s) + " bytes per step", traffic.bytes});
        out.push_back({strategyName(s) + " time per step", traffic.timeS});
        out.push_back({strategyName(s) + " nodes spanned", spanOfGroup(t, c.layout, s).nodes});
    }
}

// The four parts of a step that differ between layouts, for "why does this one win".
struct Part {
    const char* words;
    double best, other;
};
std::vector<Part> partsOf(const Costed& best, const Costed& other) {
    return {{"TP all-reduces", best.estimate.commS[0], other.estimate.commS[0]},
            {"PP sends", best.estimate.commS[1], other.estimate.commS[1]},
            {"exposed DP", best.exposedDp(), other.exposedDp()},
            {"the pipeline bubble", best.estimate.bubbleS, other.estimate.bubbleS}};
}

} // namespace

std::string FabricMappingScenario::question() const {
    return "You have 1,024 GPUs in 8-GPU NVLink nodes. Where do tensor, pipeline and data "
           "parallelism go, and what happens if you get it wrong?";
}

std::string FabricMappingScenario::answer() const {
    return R"(**Put the chattiest, least hideable traffic on the fastest link.**
- **TP** sends 4 all-reduces of b·s·h per layer per micro-batch (8bsh(t−1)/t per layer per device, Megatron-LM §3.2), on the critical path: it needs NVLink (~450 GB/s per GPU per direction on H100 vs 50 GB/s for a 400 Gb/s NIC, ≈ 9×). **TP ≤ GPUs per node, consecutive ranks.**
- **Memory first**: a layout whose model states (16 bytes per parameter with mixed-precision Adam, ZeRO §3.1) and activations do not fit one GPU's HBM cannot run at any speed; the search ranks such layouts last.
- **PP** sends one b·s·h/t activation per micro-batch per stage boundary (Megatron's scatter/gather, Narayanan et al. 2021 §4.1): small, point-to-point, tolerant of the network. **PP across nodes.**
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
        {"Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models "
         "(2022)",
         "https://arxiv.org/abs/2205.05198"},
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
    const HardwareCatalogue& catalogue = HardwareCatalogue::builtin();
    const GpuSpec& gpu = *catalogue.find(p.text("gpu"));
    const double peak = peakTflops(gpu, Precision::BF16).value_or(0.0) * 1e12;
    const double hbm = gpu.value("memory_gb") * 1e9;
    const std::string hbmSource = catalogue.sourceLabel(gpu, "memory_gb");
    const double eff = p.number("efficiency");
    const std::string basis = fill("%1 (assumed) of %2 dense BF16, %3",
                                   {formatShare(eff), formatSi(peak, "FLOP/s"),
                                    catalogue.sourceLabel(gpu, peakField(Precision::BF16))});

    ParallelLayout l;
    l.tp = static_cast<int>(p.integer("tp"));
    l.pp = static_cast<int>(p.integer("pp"));
    l.zero = static_cast<int>(p.integer("zero"));
    l.order = parseRankOrder(p.text("rank-order"));
    if (t.gpus() % (l.tp * l.pp) != 0)
        throw std::invalid_argument(fill("TP × PP = %1 does not divide the %2 GPUs",
                                         {std::to_string(l.tp * l.pp), std::to_string(t.gpus())}));
    l.dp = t.gpus() / (l.tp * l.pp);
    auto cost = [&](const ParallelLayout& layout) {
        return std::make_shared<const Costed>(
            Costed{layout, estimateStep(m, layout, t, peak, eff), hbm});
    };
    const auto yours = cost(l);

    // The mistake: the same sizes with DP fastest, so every TP group straddles nodes (or, when
    // TP = 1, a TP of two nodes' GPUs spread the same way).
    ParallelLayout wrong = l;
    wrong.order = {Strategy::DP, Strategy::PP, Strategy::TP};
    if (l.tp == 1) {
        wrong.tp = std::min(2 * t.gpusPerNode, m.heads);
        wrong.dp = t.gpus() / (wrong.tp * wrong.pp);
    }
    std::shared_ptr<const Costed> mistake;
    try {
        if (t.gpus() % (wrong.tp * wrong.pp) == 0)
            mistake = cost(wrong);
    } catch (const std::invalid_argument&) {
        // these sizes cannot be laid out that way; the step says so
    }
    const bool yoursCrosses = spanOfGroup(t, l, Strategy::TP).nodes > 1;
    const bool mistakeCrosses = mistake && spanOfGroup(t, mistake->layout, Strategy::TP).nodes > 1;
    if (!mistakeCrosses)
        mistake = yours;

    const LayoutSearch search = searchLayouts(m, t, peak, eff, l.zero, std::min(64, m.layers), hbm);
    if (search.ranked.empty())
        throw std::invalid_argument(fill("no TP × PP × DP layout of %1 GPUs fits this model and "
                                         "batch",
                                         {std::to_string(t.gpus())}));
    const auto best = cost(search.ranked.front().layout);
    // The fastest layout that keeps a whole node's GPUs in one TP group: Megatron-LM's rule of
    // thumb, the one a different winner has to beat.
    const int nodeTp = t.gpusPerNode;
    std::shared_ptr<const Costed> rule;
    for (const LayoutCandidate& c : search.ranked)
        if (c.fits && c.layout.tp == nodeTp && spanOfGroup(t, c.layout, Strategy::TP).nodes == 1) {
            rule = cost(c.layout);
            break;
        }
    const std::size_t shown = std::min<std::size_t>(4, search.ranked.size());
    auto top = std::make_shared<std::vector<LayoutCandidate>>(
        search.ranked.begin(), search.ranked.begin() + static_cast<std::ptrdiff_t>(shown));

    Story story;
    story.provenance =
        fill("modeled on CPU: %1 × %2 (%3 of %4), NVLink %5 GB/s, network %6 GB/s per GPU, model "
             "shaped as %7, %8 of BF16 peak (assumed)",
             {std::to_string(t.gpus()), gpu.name, formatCount(t.nodes, "node", "nodes"),
              std::to_string(t.gpusPerNode), formatSignificant(t.nvlinkGBs, 3),
              formatSignificant(t.networkGBs, 3), shape.name, formatShare(eff)});
    const double linkRatio = t.nvlinkGBs / t.networkGBs;
    story.results = {{"GPUs", t.gpus()},
                     {"nodes", t.nodes},
                     {"GPUs per node", t.gpusPerNode},
                     {"layers", m.layers},
                     {"hidden", m.hidden},
                     {"heads", m.heads},
                     {"parameters", m.params},
                     {"HBM per GPU", hbm},
                     {"NVLink ÷ network", linkRatio},
                     {"network ÷ NVLink", 1.0 / linkRatio},
                     {"NVLink bytes/s", t.nvlinkGBs * 1e9},
                     {"network bytes/s", t.networkGBs * 1e9},
                     {"layouts costed", search.evaluated},
                     {"layouts refused", search.rejected},
                     {"layouts too big", search.tooBig},
                     {"layouts shown", static_cast<int>(shown)}};
    for (const auto& c : {yours, mistake, best})
        addResults(story.results, *c, t);
    if (rule)
        addResults(story.results, *rule, t);
    for (std::size_t rank = 1; rank <= shown; ++rank)
        story.results.push_back({"rank", rank});
    for (const LayoutCandidate& c : *top)
        story.results.insert(story.results.end(), {{"TP", c.layout.tp},
                                                   {"PP", c.layout.pp},
                                                   {"DP", c.layout.dp},
                                                   {"step, DP overlapped", c.stepOverlappedS},
                                                   {"MFU, DP overlapped", c.mfuOverlapped},
                                                   {"memory per GPU", c.memoryBytes}});

    // Step 1: the cluster, where rank 0's groups live, and whether the layout fits at all.
    const std::string yourName = layoutWords(l);
    const GroupSpan tpSpan = spanOfGroup(t, l, Strategy::TP);
    const std::string tpWhere =
        l.tp == 1 ? std::string("There is no TP group (TP 1)")
                  : fill("Rank 0's TP group of %1 GPUs spans %2, so TP runs on %3",
                         {std::to_string(l.tp), formatCount(tpSpan.nodes, "node", "nodes"),
                          linkWords(tpSpan.bottleneck)});
    const std::string fitWords =
        yours->fits()
            ? fill("Each GPU holds %1 of its %2 HBM.",
                   {formatBytes(yours->estimate.memoryBytesPerGpu), formatBytes(hbm)})
            : fill("Each GPU would need %1 of model states, activations and buffers, more than "
                   "its %2 of HBM: this layout cannot run, whatever its speed. More TP, PP or a "
                   "higher ZeRO stage shrinks the share.",
                   {formatBytes(yours->estimate.memoryBytesPerGpu), formatBytes(hbm)});
    story.steps.push_back(
        {yours->fits() ? fill("The cluster and your layout: %1", {sizesWords(l)})
                       : fill("Your layout does not fit: %1 per GPU, %2 of HBM",
                              {formatBytes(yours->estimate.memoryBytesPerGpu), formatBytes(hbm)}),
         fill("Each node's %1 GPUs share an NVSwitch; each GPU has its own NIC to a leaf switch. "
              "%2. The packets are TP, PP and DP traffic between ring neighbours, at rates "
              "proportional to their bytes per second; rank 0's DP neighbours' nodes are drawn "
              "too. %3",
              {std::to_string(t.gpusPerNode), tpWhere, fitWords}),
         6.0, [yours, t, yourName, basis, hbmSource](double tt) {
             return Frames{{topologyFrame(fill("Your layout: %1", {yourName}), t, yours->layout,
                                          yours->estimate, tt * 6.0),
                            trafficTable("Per step, per GPU", *yours, basis, hbmSource)}};
         }});

    // Step 2: where the step's time goes, with DP overlapped drawn as its own stream.
    const StepEstimate& ye = yours->estimate;
    const double dp = ye.commS[2];
    const std::string overlapWords =
        dp <= 0 ? std::string("With DP 1 there is no gradient reduction to hide.")
        : yours->exposedDp() <= 0
            ? fill("The DP reduction (%1) runs on its own stream beside the backward pass and "
                   "hides completely: the two rows differ by all of it.",
                   {formatSi(dp, "s")})
            : fill("The DP reduction (%1) runs on its own stream beside the backward pass, which "
                   "hides %2 of it; the other %3 still waits at the end of the step.",
                   {formatSi(dp, "s"), formatSi(yours->hiddenDp(), "s"),
                    formatSi(yours->exposedDp(), "s")});
    story.steps.push_back(
        {fill("Step time: %1 serialized, %2 with DP overlapped",
              {formatSi(ye.stepS, "s"), formatSi(ye.stepOverlappedS, "s")}),
         fill("Compute (%1) and the pipeline bubble (%2) first, then what the step waits for: TP "
              "(%3) and PP (%4) sit on the critical path. %5",
              {formatSi(ye.computeS, "s"), formatSi(ye.bubbleS, "s"), formatSi(ye.commS[0], "s"),
               formatSi(ye.commS[1], "s"), overlapWords}),
         6.0, [yours, basis, hbmSource](double tt) {
             const StepEstimate& e = yours->estimate;
             std::vector<ScheduleRow> rows = stepRows("serialized", *yours, false);
             for (ScheduleRow& r : stepRows("DP overlapped", *yours, true))
                 rows.push_back(std::move(r));
             return Frames{{stepBars(fill("One step of %1", {sizesWords(yours->layout)}),
                                     std::move(rows), e.stepS,
                                     fill("step %1 serialized, %2 with DP overlapped · MFU %3",
                                          {formatSi(e.stepS, "s"), formatSi(e.stepOverlappedS, "s"),
                                           formatShare(e.mfuOverlapped)}),
                                     tt),
                            trafficTable("Per step, per GPU", *yours, basis, hbmSource)}};
         }});

    // Step 3: the same sizes with TP across nodes, costed by the same model.
    const double blowUp =
        ye.stepOverlappedS > 0 ? mistake->estimate.stepOverlappedS / ye.stepOverlappedS : 1.0;
    story.results.push_back({"mistake ÷ yours", blowUp});
    const std::string links = fill(
        "%1 vs %2 GB/s", {formatSignificant(t.networkGBs, 3), formatSignificant(t.nvlinkGBs, 3)});
    const std::string linkCompare =
        linkRatio >= 2.0
            ? fill("the NICs, where each GPU has %1× less bandwidth than on NVLink (%2)",
                   {formatSignificant(linkRatio, 3), links})
        : linkRatio >= 1.05 ? fill("the NICs, where each GPU has %1 of its NVLink bandwidth (%2)",
                                   {formatShare(1.0 / linkRatio), links})
        : linkRatio > 0.95
            ? fill("the NICs, about as fast as NVLink here (%1): what they add is the network's "
                   "latency",
                   {links})
            : fill("the NICs, %1× faster than NVLink here (%2)",
                   {formatSignificant(1.0 / linkRatio, 3), links});
    const std::string blowUpWords =
        blowUp >= 1.005   ? fill("%1× the step", {formatSignificant(blowUp, 3)})
        : blowUp <= 0.995 ? fill("%1× the step, faster here", {formatSignificant(blowUp, 3)})
                          : std::string("the same step here");
    std::string mistakeTitle, mistakeNarration;
    if (!mistakeCrosses) {
        mistakeTitle = "The mistake cannot be built with these sizes";
        mistakeNarration =
            fill("With %1 no TP group can straddle nodes; raise TP or the node count to see "
                 "the mistake.",
                 {formatCount(t.nodes, "node", "nodes")});
    } else if (yoursCrosses) {
        mistakeTitle = fill("Your layout already puts TP across nodes: %1", {blowUpWords});
        mistakeNarration =
            fill("Your TP group spans %1, so four all-reduces per layer per micro-batch cross %2. "
                 "Below, the same sizes with DP fastest; TP %3 fits inside one node only with TP "
                 "ranks fastest and TP ≤ %4.",
                 {formatCount(tpSpan.nodes, "node", "nodes"), linkCompare, std::to_string(l.tp),
                  std::to_string(t.gpusPerNode)});
    } else {
        mistakeTitle = fill("The mistake: TP across nodes, %1", {blowUpWords});
        mistakeNarration = fill(
            "The same sizes with DP varying fastest put consecutive TP ranks on different "
            "nodes, so four all-reduces per layer per micro-batch cross %1. TP takes %2 "
            "instead of %3; nothing else changed.",
            {linkCompare, formatSi(mistake->estimate.commS[0], "s"), formatSi(ye.commS[0], "s")});
    }
    story.steps.push_back(
        {mistakeTitle, mistakeNarration, 6.0, [mistake, yours, t, basis, hbmSource](double tt) {
             std::vector<ScheduleRow> rows = stepRows("your layout", *yours, true);
             for (ScheduleRow& r : stepRows("TP across nodes", *mistake, true))
                 rows.push_back(std::move(r));
             return Frames{
                 {topologyFrame(fill("TP across nodes: %1", {layoutWords(mistake->layout)}), t,
                                mistake->layout, mistake->estimate, tt * 6.0),
                  stepBars("Your layout vs TP across nodes, DP overlapped", std::move(rows),
                           std::max(yours->estimate.stepS, mistake->estimate.stepS),
                           fill("%1 → %2 per step; TP %3 → %4",
                                {formatSi(yours->estimate.stepOverlappedS, "s"),
                                 formatSi(mistake->estimate.stepOverlappedS, "s"),
                                 formatSi(yours->estimate.commS[0], "s"),
                                 formatSi(mistake->estimate.commS[0], "s")}),
                           tt),
                  trafficTable("TP across nodes, per GPU", *mistake, basis, hbmSource)}};
         }});

    // Step 4: the search, ranked by the step the lesson shows (DP overlapped), layouts that do
    // not fit in HBM last; a winner other than "TP = a node" is explained part by part.
    const bool anyFits = best->fits();
    std::string why;
    if (!anyFits) {
        why = fill("None of the %1 layouts fits: each needs more than the %2 of HBM per GPU, so "
                   "this model and batch need more GPUs, a higher ZeRO stage, or "
                   "recomputation. The list leads with the least memory.",
                   {std::to_string(search.evaluated), formatBytes(hbm)});
    } else if (rule && rule->layout.tp != best->layout.tp) {
        const std::vector<Part> parts = partsOf(*best, *rule);
        const Part* saves = &parts.front();
        const Part* costs = nullptr;
        for (const Part& part : parts) {
            if (part.other - part.best > saves->other - saves->best)
                saves = &part;
            if (part.best > part.other &&
                (!costs || part.best - part.other > costs->best - costs->other))
                costs = &part;
        }
        const double gain = rule->estimate.stepOverlappedS - best->estimate.stepOverlappedS;
        story.results.insert(story.results.end(),
                             {{"gain over the node-TP layout", gain},
                              {"saved", saves->other - saves->best},
                              {"spent", costs ? costs->best - costs->other : 0.0}});
        why = fill("It beats the fastest layout with TP = %1 (a whole node), %2, by %3: it "
                   "spends %4 less on %5%6. Smaller TP groups send fewer all-reduce bytes per "
                   "GPU; Megatron-LM keeps TP at a node for memory headroom and larger matrix "
                   "multiplies, which this model leaves out beyond the HBM check (%7 of %8 "
                   "here).",
                   {std::to_string(nodeTp), sizesWords(rule->layout), formatSi(gain, "s"),
                    formatSi(saves->other - saves->best, "s"), saves->words,
                    costs ? fill(", more than the %1 extra on %2",
                                 {formatSi(costs->best - costs->other, "s"), costs->words})
                          : std::string(""),
                    formatBytes(best->estimate.memoryBytesPerGpu), formatBytes(hbm)});
    } else {
        const GroupSpan bestTp = spanOfGroup(t, best->layout, Strategy::TP);
        why = best->layout.tp == 1
                  ? std::string("It needs no TP at all: the model fits without splitting its "
                                "layers, so no all-reduce sits on the critical path.")
                  : fill("Its TP group of %1 runs on %2 because the costs say so, not because a "
                         "rule was typed in.",
                         {std::to_string(best->layout.tp), linkWords(bestTp.bottleneck)});
    }
    story.steps.push_back(
        {anyFits ? fill("The best layout: %1", {sizesWords(best->layout)})
                 : fill("No layout fits in %1 of HBM", {formatBytes(hbm)}),
         fill("Every factorisation of the %1 GPUs into TP × PP × DP that the model allows, in "
              "every rank order, costed with the same model and ranked by the step with DP "
              "overlapped; layouts that do not fit in HBM rank last. %2",
              {std::to_string(t.gpus()), why}),
         6.0, [best, top, rule, yours, t, search](double tt) {
             FactsFrame f;
             f.title = fill(best->fits() ? "Fastest of %1 (%2 too big for HBM, %3 refused)"
                                         : "Least memory of %1 (%2 too big for HBM, %3 refused)",
                            {formatCount(search.evaluated, "layout", "layouts"),
                             std::to_string(search.tooBig), std::to_string(search.rejected)});
             int rank = 1;
             auto row = [&](const std::string& label, double stepS, double mfu, double memory,
                            bool fits, bool emphasis) {
                 f.rows.push_back(
                     {.label = label,
                      .value =
                          fits ? fill("%1, MFU %2, %3",
                                      {formatSi(stepS, "s"), formatShare(mfu), formatBytes(memory)})
                               : fill("%1 per GPU: does not fit", {formatBytes(memory)}),
                      .source = "derived: the same step model, DP overlapped; memory as in "
                                "step 1",
                      .emphasis = emphasis});
             };
             for (const LayoutCandidate& c : *top) {
                 row(fill("%1. %2", {std::to_string(rank), layoutWords(c.layout)}),
                     c.stepOverlappedS, c.mfuOverlapped, c.memoryBytes, c.fits, rank == 1);
                 ++rank;
             }
             const bool ruleShown =
                 rule && std::any_of(top->begin(), top->end(), [&](const LayoutCandidate& c) {
                     return c.layout.tp == rule->layout.tp && c.layout.pp == rule->layout.pp &&
                            c.layout.order == rule->layout.order;
                 });
             if (rule && !ruleShown)
                 row(fill("TP = a node: %1", {layoutWords(rule->layout)}),
                     rule->estimate.stepOverlappedS, rule->estimate.mfuOverlapped,
                     rule->estimate.memoryBytesPerGpu, rule->fits(), false);
             row(fill("yours: %1", {layoutWords(yours->layout)}), yours->estimate.stepOverlappedS,
                 yours->estimate.mfuOverlapped, yours->estimate.memoryBytesPerGpu, yours->fits(),
                 false);
             return Frames{{topologyFrame(fill(best->fits() ? "Best: %1" : "Closest to fitting: %1",
                                               {layoutWords(best->layout)}),
                                          t, best->layout, best->estimate, tt * 6.0),
                            f}};
         }});

    // The whiteboard: this run's numbers, each with its primary source.
    auto bytesOf = [](const Costed& c, Strategy s) { return trafficOf(c.estimate, s).bytes; };
    const std::string dpLink = linkWords(spanOfGroup(t, l, Strategy::DP).bottleneck);
    story.whiteboard.question =
        fill("You have %1 in %2-GPU NVLink nodes. Where do tensor, pipeline and data "
             "parallelism go, and what happens if you get it wrong?",
             {formatCount(t.gpus(), "GPU", "GPUs"), std::to_string(t.gpusPerNode)});
    story.whiteboard.points.push_back(
        {l.tp == 1 ? std::string("TP is the chattiest traffic, four all-reduces per layer per "
                                 "micro-batch on the critical path; with TP 1 there is none.")
         : mistakeCrosses && !yoursCrosses
             ? fill("TP is the chattiest: %1 per GPU per step in all-reduces on the critical "
                    "path. Inside a node it takes %2; across nodes %3.",
                    {formatBytes(bytesOf(*yours, Strategy::TP)), formatSi(ye.commS[0], "s"),
                     formatSi(mistake->estimate.commS[0], "s")})
             : fill("TP is the chattiest: %1 per GPU per step in all-reduces on the critical "
                    "path, here on %2 (%3).",
                    {formatBytes(bytesOf(*yours, Strategy::TP)), linkWords(tpSpan.bottleneck),
                     formatSi(ye.commS[0], "s")}),
         "Narayanan et al. 2021 (Megatron-LM) §3.2"});
    story.whiteboard.points.push_back(
        {l.pp == 1 ? std::string("PP sends one activation per micro-batch per stage boundary; "
                                 "with PP 1 there is no pipeline and no bubble.")
                   : fill("PP sends b·s·h/t per micro-batch per stage boundary with Megatron's "
                          "scatter/gather: %1 per GPU per step (%2), and its bubble costs %3.",
                          {formatBytes(bytesOf(*yours, Strategy::PP)), formatSi(ye.commS[1], "s"),
                           formatSi(ye.bubbleS, "s")}),
         "Narayanan et al. 2021 §4.1 (scatter/gather), §2.2 (bubble)"});
    story.whiteboard.points.push_back(
        {l.dp == 1 ? std::string("DP is 1 here: no gradient reduction.")
         : yours->exposedDp() <= 0
             ? fill("DP moves %1 per GPU once per step and all %2 of it hides under the backward "
                    "pass, so it can go outermost (here on %3).",
                    {formatBytes(bytesOf(*yours, Strategy::DP)), formatSi(dp, "s"), dpLink})
             : fill("DP moves %1 per GPU once per step; the backward pass hides %2 of its %3, so "
                    "it can go outermost (here on %4).",
                    {formatBytes(bytesOf(*yours, Strategy::DP)), formatSi(yours->hiddenDp(), "s"),
                     formatSi(dp, "s"), dpLink}),
         "Rajbhandari et al. 2020 (ZeRO) §7"});
    story.whiteboard.points.push_back(
        {yours->fits()
             ? fill("Memory first: %1 per GPU of %2 HBM (model states %3, activations %4).",
                    {formatBytes(ye.memoryBytesPerGpu), formatBytes(hbm),
                     formatBytes(ye.modelStateBytesPerGpu), formatBytes(ye.activationBytesPerGpu)})
             : fill("Memory first: %1 per GPU does not fit in %2 of HBM (model states %3, "
                    "activations %4); no speed makes up for that.",
                    {formatBytes(ye.memoryBytesPerGpu), formatBytes(hbm),
                     formatBytes(ye.modelStateBytesPerGpu), formatBytes(ye.activationBytesPerGpu)}),
         "Rajbhandari et al. 2020 §3.1; Korthikanti et al. 2022 Table 2"});
    story.whiteboard.points.push_back(
        {anyFits
             ? fill("Of %1, %2 is fastest with DP overlapped: %3 per step, MFU %4 (yours: "
                    "%5).",
                    {formatCount(search.evaluated, "layout", "layouts"), sizesWords(best->layout),
                     formatSi(best->estimate.stepOverlappedS, "s"),
                     formatShare(best->estimate.mfuOverlapped), formatSi(ye.stepOverlappedS, "s")})
             : fill("None of %1 fits in %2 of HBM: add GPUs or shard more.",
                    {formatCount(search.evaluated, "layout", "layouts"), formatBytes(hbm)}),
         "derived: the same step model for every layout; MFU as Chowdhery et al. 2022 App. B"});

    story.checks = {
        {fill("What fraction of the ideal compute time is the pipeline bubble with PP %1 and "
              "%2 per replica?",
              {std::to_string(l.pp), formatCount(ye.microbatches, "micro-batch", "micro-batches")}),
         ye.bubbleOfIdeal * 100.0, "%", 0.02,
         fill("(P − 1) / (V · M) = (%1 − 1) / (1 × %2) = %3.",
              {std::to_string(l.pp), std::to_string(ye.microbatches),
               formatShare(ye.bubbleOfIdeal)})},
        {fill("How much memory does each GPU need for %1 (model states, activations and "
              "buffers)?",
              {sizesWords(l)}),
         ye.memoryBytesPerGpu / 1e9, "GB", 0.05,
         fill("States %1 (ZeRO-%2, Ψ = N / (TP · PP)) + activations %3 + buffers %4 (assumed) "
              "= %5, against %6 of HBM: %7.",
              {formatBytes(ye.modelStateBytesPerGpu), std::to_string(l.zero),
               formatBytes(ye.activationBytesPerGpu), formatBytes(ye.bufferBytesPerGpu),
               formatBytes(ye.memoryBytesPerGpu), formatBytes(hbm),
               yours->fits() ? "it fits" : "it does not fit"})},
    };
    addWhiteboardStep(story,
                      fill("Memory decides what can run; then TP on NVLink, PP across nodes, DP "
                           "outermost. This run: %1 per step with DP overlapped.",
                           {formatSi(ye.stepOverlappedS, "s")}));
    return story;
}

} // namespace wb
