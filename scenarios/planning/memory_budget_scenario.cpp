#include "planning/memory_budget_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
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
// The series of every step-time bar: compute, then what each choice adds to it.
const std::vector<std::string> kCostSeries = {"compute", "recomputation", "TP all-reduces",
                                              "pipeline bubble and sends", "DP not hidden"};
const char* kZeroSource = "Rajbhandari et al., ZeRO (SC'20) §3.1, §5";
const char* kActSource = "Korthikanti et al. 2022, Table 2, Eq. 5";

std::string gb(double bytes) {
    return formatBytes(bytes);
}

// "mixed-precision Adam", "FP32 SGD with momentum": what trains the model, in words.
std::string mbTrainingWords(const MemoryModel& m, bool sentenceStart = false) {
    const bool mixed = m.precision == TrainingPrecision::Bf16Mixed;
    return fill("%1 %2", {mixed ? (sentenceStart ? "Mixed-precision" : "mixed-precision") : "FP32",
                          m.optimizer == Optimizer::Adam ? "Adam" : "SGD with momentum"});
}

// What the optimizer keeps per parameter, in words.
std::string mbOptimizerStateWords(const MemoryModel& m) {
    const bool mixed = m.precision == TrainingPrecision::Bf16Mixed;
    const bool adam = m.optimizer == Optimizer::Adam;
    return fill("%1%2", {mixed ? "FP32 master weights, " : "",
                         adam ? "momentum and variance" : "momentum"});
}

// What a layout costs beyond compute, part by part: "recomputation +33.3 %, TP +8.1 %".
std::string mbCostWords(const LayoutCost& c) {
    const double compute = c.computeS();
    const std::pair<const char*, double> parts[] = {{"recomputation", c.recomputeS},
                                                    {"TP all-reduces", c.tpS()},
                                                    {"bubble and sends", c.ppS()},
                                                    {"DP not hidden", c.dpExposedS()}};
    std::string out;
    for (const auto& [name, seconds] : parts)
        if (seconds > 0) {
            if (!out.empty())
                out += ", ";
            out += fill("%1 +%2", {name, formatShare(seconds / compute)});
        }
    return out.empty() ? std::string("nothing beyond compute") : out;
}

BarCategory budgetBar(const std::string& label, const MemoryBudget& b, const std::string& tip,
                      int shown = 5) {
    BarCategory c;
    c.label = label;
    c.tip = tip;
    const double values[5] = {b.states.weights, b.states.gradients, b.states.optimizer,
                              b.activations, b.buffers};
    const char* why[5] = {"weights", "gradients", "optimizer state",
                          "activations of the first pipeline stage", "buffers (assumed)"};
    for (int i = 0; i < 5; ++i)
        c.segments.push_back({.value = i < shown ? values[i] : 0.0,
                              .series = i,
                              .tip = fill("%1: %2 per GPU", {why[i], gb(values[i])})});
    return c;
}

BarCategory costBar(const std::string& label, const LayoutCost& c, bool shown) {
    BarCategory bar;
    bar.label = label;
    bar.tip = fill("%1 per step: %2", {formatSi(c.stepS(), "s"), mbCostWords(c)});
    const double values[5] = {c.computeS(), c.recomputeS, c.tpS(), c.ppS(), c.dpExposedS()};
    for (int i = 0; i < 5; ++i)
        bar.segments.push_back({.value = shown ? values[i] : 0.0,
                                .series = i,
                                .tip = fill("%1: %2", {kCostSeries[static_cast<std::size_t>(i)],
                                                       formatSi(values[i], "s")})});
    return bar;
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
    std::optional<LayoutCost> yourCost; // empty when the step model refuses the layout
    std::string yourCostNote;           // why
    std::string gpuName;
    BarReference hbm;
    std::string spNote; // non-empty when SP was asked for without TP
    LayoutCostBasis basis;
    std::vector<LayoutFit> all;  // every layout searched, cheapest first
    std::vector<LayoutFit> fits; // those that fit, in the same order
    const LayoutFit* fastest() const { return all.empty() ? nullptr : &all.front(); }
    const LayoutFit* forced() const { return fits.empty() ? nullptr : &fits.front(); }
    // The fastest layout fits (then it is the forced one).
    bool fastestFits() const { return !all.empty() && all.front().fits; }
};

