#include "planning/memory_budget_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

// Shapes for the activation terms (s, b, h, a, L). The 7.5B model is ZeRO's Figure 1 example;
// the paper gives only Ψ, so its shape is illustrative (12·L·h² ≈ 6.4B). GPT-3 175B is
// Megatron-LM's (Narayanan et al. SC'21), 70B and 13B the usual Llama-style shapes.
struct ModelShape {
    const char* id;
    double params;
    int layers, hidden, heads;
};
constexpr ModelShape kShapes[] = {
    {.id = "zero-7.5b", .params = 7.5e9, .layers = 32, .hidden = 4096, .heads = 32},
    {.id = "gpt3-175b", .params = 175e9, .layers = 96, .hidden = 12288, .heads = 96},
    {.id = "70b", .params = 70e9, .layers = 80, .hidden = 8192, .heads = 64},
    {.id = "13b", .params = 13e9, .layers = 40, .hidden = 5120, .heads = 40},
};

std::vector<std::string> shapeIds() {
    std::vector<std::string> ids;
    for (const ModelShape& s : kShapes)
        ids.emplace_back(s.id);
    return ids;
}

// The series of every memory bar, in the theme's palette order.
const std::vector<std::string> kSeries = {"weights", "gradients", "optimizer state", "activations",
                                          "buffers"};
const char* kZeroSource = "Rajbhandari et al., ZeRO (SC'20) §3.1, §5";
const char* kActSource = "Korthikanti et al. 2022, Table 2, Eq. 5";

std::string gb(double bytes) {
    return formatBytes(bytes);
}

BarCategory budgetBar(const std::string& label, const MemoryBudget& b, const std::string& tip,
                      int shown = 5) {
    BarCategory c;
    c.label = label;
    c.tip = tip;
    const double values[5] = {b.states.weights, b.states.gradients, b.states.optimizer,
                              b.activations, b.buffers};
    const char* why[5] = {"weights", "gradients", "optimizer state (fp32 master, moments)",
                          "activations of the first pipeline stage", "buffers (assumed)"};
    for (int i = 0; i < 5; ++i)
        c.segments.push_back({.value = i < shown ? values[i] : 0.0,
                              .series = i,
                              .tip = fill("%1: %2 per GPU", {why[i], gb(values[i])})});
    return c;
}

BarReference hbmLine(const GpuSpec& gpu, double hbm) {
    return {.value = hbm, .label = fill("HBM of one %1", {gpu.name})};
}

std::string fitText(double total, double hbm) {
    return total <= hbm
               ? fill("fits: %1 of %2", {gb(total), gb(hbm)})
               : fill("does not fit: %1, %2 over %3", {gb(total), gb(total - hbm), gb(hbm)});
}

// What the steps share, built once.
struct Budget {
    MemoryModel model;
    MemoryLayout layout;
    MemoryBudget yours;
    std::string gpuName;
    BarReference hbm;
    std::string spNote; // non-empty when SP was asked for without TP
    std::vector<LayoutFit> fits;
    std::vector<LayoutFit> all; // every candidate layout, least intrusive first
};