// ZeRO's paper quotes its Figure 1 for one setup; the citation stands beside the bars only
// when this run is that setup.
bool mbIsZeroFigureOne(const Budget& b, double psi) {
    const StateBytesPerParam k = stateBytesPerParam(b.model.optimizer, b.model.precision);
    return std::abs(psi - 7.5e9) < 1.0 && b.layout.dp == 64 && k.total() == 16.0 &&
           k.optimizer == 12.0;
}

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
                      formatSi(psi, "", 4)});
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
         .value = fill("%1 (%2)", {formatSignificant(k.total(), 3), mbTrainingWords(b.model)}),
         .source = fill("2Ψ + 2Ψ + KΨ with K = 12 for mixed-precision Adam, %1; the others "
                        "counted the same way",
                        {kZeroSource})});
    // The formulas with this run's bytes per parameter (ZeRO §5 writes them for K = 12).
    const std::string w = formatSignificant(k.weights, 3);
    const std::string wg = formatSignificant(k.weights + k.gradients, 3);
    const std::string gk = formatSignificant(k.gradients + k.optimizer, 3);
    const std::string all = formatSignificant(k.total(), 3);
    const std::string formulas[4] = {fill("%1Ψ", {all}),
                                     fill("%1Ψ + %2Ψ/N_d", {wg, formatSignificant(k.optimizer, 3)}),
                                     fill("%1Ψ + %2Ψ/N_d", {w, gk}), fill("%1Ψ/N_d", {all})};
    const bool figureOne = mbIsZeroFigureOne(b, psi);
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
             .source = figureOne ? fill("%1; ZeRO's Figure 1 (7.5B, N_d = 64): 120 / 31.4 / "
                                        "16.6 / 1.9 GB",
                                        {formulas[z]})
                                 : fill("%1, %2", {formulas[z], kZeroSource}),
             .emphasis = z == b.layout.zero});
    }
    f.emphasis = b.layout.zero < shown ? b.layout.zero : -1;
    return Frames{{f, facts}};
}

ActivationShape mbActivationShape(const TransformerConfig& m, int tp, bool sp, Recompute r) {
    ActivationShape a;
    a.seq = m.seq;
    a.microBatch = m.microBatch;
    a.hidden = m.hidden;
    a.heads = m.heads;
    a.tp = tp;
    a.sequenceParallel = sp;
    a.recompute = r;
    return a;
}

struct ActivationChoice {
    std::string name;
    bool sp;
    Recompute r;
};

std::vector<ActivationChoice> activationChoiceList(int tp) {
    std::vector<ActivationChoice> choices = {
        {.name = "no recompute", .sp = false, .r = Recompute::None},
        {.name = "selective", .sp = false, .r = Recompute::Selective},
        {.name = "full", .sp = false, .r = Recompute::Full}};
    if (tp > 1) {
        choices.insert(choices.begin() + 1,
                       ActivationChoice{.name = "SP", .sp = true, .r = Recompute::None});
        choices.insert(
            choices.begin() + 3,
            ActivationChoice{.name = "SP + selective", .sp = true, .r = Recompute::Selective});
    }
    return choices;
}

// Activations of the first stage for each recomputation choice at the layout's TP.
Frames activationChoices(const Budget& b, double t) {
    const TransformerConfig& m = b.model.shape;
    const std::vector<ActivationChoice> choices = activationChoiceList(b.layout.tp);
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
        const ActivationShape a = mbActivationShape(m, b.layout.tp, choices[i].sp, choices[i].r);
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
        // What the saving costs: recomputation's extra compute; SP moves what TP moves.
        const double extra = recomputeComputeOverhead(choices[i].r, m);
        facts.rows.push_back(
            {.label = choices[i].name,
             .value = fill("%1 per layer", {gb(perLayer)}),
             .source = extra > 0 ? fill("%1 for the first stage, +%2 compute; %3",
                                        {gb(stage), formatShare(extra), kActSource})
                                 : fill("%1 for the first stage; %2", {gb(stage), kActSource}),
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
        {.label = "optimizer state",
         .value = gb(y.states.optimizer),
         .source = fill("%1; %2", {mbOptimizerStateWords(b.model), kZeroSource})},
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

// What each choice costs in time: compute, then recomputation, TP, the pipeline and DP's
// exposed traffic, for the fastest layout, the cheapest that fits and yours.
Frames choiceCosts(const Budget& b, double t) {
    BarChartFrame f;
    f.series = kCostSeries;
    f.axisTitle = "seconds per step";
    f.unit = BarValueUnit::Seconds;
    f.horizontal = true;
    std::vector<std::pair<std::string, LayoutCost>> bars;
    const LayoutFit* fastest = b.fastest();
    const LayoutFit* forced = b.forced();
    if (fastest && !b.fastestFits())
        bars.push_back(
            {fill("fastest, does not fit: %1", {layoutName(fastest->layout)}), fastest->cost});
    if (forced)
        bars.push_back(
            {fill("cheapest that fits: %1", {layoutName(forced->layout)}), forced->cost});
    if (b.yourCost)
        bars.push_back({fill("yours: %1", {layoutName(b.layout)}), *b.yourCost});
    const int shown = std::clamp(static_cast<int>(t * static_cast<double>(bars.size())) + 1, 1,
                                 std::max(1, static_cast<int>(bars.size())));
    for (std::size_t i = 0; i < bars.size(); ++i) {
        f.categories.push_back(costBar(bars[i].first, bars[i].second, static_cast<int>(i) < shown));
        f.axisMax = std::max(f.axisMax, bars[i].second.stepS());
    }
    f.emphasis = forced ? (b.fastestFits() ? 0 : 1) : -1;
    if (f.emphasis >= shown)
        f.emphasis = -1;
    f.title =
        forced    ? fill("Cheapest layout that fits: %1 per step, +%2 over compute alone",
                         {formatSi(forced->cost.stepS(), "s"), formatShare(forced->cost.overhead())})
        : fastest ? fill("Nothing fits; the fastest layout would take %1 per step",
                         {formatSi(fastest->cost.stepS(), "s")})
                  : std::string("No layout splits this batch over these GPUs");
    f.caption = fill("compute at %1 of %2 (assumed); NVLink %3, network %4 per GPU",
                     {formatShare(b.basis.efficiency), formatSi(b.basis.peakFlops, "FLOP/s"),
                      formatSi(b.basis.cluster.nvlinkGBs * 1e9, "B/s"),
                      formatSi(b.basis.cluster.networkGBs * 1e9, "B/s")});
    // What each choice costs, as the papers count it, with this run's numbers.
    const TransformerConfig& m = b.model.shape;
    FactsFrame facts;
    facts.title = "What each choice costs";
    facts.rows.push_back(
        {.label = "full recompute",
         .value = fill("+%1 compute", {formatShare(recomputeComputeOverhead(Recompute::Full, m))}),
         .source = "one more forward pass; Korthikanti et al. 2022 §5 (Table 4: +39 % time "
                   "on 22B)"});
    facts.rows.push_back(
        {.label = "selective recompute",
         .value =
             fill("+%1 compute", {formatShare(recomputeComputeOverhead(Recompute::Selective, m))}),
         .source = "the attention scores again: (s/6h)/(1 + s/6h); Korthikanti et al. 2022 §5"});
    const double psi = m.params / (static_cast<double>(b.layout.tp) * b.layout.pp);
    const double grad = stateBytesPerParam(b.model.optimizer, b.model.precision).gradients;
    facts.rows.push_back({.label = "ZeRO-1, ZeRO-2",
                          .value = fill("DP's %1 per GPU per step", {gb(2.0 * grad * psi)}),
                          .source = "the same volume as plain DP; ZeRO §7"});
    facts.rows.push_back({.label = "ZeRO-3",
                          .value = fill("%1 per GPU per step", {gb(3.0 * grad * psi)}),
                          .source = "1.5× DP: the weights gathered again for backward; ZeRO §7"});
    if (forced)
        facts.rows.push_back({.label = "cheapest that fits",
                              .value = fill("+%1", {formatShare(forced->cost.overhead())}),
                              .source = mbCostWords(forced->cost),
                              .emphasis = true});
    if (b.yourCost)
        facts.rows.push_back({.label = "yours",
                              .value = fill("+%1", {formatShare(b.yourCost->overhead())}),
                              .source = mbCostWords(*b.yourCost)});
    else
        facts.rows.push_back({.label = "yours", .value = "not costed", .source = b.yourCostNote});
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
    const LayoutFit* forced = b.forced();
    const LayoutFit* fastest = b.fastest();
    if (!forced) {
        // Nothing fits: show the most frugal layout there is.
        const auto least =
            std::min_element(b.all.begin(), b.all.end(), [](const auto& x, const auto& y) {
                return x.budget.total() < y.budget.total();
            });
        f.title = "No layout of these GPUs fits";
        facts.title = "Nothing fits";
        if (least == b.all.end()) {
            f.caption = "no layout divides the global batch into micro-batches over its DP ranks";
        } else {
            f.caption = fill("the smallest budget is %1, over %2: more GPUs, a smaller model or "
                             "shorter sequences",
                             {gb(least->budget.total()), gb(b.hbm.value)});
            bars.push_back({"least memory", *least});
            facts.rows.push_back({.label = layoutName(least->layout),
                                  .value = gb(least->budget.total()),
                                  .source = "the least of every layout searched",
                                  .emphasis = true});
        }
    } else {
        if (!b.fastestFits())
            bars.push_back({"fastest", *fastest});
        bars.push_back({"forced", *forced});
        f.emphasis = static_cast<int>(bars.size()) - 1;
        f.title = fill("The cheapest layout that fits: %1", {layoutName(forced->layout)});
        // Words chosen by comparing the costs: a faster layout that does not fit, or one that is
        // no faster (ZeRO-1 moves what DP moves, so it costs nothing over ZeRO-0).
        const double gain = forced->cost.stepS() - fastest->cost.stepS();
        f.caption =
            b.fastestFits() ? fill("the fastest layout fits: %1 of %2",
                                   {gb(forced->budget.total()), gb(b.hbm.value)})
            : gain <= 1e-6 * forced->cost.stepS()
                ? fill("as fast as %1, which needs %2 of %3: here the saving costs no time",
                       {layoutName(fastest->layout), gb(fastest->budget.total()), gb(b.hbm.value)})
                : fill("%1 would be %2 faster per step but needs %3 of %4",
                       {layoutName(fastest->layout), formatSi(gain, "s"),
                        gb(fastest->budget.total()), gb(b.hbm.value)});
        facts.title = fill("Cheapest layouts that fit (%1 of %2)",
                           {std::to_string(b.fits.size()), std::to_string(b.all.size())});
        for (std::size_t i = 0; i < std::min<std::size_t>(5, b.fits.size()); ++i) {
            const LayoutFit& x = b.fits[i];
            facts.rows.push_back(
                {.label = fill("%1. %2", {std::to_string(i + 1), layoutName(x.layout)}),
                 .value = fill("%1, +%2", {gb(x.budget.total()), formatShare(x.cost.overhead())}),
                 .source = mbCostWords(x.cost),
                 .emphasis = i == 0});
        }
    }
    bars.push_back({"yours", LayoutFit{b.layout, b.yours, {}, b.yours.total() <= b.hbm.value}});
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
    return R"(**Count bytes per parameter before naming a strategy, then pay the cheapest price that fits.**
- Mixed-precision Adam holds **2Ψ weights + 2Ψ gradients + 12Ψ optimizer state = 16Ψ bytes** (ZeRO §3.1): a 7.5B model needs **120 GB** of model states before one activation. Other optimizers and precisions are counted the same way.
- ZeRO shards them over the N_d data-parallel ranks: optimizer state (**4Ψ + KΨ/N_d**), then gradients (**2Ψ + 14Ψ/N_d**), then weights (**16Ψ/N_d**). At 7.5B and 64 GPUs: **120 → 31.4 → 16.6 → 1.9 GB** (ZeRO Figure 1). Stages 1 and 2 move what plain DP moves; stage 3 moves 1.5× (ZeRO §7).
- TP and PP divide Ψ itself by t·p: TP pays four all-reduces per layer (cheap on NVLink inside a node), PP a bubble of (p − 1)/m.
- Activations per layer are **s·b·h(34 + 5as/h)** bytes (Korthikanti Table 2); TP divides most of it, SP the rest, selective recomputation drops the 5as/h attention term for a few per cent more compute, full recomputation keeps 2sbh per layer for one more forward pass (+33 % compute).
- Add buffers and compare with HBM; of the layouts that fit, the one with the shortest estimated step is the one the model forces.)";
}

std::vector<SourceRef> MemoryBudgetScenario::sources() const {
    return {
        {"Rajbhandari et al., ZeRO (SC'20), §3.1, §5, §7, Figure 1",
         "https://arxiv.org/abs/1910.02054"},
        {"Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, "
         "Table 2, §5",
         "https://arxiv.org/abs/2205.05198"},
        {"Narayanan et al., Megatron-LM on GPU clusters (SC'21), §2.2, §3.2",
         "https://arxiv.org/abs/2104.04473"},
    };
}

std::vector<ParamSpec> MemoryBudgetScenario::parameters() const {
    return {
        ParamSpec::choice("model", "Model", shapeIds(), "zero-7.5b",
                          "zero-7.5b is ZeRO's Figure 1 example (Ψ = 7.5B)"),
        ParamSpec::integer("gpus", "GPUs", "", 1, 16384, 64, true,
                           "whole 8-GPU nodes, or fewer than 8"),
        ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm",
                          "HBM capacity and peak from the catalogue"),
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
        ParamSpec::integer("global-batch", "Global batch", "sequences", 1, 65536, 1024, true,
                           "micro-batch × DP must divide it"),
        ParamSpec::real("buffers-gb", "Buffers", "GB", 0, 40, 2, false,
                        "CUDA context, NCCL buckets, fragmentation: an assumption"),
        ParamSpec::real("efficiency", "Fraction of peak reached", "", 0.05, 1.0, 0.5, false,
                        "an assumption; sets compute against communication"),
    };
}

namespace {

// Every number a layout puts on a slide: its sizes, its bill and its cost.
void mbAddLayoutResults(std::vector<ResultValue>& out, const MemoryLayout& l, const MemoryBudget& b,
                        const LayoutCost* c) {
    out.insert(out.end(), {{"TP", l.tp},
                           {"PP", l.pp},
                           {"DP", l.dp},
                           {"ZeRO", l.zero},
                           {"weights", b.states.weights},
                           {"gradients", b.states.gradients},
                           {"optimizer state", b.states.optimizer},
                           {"activations", b.activations},
                           {"buffers", b.buffers},
                           {"total", b.total()}});
    if (!c)
        return;
    const double compute = c->computeS();
    out.insert(out.end(), {{"step", c->stepS()},
                           {"compute", compute},
                           {"recomputation", c->recomputeS},
                           {"TP time", c->tpS()},
                           {"bubble and sends", c->ppS()},
                           {"DP not hidden", c->dpExposedS()},
                           {"overhead", c->overhead()},
                           {"recomputation share", c->recomputeS / compute},
                           {"TP share", c->tpS() / compute},
                           {"bubble share", c->ppS() / compute},
                           {"DP share", c->dpExposedS() / compute}});
}

// The closing answer and the check-yourself questions, with this run's numbers.
void mbAddWhiteboard(Story& story, const Budget& b, const std::string& hbmSource) {
    const StateBytesPerParam k = stateBytesPerParam(b.model.optimizer, b.model.precision);
    const TransformerConfig& m = b.model.shape;
    const MemoryLayout& l = b.layout;
    const double psi = m.params / (static_cast<double>(l.tp) * l.pp);
    ModelStates stage[4];
    for (int z = 0; z < 4; ++z)
        stage[z] = modelStatesPerGpu(psi, z, l.dp, k);
    const double none = activationBytesPerLayer(mbActivationShape(m, l.tp, false, Recompute::None));
    const double full = activationBytesPerLayer(mbActivationShape(m, l.tp, false, Recompute::Full));
    const std::string kSum =
        fill("%1 + %2 + %3", {formatSignificant(k.weights, 3), formatSignificant(k.gradients, 3),
                              formatSignificant(k.optimizer, 3)});
    story.whiteboard.question =
        "How many bytes does one GPU hold when you train this model, and what layout does that "
        "force on you?";
    story.whiteboard.points.push_back(
        {fill("%1 holds %2 = %3 bytes per parameter: %4 per GPU for Ψ = %5 parameters "
              "before any sharding.",
              {mbTrainingWords(b.model, true), kSum, formatSignificant(k.total(), 3),
               gb(stage[0].total()), formatSi(psi, "", 4)}),
         "Rajbhandari et al. 2020 (ZeRO) §3.1"});
    story.whiteboard.points.push_back(
        {fill("ZeRO over DP %1: %2 → %3 → %4 → %5 per GPU. Stages 1 and 2 move what DP moves, "
              "%6 per GPU per step; stage 3 moves %7× that.",
              {std::to_string(l.dp), gb(stage[0].total()), gb(stage[1].total()),
               gb(stage[2].total()), gb(stage[3].total()), gb(2.0 * k.gradients * psi),
               formatSignificant(3.0 / 2.0, 2)}),
         "Rajbhandari et al. 2020 (ZeRO) §5, §7"});
    story.whiteboard.points.push_back(
        {fill("Activations: %1 per layer at TP %2; full recomputation keeps %3 for +%4 "
              "compute, selective drops the attention scores for +%5.",
              {gb(none), std::to_string(l.tp), gb(full),
               formatShare(recomputeComputeOverhead(Recompute::Full, m)),
               formatShare(recomputeComputeOverhead(Recompute::Selective, m))}),
         "Korthikanti et al. 2022 Table 2, §5"});
    story.whiteboard.points.push_back(
        {b.yours.total() <= b.hbm.value
             ? fill("Your layout needs %1 per GPU of %2: it fits.",
                    {gb(b.yours.total()), gb(b.hbm.value)})
             : fill("Your layout needs %1 per GPU, %2 over the %3 of HBM.",
                    {gb(b.yours.total()), gb(b.yours.total() - b.hbm.value), gb(b.hbm.value)}),
         hbmSource});
    const LayoutFit* forced = b.forced();
    story.whiteboard.points.push_back(
        {!forced ? fill("None of %1 fits: more GPUs, a smaller model or shorter sequences.",
                        {formatCount(static_cast<long long>(b.all.size()), "layout", "layouts")})
         : forced->cost.overhead() < 5e-4
             ? fill("Ranked by estimated step time, the cheapest layout that fits is %1: %2 "
                    "per GPU, and it costs no time beyond compute.",
                    {layoutName(forced->layout), gb(forced->budget.total())})
             : fill("Ranked by estimated step time, the cheapest layout that fits is %1: %2 "
                    "per GPU, +%3 over compute alone (%4).",
                    {layoutName(forced->layout), gb(forced->budget.total()),
                     formatShare(forced->cost.overhead()), mbCostWords(forced->cost)}),
         "derived: ZeRO §7, Korthikanti et al. 2022 §5, Narayanan et al. 2021 §2.2, §3.2"});

    story.checks = {
        {fill("How many bytes per parameter does %1 hold before any sharding (weights, "
              "gradients and optimizer state)?",
              {mbTrainingWords(b.model)}),
         k.total(), "bytes", 0.0,
         fill("%1 = %2 bytes (%3).",
              {kSum, formatSignificant(k.total(), 3), mbOptimizerStateWords(b.model)})},
        {fill("How many GB of model states does one GPU hold under ZeRO-%1 with DP %2 and "
              "Ψ = %3 parameters per GPU slice?",
              {std::to_string(l.zero), std::to_string(l.dp), formatSi(psi, "", 4)}),
         stage[l.zero].total() / 1e9, "GB", 0.05,
         fill("weights %1 + gradients %2 + optimizer state %3 = %4.",
              {gb(stage[l.zero].weights), gb(stage[l.zero].gradients), gb(stage[l.zero].optimizer),
               gb(stage[l.zero].total())})},
        {std::string("How much extra compute does full recomputation add to a step, in per cent?"),
         recomputeComputeOverhead(Recompute::Full, m) * 100.0, "%", 0.05,
         fill("One more forward pass: 2 FLOPs per parameter per token on top of 6 (2 forward, "
              "4 backward): +%1.",
              {formatShare(recomputeComputeOverhead(Recompute::Full, m))})},
    };
    addWhiteboardStep(story, forced
                                 ? fill("Bytes per parameter first, then the cheapest layout that "
                                        "fits: here %1.",
                                        {layoutName(forced->layout)})
                                 : std::string("Bytes per parameter first: here nothing fits."));
}

} // namespace

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
    b->model.shape.globalBatch = static_cast<int>(p.integer("global-batch"));
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
    const HardwareCatalogue& catalogue = HardwareCatalogue::builtin();
    const GpuSpec& gpu = *catalogue.find(p.text("gpu"));
    const double hbm = gpu.value("memory_gb") * 1e9;
    const Precision math = trainingMathPrecision(b->model.precision);
    b->gpuName = gpu.name;
    b->hbm = hbmLine(gpu, hbm);
    b->basis.peakFlops = peakTflops(gpu, math).value_or(0.0) * 1e12;
    if (b->basis.peakFlops <= 0)
        throw std::invalid_argument(
            fill("the catalogue has no dense %1 peak for the %2", {precisionName(math), gpu.name}));
    b->basis.efficiency = p.number("efficiency");
    const ClusterTopology cluster = clusterOfGpus(b->basis, gpus);
    try {
        b->yourCost = layoutCost(b->model, l, b->basis);
    } catch (const std::invalid_argument& e) {
        b->yourCostNote = e.what();
    }
    b->all = rankLayouts(b->model, gpus, hbm, b->basis);
    for (const LayoutFit& f : b->all)
        if (f.fits)
            b->fits.push_back(f);

    const StateBytesPerParam k = stateBytesPerParam(b->model.optimizer, b->model.precision);
    const TransformerConfig& m = b->model.shape;
    const double psi = m.params / (static_cast<double>(l.tp) * l.pp);
    Story story;
    story.provenance =
        fill("modeled on CPU: %1 (%2B parameters) on %3 × %4, %5, %6 of peak (assumed)",
             {shapeId, formatSignificant(shape.params / 1e9, 3), std::to_string(gpus), gpu.name,
              mbTrainingWords(b->model), formatShare(b->basis.efficiency)});
    // What the slides may quote: every value below is the model's or a parameter.
    std::vector<ResultValue>& r = story.results;
    r = {{"weight bytes per parameter", k.weights},
         {"gradient bytes per parameter", k.gradients},
         {"optimizer bytes per parameter", k.optimizer},
         {"bytes per parameter", k.total()},
         {"weight and gradient bytes per parameter", k.weights + k.gradients},
         {"gradient and optimizer bytes per parameter", k.gradients + k.optimizer},
         {"parameters", m.params},
         {"parameters, billions", m.params / 1e9},
         {"parameters per GPU slice", psi},
         // Ψ is written with an SI prefix and no unit ("937.5 M"), read back as its mantissa.
         {"parameters per GPU slice, thousands", psi / 1e3},
         {"parameters per GPU slice, millions", psi / 1e6},
         {"parameters per GPU slice, billions", psi / 1e9},
         {"parameters per GPU slice, trillions", psi / 1e12},
         {"layers", m.layers},
         {"hidden", m.hidden},
         {"heads", m.heads},
         {"5as/h", 5.0 * m.heads * m.seq / static_cast<double>(m.hidden)},
         {"Korthikanti's 34 sbh per layer", 34},
         {"HBM", hbm},
         {"nodes", cluster.nodes},
         {"GPUs per node", cluster.gpusPerNode},
         {"NVLink bytes/s", b->basis.cluster.nvlinkGBs * 1e9},
         {"network bytes/s", b->basis.cluster.networkGBs * 1e9},
         {"peak FLOP/s", b->basis.peakFlops},
         {"full recompute compute", recomputeComputeOverhead(Recompute::Full, m)},
         {"selective recompute compute", recomputeComputeOverhead(Recompute::Selective, m)},
         {"DP bytes per GPU per step", 2.0 * k.gradients * psi},
         {"ZeRO-3 bytes per GPU per step", 3.0 * k.gradients * psi},
         {"ZeRO-3 ÷ DP traffic", (3.0 * k.gradients * psi) / (2.0 * k.gradients * psi)},
         {"layouts searched", b->all.size()},
         {"layouts that fit", b->fits.size()}};
    for (int z = 0; z < 4; ++z)
        r.push_back({"model states", modelStatesPerGpu(psi, z, l.dp, k).total()});
    for (const ActivationChoice& c : activationChoiceList(l.tp)) {
        const ActivationShape a = mbActivationShape(m, l.tp, c.sp, c.r);
        r.push_back({"activations per layer", activationBytesPerLayer(a)});
        r.push_back({"activations, first stage", activationBytesFirstStage(a, m.layers, l.pp)});
    }
    mbAddLayoutResults(r, l, b->yours, b->yourCost ? &*b->yourCost : nullptr);
    r.push_back({"over HBM", b->yours.total() - hbm});
    for (std::size_t i = 0; i < std::min<std::size_t>(5, b->fits.size()); ++i) {
        r.push_back({"rank", i + 1});
        mbAddLayoutResults(r, b->fits[i].layout, b->fits[i].budget, &b->fits[i].cost);
    }
    if (const LayoutFit* f = b->fastest()) {
        mbAddLayoutResults(r, f->layout, f->budget, &f->cost);
        if (const LayoutFit* forced = b->forced())
            r.push_back({"forced − fastest", forced->cost.stepS() - f->cost.stepS()});
    }
    if (!b->all.empty()) {
        const auto least =
            std::min_element(b->all.begin(), b->all.end(), [](const auto& x, const auto& y) {
                return x.budget.total() < y.budget.total();
            });
        mbAddLayoutResults(r, least->layout, least->budget, &least->cost);
    }

    story.steps.push_back(
        {fill("Model states: %1 bytes per parameter, then ZeRO", {formatSignificant(k.total(), 3)}),
         fill("%1 keeps %2-byte weights and %3-byte gradients plus %4 bytes of optimizer state "
              "(%5): %6 bytes per parameter. ZeRO shards the optimizer state, then the "
              "gradients, then the weights over the %7 data-parallel ranks.",
              {mbTrainingWords(b->model, true), formatSignificant(k.weights, 3),
               formatSignificant(k.gradients, 3), formatSignificant(k.optimizer, 3),
               mbOptimizerStateWords(b->model), formatSignificant(k.total(), 3),
               std::to_string(l.dp)}),
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
        {"What each choice costs in time",
         "Memory savings are paid in time: recomputation in extra forward passes, ZeRO-3 in "
         "1.5× DP's traffic, TP in four all-reduces per layer, PP in its bubble. The bars "
         "are one step, estimated on these GPUs.",
         6.0, [b](double t) { return choiceCosts(*b, t); }});
    story.steps.push_back(
        {"What layout this forces",
         fill("Of %1 searched, %2 fit in %3. Ranked by estimated step time, the first that fits "
              "is the one the memory forces; no layout that fits is faster.",
              {formatCount(static_cast<long long>(b->all.size()), "layout", "layouts"),
               std::to_string(b->fits.size()), gb(hbm)}),
         6.0, [b](double t) { return forcedLayout(*b, t); }});
    mbAddWhiteboard(story, *b, catalogue.sourceLabel(gpu, "memory_gb"));
    return story;
}

} // namespace wb