// ZeRO stages 0…3 at the layout's DP degree: Figure 1 for the 7.5B preset.
Frames zeroStages(const Budget& b, double t) {
    const StateBytesPerParam k = stateBytesPerParam(b.model.optimizer, b.model.precision);
    const double psi = b.model.shape.params / (static_cast<double>(b.layout.tp) * b.layout.pp);
    const int dp = b.layout.dp;
    BarChartFrame f;
    f.title = fill("Model states per GPU, DP %1, by ZeRO stage", {std::to_string(dp)});
    f.caption = fill("%1 + %2 + %3 = %4 bytes per parameter × Ψ = %5 parameters per replica slice",
                     {formatSignificant(k.weights, 3), formatSignificant(k.gradients, 3),
                      formatSignificant(k.optimizer, 3), formatSignificant(k.total(), 3),
                      formatSi(psi, "")});
    f.series = kSeries;
    f.axisTitle = "bytes per GPU";
    f.unit = BarValueUnit::Bytes;
    f.references = {b.hbm};
    const char* names[4] = {"DP (ZeRO-0)", "ZeRO-1 P_os", "ZeRO-2 P_os+g", "ZeRO-3 P_os+g+p"};
    const int shown = std::clamp(static_cast<int>(t * 4.0) + 1, 1, 4);
    FactsFrame facts;
    facts.title = fill("ZeRO's arithmetic (K = %1)", {formatSignificant(k.optimizer, 3)});
    facts.rows.push_back(
        {.label = "bytes per parameter",
         .value =
             fill("%1 (%2, %3)", {formatSignificant(k.total(), 3), optimizerName(b.model.optimizer),
                                  trainingPrecisionName(b.model.precision)}),
         .source = fill("2Ψ + 2Ψ + KΨ = 16Ψ for mixed-precision Adam, %1", {kZeroSource})});
    const char* formulas[4] = {"(2 + 2 + K)Ψ", "4Ψ + KΨ/N_d", "2Ψ + (2 + K)Ψ/N_d", "16Ψ/N_d"};
    for (int z = 0; z < 4; ++z) {
        const ModelStates s = modelStatesPerGpu(psi, z, dp, k);
        MemoryBudget only;
        only.states = s;
        f.categories.push_back(budgetBar(
            names[z], only, fill("%1 = %2", {formulas[z], gb(s.total())}), z < shown ? 3 : 0));
        f.axisMax = std::max(f.axisMax, s.total());
        facts.rows.push_back(
            {.label = names[z],
             .value = gb(s.total()),
             .source = fill("%1; the paper's Figure 1 (7.5B, N_d = 64): 120 / 31.4 / 16.6 / 1.9 GB",
                            {formulas[z]}),
             .emphasis = z == b.layout.zero});
    }
    f.emphasis = b.layout.zero < shown ? b.layout.zero : -1;
    return Frames{{f, facts}};
}

// Activations of the first stage for each recomputation choice at the layout's TP.
Frames activationChoices(const Budget& b, double t) {
    const TransformerConfig& m = b.model.shape;
    struct Choice {
        std::string name;
        bool sp;
        Recompute r;
    };
    std::vector<Choice> choices = {{.name = "no recompute", .sp = false, .r = Recompute::None},
                                   {.name = "selective", .sp = false, .r = Recompute::Selective},
                                   {.name = "full", .sp = false, .r = Recompute::Full}};
    if (b.layout.tp > 1) {
        choices.insert(choices.begin() + 1, Choice{.name = "SP", .sp = true, .r = Recompute::None});
        choices.insert(choices.begin() + 3,
                       Choice{.name = "SP + selective", .sp = true, .r = Recompute::Selective});
    }
    BarChartFrame f;
    f.title = fill("Activations per GPU, TP %1, %2 layers' worth",
                   {std::to_string(b.layout.tp), std::to_string(m.layers)});
    const double ratio = 5.0 * m.heads * m.seq / static_cast<double>(m.hidden);
    f.caption =
        fill("s·b·h(34 + 5as/h) per layer with 5as/h = %1 (s = %2, b = %3, h = %4, a = %5)",
             {formatSignificant(ratio, 3), std::to_string(m.seq), std::to_string(m.microBatch),
              std::to_string(m.hidden), std::to_string(m.heads)});
    f.series = kSeries;
    f.axisTitle = "bytes per GPU";
    f.unit = BarValueUnit::Bytes;
    FactsFrame facts;
    facts.title = "Korthikanti's bytes per layer";
    const int shown = std::clamp(static_cast<int>(t * static_cast<double>(choices.size())) + 1, 1,
                                 static_cast<int>(choices.size()));
    for (std::size_t i = 0; i < choices.size(); ++i) {
        ActivationShape a;
        a.seq = m.seq;
        a.microBatch = m.microBatch;
        a.hidden = m.hidden;
        a.heads = m.heads;
        a.tp = b.layout.tp;
        a.sequenceParallel = choices[i].sp;
        a.recompute = choices[i].r;
        const double perLayer = activationBytesPerLayer(a);
        const double stage = activationBytesFirstStage(a, m.layers, b.layout.pp);
        BarCategory c;
        c.label = choices[i].name;
        c.segments.push_back(
            {.value = static_cast<int>(i) < shown ? stage : 0.0,
             .series = 3,
             .tip = fill("%1 per layer × %2 layers (1F1B's first stage holds L layers' worth)",
                         {gb(perLayer), std::to_string(m.layers)})});
        f.categories.push_back(c);
        f.axisMax = std::max(f.axisMax, stage);
        const bool mine =
            choices[i].sp == b.layout.sequenceParallel && choices[i].r == b.layout.recompute;
        if (mine)
            f.emphasis = static_cast<int>(i) < shown ? static_cast<int>(i) : -1;
        facts.rows.push_back({.label = choices[i].name,
                              .value = fill("%1 per layer", {gb(perLayer)}),
                              .source = fill("%1 for the first stage; %2", {gb(stage), kActSource}),
                              .emphasis = mine});
    }
    // The HBM line only where it is on the same scale; otherwise it would flatten the bars.
    if (f.axisMax >= 0.25 * b.hbm.value)
        f.references = {b.hbm};
    return Frames{{f, facts}};
}

Frames yourLayout(const Budget& b, double t) {
    BarChartFrame f;
    f.title = fill("Your layout: %1", {layoutName(b.layout)});
    f.caption = fitText(b.yours.total(), b.hbm.value) + b.spNote;
    f.series = kSeries;
    f.axisTitle = "bytes per GPU";
    f.unit = BarValueUnit::Bytes;
    f.references = {b.hbm};
    f.horizontal = true;
    f.axisMax = b.yours.total();
    // The bill adds up item by item.
    const int shown = std::clamp(static_cast<int>(t * 5.0) + 1, 1, 5);
    f.categories.push_back(budgetBar("per GPU", b.yours, layoutName(b.layout), shown));
    FactsFrame facts;
    facts.title = "One GPU's bill";
    const MemoryBudget& y = b.yours;
    facts.rows = {
        {.label = "weights", .value = gb(y.states.weights), .source = kZeroSource},
        {.label = "gradients", .value = gb(y.states.gradients), .source = kZeroSource},
        {.label = "optimizer state", .value = gb(y.states.optimizer), .source = kZeroSource},
        {.label = "activations", .value = gb(y.activations), .source = kActSource},
        {.label = "buffers",
         .value = gb(y.buffers),
         .source = "assumed: CUDA context, NCCL buckets, allocator slack"},
        {.label = "total",
         .value = gb(y.total()),
         .source = fill("HBM %1 (%2, catalogue)", {gb(b.hbm.value), b.gpuName}),
         .emphasis = true},
    };
    return Frames{{f, facts}};
}

Frames forcedLayout(const Budget& b, double t) {
    BarChartFrame f;
    f.series = kSeries;
    f.axisTitle = "bytes per GPU";
    f.unit = BarValueUnit::Bytes;
    f.references = {b.hbm};
    f.horizontal = true;
    FactsFrame facts;
    std::vector<std::pair<std::string, LayoutFit>> bars;
    if (b.fits.empty()) {
        // Nothing fits: show the most frugal layout there is.
        const auto least =
            std::min_element(b.all.begin(), b.all.end(), [](const auto& x, const auto& y) {
                return x.budget.total() < y.budget.total();
            });
        f.title = "No layout of these GPUs fits";
        f.caption = fill("the smallest budget is %1, over %2: more GPUs, a smaller model or "
                         "shorter sequences",
                         {gb(least->budget.total()), gb(b.hbm.value)});
        bars.push_back({"least memory", *least});
        facts.title = "Nothing fits";
        facts.rows.push_back({.label = layoutName(least->layout),
                              .value = gb(least->budget.total()),
                              .source = "the least of every layout searched",
                              .emphasis = true});
    } else {
        const LayoutFit& forced = b.fits.front();
        const auto at = std::find_if(b.all.begin(), b.all.end(),
                                     [&](const LayoutFit& x) { return x.layout == forced.layout; });
        if (at != b.all.begin() && b.all.front().layout != forced.layout)
            bars.push_back({"pure DP", b.all.front()});
        if (at != b.all.begin() && std::prev(at) != b.all.begin())
            bars.push_back({"one notch less", *std::prev(at)});
        bars.push_back({"forced", forced});
        f.emphasis = static_cast<int>(bars.size()) - 1;
        f.title = fill("The least intrusive layout that fits: %1", {layoutName(forced.layout)});
        f.caption = forced.layout == b.all.front().layout
                        ? fill("plain data parallelism fits: %1 of %2",
                               {gb(forced.budget.total()), gb(b.hbm.value)})
                        : fill("everything less intrusive is over %1; order: less TP·PP, lower "
                               "ZeRO stage, less recompute",
                               {gb(b.hbm.value)});
        facts.title = fill("Smallest layouts that fit (%1 of %2)",
                           {std::to_string(b.fits.size()), std::to_string(b.all.size())});
        for (std::size_t i = 0; i < std::min<std::size_t>(5, b.fits.size()); ++i)
            facts.rows.push_back(
                {.label = fill("%1. %2", {std::to_string(i + 1), layoutName(b.fits[i].layout)}),
                 .value = gb(b.fits[i].budget.total()),
                 .source = "least TP·PP, then ZeRO stage, then recompute",
                 .emphasis = i == 0});
    }
    bars.push_back({"yours", LayoutFit{b.layout, b.yours}});
    // Bars appear one by one, the verdict last.
    const int shown = std::clamp(static_cast<int>(t * static_cast<double>(bars.size())) + 1, 1,
                                 static_cast<int>(bars.size()));
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const auto& [name, fit] = bars[i];
        f.categories.push_back(budgetBar(fill("%1: %2", {name, layoutName(fit.layout)}), fit.budget,
                                         fitText(fit.budget.total(), b.hbm.value),
                                         static_cast<int>(i) < shown ? 5 : 0));
        f.axisMax = std::max(f.axisMax, fit.budget.total());
    }
    return Frames{{f, facts}};
}

} // namespace

std::string MemoryBudgetScenario::question() const {
    return "How many bytes does one GPU hold when you train this model, and what layout does "
           "that force on you?";
}

std::string MemoryBudgetScenario::answer() const {
    return R"(**Count bytes per parameter before naming a strategy.**
- Mixed-precision Adam holds **2Ψ weights + 2Ψ gradients + 12Ψ optimizer state = 16Ψ bytes** (ZeRO §3.1): a 7.5B model needs **120 GB** of model states before one activation.
- ZeRO shards them over the N_d data-parallel ranks: optimizer state (**4Ψ + KΨ/N_d**), then gradients (**2Ψ + 14Ψ/N_d**), then weights (**16Ψ/N_d**). At 7.5B and 64 GPUs: **120 → 31.4 → 16.6 → 1.9 GB** (ZeRO Figure 1). Stage 3 costs 1.5× the DP traffic.
- TP and PP divide Ψ itself by t·p; their cost is communication on the critical path.
- Activations per layer are **s·b·h(34 + 5as/h)** bytes (Korthikanti Table 2); TP divides most of it, SP the rest, selective recomputation drops the 5as/h attention term (80 for GPT-3: −70 % for +2.7 % FLOPs), full recomputation keeps 2sbh per layer (+39 % FLOPs). The first 1F1B stage holds L layers' worth whatever p.
- Add buffers (CUDA context, NCCL buckets, fragmentation) and compare with HBM: the least intrusive layout that fits is the one the model forces.)";
}

std::vector<SourceRef> MemoryBudgetScenario::sources() const {
    return {
        {"Rajbhandari et al., ZeRO (SC'20), §3.1, §5, Figure 1",
         "https://arxiv.org/abs/1910.02054"},
        {"Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, "
         "Table 2",
         "https://arxiv.org/abs/2205.05198"},
        {"Narayanan et al., Megatron-LM on GPU clusters (SC'21)",
         "https://arxiv.org/abs/2104.04473"},
    };
}

std::vector<ParamSpec> MemoryBudgetScenario::parameters() const {
    return {
        ParamSpec::choice("model", "Model", shapeIds(), "zero-7.5b",
                          "zero-7.5b is ZeRO's Figure 1 example (Ψ = 7.5B)"),
        ParamSpec::integer("gpus", "GPUs", "", 1, 16384, 64, true, "8 per node"),
        ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm",
                          "HBM capacity from the catalogue"),
        ParamSpec::choice("optimizer", "Optimizer", {"adam", "sgd"}, "adam"),
        ParamSpec::choice("precision", "Precision", {"bf16-mixed", "fp32"}, "bf16-mixed"),
        ParamSpec::integer("tp", "Tensor parallel TP", "", 1, 8, 1, true, "within one 8-GPU node"),
        ParamSpec::integer("pp", "Pipeline parallel PP", "", 1, 32, 1, true, "divides the layers"),
        ParamSpec::integer("zero", "ZeRO stage", "", 0, 3, 0),
        ParamSpec::choice("sp", "Sequence parallel", {"off", "on"}, "off", "needs TP > 1"),
        ParamSpec::choice("recompute", "Activation recompute", {"none", "selective", "full"},
                          "none"),
        ParamSpec::integer("seq", "Sequence", "tokens", 256, 131072, 2048, true),
        ParamSpec::integer("micro-batch", "Micro-batch", "sequences", 1, 64, 1, true),
        ParamSpec::real("buffers-gb", "Buffers", "GB", 0, 40, 2, false,
                        "CUDA context, NCCL buckets, fragmentation: an assumption"),
    };
}

Story MemoryBudgetScenario::build(const Params& p, const ScenarioInputs&) const {
    const std::string shapeId = p.text("model");
    const ModelShape shape = *std::find_if(std::begin(kShapes), std::end(kShapes),
                                           [&](const ModelShape& s) { return shapeId == s.id; });
    auto b = std::make_shared<Budget>();
    b->model.shape.params = shape.params;
    b->model.shape.layers = shape.layers;
    b->model.shape.hidden = shape.hidden;
    b->model.shape.heads = shape.heads;
    b->model.shape.seq = static_cast<int>(p.integer("seq"));
    b->model.shape.microBatch = static_cast<int>(p.integer("micro-batch"));
    b->model.optimizer = parseOptimizer(p.text("optimizer"));
    b->model.precision = parseTrainingPrecision(p.text("precision"));
    b->model.bufferBytes = p.number("buffers-gb") * 1e9;
    const int gpus = static_cast<int>(p.integer("gpus"));
    MemoryLayout& l = b->layout;
    l.tp = static_cast<int>(p.integer("tp"));
    l.pp = static_cast<int>(p.integer("pp"));
    if (gpus % (l.tp * l.pp) != 0)
        throw std::invalid_argument(fill("TP × PP = %1 does not divide the %2 GPUs",
                                         {std::to_string(l.tp * l.pp), std::to_string(gpus)}));
    l.dp = gpus / (l.tp * l.pp);
    l.zero = static_cast<int>(p.integer("zero"));
    l.sequenceParallel = p.text("sp") == "on" && l.tp > 1;
    if (p.text("sp") == "on" && l.tp == 1)
        b->spNote = " · SP ignored: it splits what TP leaves, so it needs TP > 1";
    l.recompute = parseRecompute(p.text("recompute"));
    b->yours = memoryBudget(b->model, l);
    const GpuSpec& gpu = *HardwareCatalogue::builtin().find(p.text("gpu"));
    const double hbm = gpu.value("memory_gb") * 1e9;
    b->gpuName = gpu.name;
    b->hbm = hbmLine(gpu, hbm);
    b->fits = layoutsThatFit(b->model, gpus, hbm);
    // The same search with unlimited memory lists every candidate in the same order, so the
    // layout just before the forced one is the "one notch less" that does not fit.
    b->all = layoutsThatFit(b->model, gpus, 1e30);

    Story story;
    story.provenance =
        fill("modeled on CPU: %1 (%2B parameters) on %3 × %4, %5 %6",
             {shapeId, formatSignificant(shape.params / 1e9, 3), std::to_string(gpus), gpu.name,
              optimizerName(b->model.optimizer), trainingPrecisionName(b->model.precision)});
    story.steps.push_back(
        {"Model states: 16 bytes per parameter, then ZeRO",
         "Mixed-precision Adam keeps bf16 weights and gradients plus fp32 master weights, "
         "momentum and variance: 16 bytes per parameter. ZeRO shards the optimizer state, then "
         "the gradients, then the weights over the data-parallel ranks.",
         6.0, [b](double t) { return zeroStages(*b, t); }});
    story.steps.push_back(
        {"Activations: Korthikanti's bytes per layer",
         "Each layer stores s·b·h(34 + 5as/h) bytes for the backward pass. TP splits most of "
         "it, SP the rest; selective recomputation drops the attention scores, full "
         "recomputation keeps only each layer's input.",
         6.0, [b](double t) { return activationChoices(*b, t); }});
    story.steps.push_back(
        {"Your layout against the HBM",
         "Weights, gradients, optimizer state, activations and buffers stacked for one GPU of "
         "your layout, against the GPU's memory from the hardware catalogue.",
         5.0, [b](double t) { return yourLayout(*b, t); }});
    story.steps.push_back(
        {"What layout this forces",
         "Every layout of these GPUs searched, least intrusive first: less model parallelism, "
         "a lower ZeRO stage, less recomputation. The first that fits is the one the memory "
         "forces; the one before it does not fit.",
         6.0, [b](double t) { return forcedLayout(*b, t); }});
    return story;
}

} // namespace wb
