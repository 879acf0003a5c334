#include "planning/scale_fluency_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"
#include "planning/claims_check.h"
#include "roofline/roofline_model.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

// Published claims, each number with where it comes from (FACTS.md).
struct Preset {
    const char* id;
    const char* gpu;
    Claims claims;
    const char* source;    // short, for every claim
    const char* mfuNote;   // how the MFU was obtained
    const char* tokenNote; // how the tokens were obtained
};

Claims claimsOf(int gpus, double params, double tokens, double days, std::optional<double> mfu,
                std::optional<double> ckptBytes, std::optional<double> ckptS,
                std::optional<double> failures) {
    Claims c;
    c.gpus = gpus;
    c.params = params;
    c.tokens = tokens;
    c.days = days;
    c.mfu = mfu;
    c.checkpointBytes = ckptBytes;
    c.checkpointSeconds = ckptS;
    c.failures = failures;
    return c;
}

// Llama 3's tokens for the 54-day snapshot are derived (the paper gives no snapshot total):
// Table 4's 400 TFLOP/s per GPU on 16,384 GPUs for 54 days at 90 % effective time, ÷ 6N.
const double kLlamaSnapshotTokens = 400e12 * 16384 * 54 * 86400 * 0.9 / (6 * 405e9);

const std::vector<Preset>& presets() {
    static const std::vector<Preset> list = {
        {"megatron-gpt3-175b", "a100-sxm-80gb",
         // 140 TFLOP/s per GPU counts the recompute pass (8TP/(nX)); MFU counts 6 of those 8.
         claimsOf(1024, 175e9, 300e9, 34, 140.0 * 6.0 / 8.0 / 312.0, std::nullopt, std::nullopt,
                  std::nullopt),
         "Narayanan et al. SC'21, end-to-end training time",
         "derived: 140 · 6/8 ÷ 312; Narayanan et al. SC'21's 140 TFLOP/s counts recompute "
         "(8TP/(nX)), 312: A100 datasheet",
         "300B tokens, Narayanan et al. SC'21"},
        {"llama3-405b", "h100-sxm",
         claimsOf(16384, 405e9, kLlamaSnapshotTokens, 54, 0.41, std::nullopt, std::nullopt, 419),
         "Llama 3 §3.3.1, §3.3.4: 54-day snapshot on 16K H100s",
         "Llama 3 Table 4: 41 % at 16,384 GPUs",
         "derived: Llama 3 Table 4's 400 TFLOP/s per GPU × 54 days × 90 % effective, assumed "
         "(§3.3.4: \"higher than 90%\") ÷ 6N"},
        {"impossible", "h100-sxm", claimsOf(64, 70e9, 2e12, 7, 0.6, 100e9, 2, 0),
         "an invented resume line", "claimed", "claimed"},
    };
    return list;
}

std::vector<std::string> presetIds() {
    std::vector<std::string> ids;
    for (const Preset& p : presets())
        ids.emplace_back(p.id);
    return ids;
}

// Parameters and tokens as people write them: 175B, 2T.
std::string count(double v) {
    if (v >= 1e12)
        return fill("%1T", {formatSignificant(v / 1e12, 3)});
    if (v >= 1e9)
        return fill("%1B", {formatSignificant(v / 1e9, 3)});
    return formatSi(v, "");
}

std::string sci(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

enum class Topic { Compute, Memory, Checkpoint, Failures };

// Which check an issue or probe came from, by the quantity it names.
Topic topicOf(const std::string& text) {
    if (text.find("MFU") != std::string::npos || text.find("6·N·D") != std::string::npos)
        return Topic::Compute;
    if (text.find("interruption") != std::string::npos || text.find("failure") != std::string::npos)
        return Topic::Failures;
    if (text.find("checkpoint") != std::string::npos || text.find("storage") != std::string::npos ||
        text.find("B/s") != std::string::npos)
        return Topic::Checkpoint;
    return Topic::Memory;
}

// "physically impossible: 6·N·D = ..." → one row: the finding as its label (the facts panel
// wraps it, whole), its topic as the value, and its kind ("issue", "probe") under it.
void addParagraph(std::vector<FactRow>& rows, const std::string& text, const std::string& topic,
                  bool emphasis, const char* fallbackKind) {
    const auto colon = text.find(": ");
    const bool kinded = colon != std::string::npos && colon < 40;
    rows.push_back({.label = kinded ? text.substr(colon + 2) : text,
                    .value = topic,
                    .source = kinded ? text.substr(0, colon) : fallbackKind,
                    .emphasis = emphasis});
}

struct Checked {
    std::string presetId, presetSource, mfuNote, tokenNote;
    Claims claims;
    ClaimsGpu gpu;
    ClaimsVerdict verdict;
};

void addFindings(FactsFrame& f, const Checked& c, Topic topic, const std::string& name) {
    bool any = false;
    for (const std::string& issue : c.verdict.issues)
        if (topicOf(issue) == topic) {
            addParagraph(f.rows, issue, name, true, "issue");
            any = true;
        }
    for (const std::string& probe : c.verdict.probes)
        if (topicOf(probe) == topic)
            addParagraph(f.rows, probe, name, false, "probe");
    if (!any)
        f.rows.push_back({"verdict", "consistent", fill("no %1 check failed", {name})});
}

Frames claimsSheet(const Checked& c) {
    const Claims& k = c.claims;
    FactsFrame f;
    f.title = fill("The claims (%1)", {c.presetId});
    const std::string src = c.presetSource;
    std::string checkpoint = "not claimed";
    if (k.checkpointBytes && k.checkpointSeconds)
        checkpoint = fill("%1 in %2",
                          {formatBytes(*k.checkpointBytes), formatSi(*k.checkpointSeconds, "s")});
    else if (k.checkpointBytes)
        checkpoint = formatBytes(*k.checkpointBytes);
    f.rows = {
        {"GPUs", fill("%1 × %2", {std::to_string(k.gpus), c.gpu.name}), src},
        {"model size N", fill("%1 parameters", {count(k.params)}), src},
        {"tokens D", count(k.tokens), c.tokenNote},
        {"wall-clock", fill("%1 days", {formatSignificant(k.days, 3)}), src},
        {"MFU", k.mfu ? formatShare(*k.mfu) : std::string("not claimed"), c.mfuNote},
        {"checkpoint", checkpoint, src},
        {"failures seen",
         k.failures ? formatSignificant(*k.failures, 4) : std::string("not claimed"), src},
    };
    FactsFrame w;
    w.title = "What they are checked with";
    w.rows = {
        {"peak per GPU", formatSi(c.gpu.peakFlops, "FLOP/s"),
         fill("%1 dense BF16, hardware catalogue", {c.gpu.name})},
        {"HBM per GPU", formatBytes(c.gpu.hbmBytes), "hardware catalogue"},
        {"training FLOPs", "6·N·D", "Kaplan et al. 2020 §2.1"},
        {"best published MFU", formatShare(kBestPublishedMfu),
         "Korthikanti et al. 2022, Table 5, 1T model"},
        {"model states", "16 bytes × N", "Rajbhandari et al., ZeRO (SC'20) §3.1"},
        {"interruptions",
         fill("%1 per 1000 GPU-days",
              {formatSignificant(llama3InterruptionsPerGpuDay() * 1000, 3)}),
         "Llama 3 §3.3.4: 419 in 54 days on 16,384 GPUs"},
        {"storage", "2 TB/s sustained, 7 TB/s peak", "Llama 3 §3.3.1 (Tectonic storage)"},
    };
    return Frames{{f, w}};
}

Frames computeCheck(const Checked& c, double t) {
    const ClaimsVerdict& v = c.verdict;
    BarChartFrame b;
    b.title = "MFU: what the days imply against what is claimed";
    b.caption = fill("6·N·D = %1 FLOP ÷ (%2 GPUs × %3 × %4 days)",
                     {sci(v.trainingFlops), std::to_string(c.claims.gpus),
                      formatSi(c.gpu.peakFlops, "FLOP/s"), formatSignificant(c.claims.days, 3)});
    b.series = {"implied by the claims", "claimed", "published reference"};
    b.unit = BarValueUnit::Percent;
    b.axisTitle = "fraction of dense BF16 peak";
    b.horizontal = true;
    b.references = {{.value = 1.0, .label = "100 % of peak"}};
    b.axisMax = std::max({v.impliedMfu, c.claims.mfu.value_or(0.0), 1.0});
    struct Bar {
        std::string label;
        double value;
        int series;
        std::string tip;
    };
    const std::vector<Bar> bars = {
        {.label = "implied by N, D, GPUs, days",
         .value = v.impliedMfu,
         .series = 0,
         .tip = fill("6ND ÷ (GPUs × peak × wall time) = %1", {formatShare(v.impliedMfu)})},
        {.label = "claimed",
         .value = c.claims.mfu.value_or(0.0),
         .series = 1,
         .tip = c.claims.mfu ? fill("claimed %1", {formatShare(*c.claims.mfu)})
                             : std::string("no MFU claimed")},
        {.label = "best published (1T, A100)",
         .value = kBestPublishedMfu,
         .series = 2,
         .tip = "Korthikanti Table 5: 56.3 %"},
        {.label = "Llama 3 at 16K GPUs",
         .value = 0.41,
         .series = 2,
         .tip = "Llama 3 Table 4: 38–43 %"},
    };
    const int shown = std::clamp(static_cast<int>(t * 4.0) + 1, 1, 4);
    for (std::size_t i = 0; i < bars.size(); ++i)
        b.categories.push_back(
            {.label = bars[i].label,
             .segments = {{.value = static_cast<int>(i) < shown ? bars[i].value : 0.0,
                           .series = bars[i].series,
                           .tip = bars[i].tip}},
             .tip = bars[i].tip});
    b.emphasis = 0;
    FactsFrame f;
    f.title = "Compute";
    f.rows = {
        {"6·N·D", fill("%1 FLOP", {sci(v.trainingFlops)}), "Kaplan et al. 2020 §2.1"},
        {.label = "implied MFU",
         .value = formatShare(v.impliedMfu),
         .source = "MFU as in PaLM (Chowdhery et al.) §4.1",
         .emphasis = true},
        {"days at 100 % of peak", formatSignificant(v.impliedMfu * c.claims.days, 3),
         "6ND ÷ (GPUs × peak)"},
    };
    if (c.claims.mfu)
        f.rows.push_back({"days at the claimed MFU", formatSignificant(v.daysAtClaimedMfu, 3),
                          "6ND ÷ (GPUs × peak × MFU)"});
    addFindings(f, c, Topic::Compute, "compute");
    return Frames{{b, f}};
}

Frames memoryCheck(const Checked& c, double t) {
    const StateBytesPerParam k = stateBytesPerParam(Optimizer::Adam, TrainingPrecision::Bf16Mixed);
    BarChartFrame b;
    b.title = "Model states per GPU at best: 16 bytes × N over every GPU";
    b.caption = fill("ZeRO-3 over all %1 GPUs, before a single activation: %2",
                     {std::to_string(c.claims.gpus), formatBytes(c.verdict.modelStateBytesPerGpu)});
    b.series = {"weights", "gradients", "optimizer state"};
    b.unit = BarValueUnit::Bytes;
    b.axisTitle = "bytes per GPU";
    b.references = {{.value = c.gpu.hbmBytes,
                     .label = fill("%1 HBM %2", {c.gpu.name, formatBytes(c.gpu.hbmBytes)})}};
    // ZeRO-1 and ZeRO-3 over all GPUs: what a plain and a fully sharded run must hold.
    const int shown = t < 0.5 ? 1 : 2;
    for (int z : {3, 1}) {
        const ModelStates s = modelStatesPerGpu(c.claims.params, z, c.claims.gpus, k);
        const bool visible = (z == 3) || shown == 2;
        b.categories.push_back(
            {.label =
                 fill("ZeRO-%1 over %2 GPUs", {std::to_string(z), std::to_string(c.claims.gpus)}),
             .segments = {{.value = visible ? s.weights : 0.0,
                           .series = 0,
                           .tip = fill("weights %1", {formatBytes(s.weights)})},
                          {.value = visible ? s.gradients : 0.0,
                           .series = 1,
                           .tip = fill("gradients %1", {formatBytes(s.gradients)})},
                          {.value = visible ? s.optimizer : 0.0,
                           .series = 2,
                           .tip = fill("optimizer state %1", {formatBytes(s.optimizer)})}},
             .tip = "ZeRO (SC'20) §5"});
        b.axisMax = std::max(b.axisMax, s.total());
    }
    b.emphasis = 0;
    FactsFrame f;
    f.title = "Memory";
    f.rows = {{.label = "model states per GPU",
               .value = formatBytes(c.verdict.modelStateBytesPerGpu),
               .source = "16Ψ ÷ GPUs, ZeRO-3 (ZeRO §5.3)",
               .emphasis = true},
              {"HBM", formatBytes(c.gpu.hbmBytes), fill("%1, hardware catalogue", {c.gpu.name})}};
    addFindings(f, c, Topic::Memory, "memory");
    return Frames{{b, f}};
}

Frames checkpointCheck(const Checked& c, double t) {
    const ClaimsVerdict& v = c.verdict;
    BarChartFrame b;
    b.title = "Checkpoint: what it must hold";
    b.series = {"claimed", "weights (2 bytes × N)", "optimizer state (12 bytes × N)"};
    b.unit = BarValueUnit::Bytes;
    b.axisTitle = "bytes";
    b.horizontal = true;
    const double claimed = c.claims.checkpointBytes.value_or(0.0);
    b.caption = c.claims.checkpointBytes
                    ? fill("claimed %1; BF16 weights alone are %2, resumable state %3",
                           {formatBytes(claimed), formatBytes(v.weightBytes),
                            formatBytes(v.resumableStateBytes)})
                    : fill("no checkpoint claimed: a resumable one holds %1",
                           {formatBytes(v.resumableStateBytes)});
    const bool second = t >= 0.5;
    b.categories = {
        {.label = "claimed",
         .segments = {{.value = claimed,
                       .series = 0,
                       .tip = fill("claimed %1", {formatBytes(claimed)})}},
         .tip = ""},
        {.label = "weights only",
         .segments = {{.value = second ? v.weightBytes : 0.0, .series = 1, .tip = "2 bytes × N"}},
         .tip = ""},
        {.label = "weights + Adam state",
         .segments = {{.value = second ? v.weightBytes : 0.0, .series = 1, .tip = "2 bytes × N"},
                      {.value = second ? v.resumableStateBytes - v.weightBytes : 0.0,
                       .series = 2,
                       .tip = "fp32 master weights, momentum, variance: 12 bytes × N"}},
         .tip = ""},
    };
    b.axisMax = std::max(claimed, v.resumableStateBytes);
    b.emphasis = 0;
    FactsFrame f;
    f.title = "Checkpoint";
    f.rows = {{"weights + Adam state", formatBytes(v.resumableStateBytes),
               "14 bytes × N: fp16 weights 2 + Adam state 12 (ZeRO §3.1)"}};
    if (v.checkpointBandwidth > 0)
        f.rows.push_back({.label = "write bandwidth",
                          .value = formatSi(v.checkpointBandwidth, "B/s"),
                          .source = "Llama 3 §3.3.1 storage: 2 TB/s sustained, 7 TB/s peak",
                          .emphasis = true});
    addFindings(f, c, Topic::Checkpoint, "checkpoint");
    return Frames{{b, f}};
}

Frames failureCheck(const Checked& c, double t) {
    const ClaimsVerdict& v = c.verdict;
    BarChartFrame b;
    b.title = fill("Failures: what %1 GPUs over %2 days should have seen",
                   {std::to_string(c.claims.gpus), formatSignificant(c.claims.days, 3)});
    b.caption = fill("Llama 3's rate: 419 ÷ (16,384 GPUs × 54 days) = %1 per 1000 GPU-days",
                     {formatSignificant(llama3InterruptionsPerGpuDay() * 1000, 3)});
    b.series = {"expected at Llama 3's rate", "claimed"};
    b.axisTitle = "unexpected interruptions";
    // The expectation accumulates over the run as t goes from the first day to the last.
    const double expectedSoFar = v.expectedFailures * std::clamp(t, 0.0, 1.0);
    b.categories = {
        {.label = "expected",
         .segments = {{.value = expectedSoFar,
                       .series = 0,
                       .tip = fill("%1 over the run", {formatSignificant(v.expectedFailures, 3)})}},
         .tip = ""},
        {.label = "claimed",
         .segments = {{.value = c.claims.failures.value_or(0.0),
                       .series = 1,
                       .tip = c.claims.failures ? "claimed" : "not claimed"}},
         .tip = ""},
    };
    b.axisMax = std::max(v.expectedFailures, c.claims.failures.value_or(0.0));
    FactsFrame f;
    f.title = "Failures";
    f.rows = {
        {.label = "expected",
         .value = formatSignificant(v.expectedFailures, 3),
         .source = "derived: rate × GPUs × days; rate from Llama 3 §3.3.4",
         .emphasis = true},
        {"claimed",
         c.claims.failures ? formatSignificant(*c.claims.failures, 4) : std::string("not claimed"),
         c.presetSource}};
    addFindings(f, c, Topic::Failures, "failures");
    return Frames{{b, f}};
}

Frames verdict(const Checked& c) {
    const ClaimsVerdict& v = c.verdict;
    FactsFrame f;
    f.title = v.consistent ? "Verdict: consistent"
                           : fill("Verdict: %1 inconsistencies", {std::to_string(v.issues.size())});
    const char* names[4] = {"compute", "memory", "checkpoint", "failures"};
    for (const std::string& issue : v.issues)
        addParagraph(f.rows, issue, names[static_cast<int>(topicOf(issue))], true, "issue");
    // Every check with the number it rests on, whether it passed or not.
    const auto passed = [&](Topic topic) {
        for (const std::string& issue : v.issues)
            if (topicOf(issue) == topic)
                return std::string("fails: see the issue above");
        return std::string("agrees");
    };
    f.rows.push_back({"compute: implied MFU", formatShare(v.impliedMfu),
                      fill("%1 · 6ND ÷ (GPUs × peak × days); best published %2 (Korthikanti et "
                           "al. Table 5)",
                           {passed(Topic::Compute), formatShare(kBestPublishedMfu)})});
    f.rows.push_back({"memory: model states per GPU", formatBytes(v.modelStateBytesPerGpu),
                      fill("%1 · 16 bytes × N over %2 GPUs (ZeRO §3.1) against %3 of HBM",
                           {passed(Topic::Memory), std::to_string(c.claims.gpus),
                            formatBytes(c.gpu.hbmBytes)})});
    f.rows.push_back({"checkpoint: write bandwidth",
                      v.checkpointBandwidth > 0 ? formatSi(v.checkpointBandwidth, "B/s")
                                                : std::string("not claimed"),
                      fill("%1 · bytes ÷ seconds claimed; Llama 3's storage sustains 2 TB/s "
                           "(Llama 3 paper §3.3.1)",
                           {passed(Topic::Checkpoint)})});
    f.rows.push_back({"failures: expected at Llama 3's rate",
                      formatSignificant(v.expectedFailures, 3),
                      fill("%1 · 419 interruptions in 54 days on 16,384 GPUs (Llama 3 paper "
                           "§3.3.4), × GPUs × days",
                           {passed(Topic::Failures)})});
    // The checks as one picture: each claim as a share of the limit it is checked against.
    BarChartFrame b;
    b.title = "Each claim against its limit";
    b.unit = BarValueUnit::Percent;
    b.horizontal = true;
    b.series = {"share of the limit"};
    b.axisTitle = "claim ÷ limit (past 100 %: implausible or impossible)";
    b.references = {{.value = 1.0, .label = "the limit"}};
    const auto bar = [&](const std::string& label, double share, const std::string& tip) {
        b.categories.push_back(
            {.label = label, .segments = {{.value = share, .series = 0, .tip = tip}}, .tip = tip});
    };
    bar("implied MFU ÷ best published", v.impliedMfu / kBestPublishedMfu,
        fill("%1 of peak ÷ %2 (Korthikanti et al. Table 5)",
             {formatShare(v.impliedMfu), formatShare(kBestPublishedMfu)}));
    bar("model states per GPU ÷ HBM", v.modelStateBytesPerGpu / c.gpu.hbmBytes,
        fill("%1 ÷ %2", {formatBytes(v.modelStateBytesPerGpu), formatBytes(c.gpu.hbmBytes)}));
    if (v.checkpointBandwidth > 0)
        bar("checkpoint write ÷ storage peak", v.checkpointBandwidth / kStoragePeakBytesPerS,
            fill("%1 ÷ 7 TB/s (Llama 3 paper §3.3.1)", {formatSi(v.checkpointBandwidth, "B/s")}));
    std::size_t closest = 0;
    for (std::size_t i = 1; i < b.categories.size(); ++i)
        if (b.categories[i].segments[0].value > b.categories[closest].segments[0].value)
            closest = i;
    b.emphasis = static_cast<int>(closest);
    b.caption =
        fill("closest to its limit: %1 at %2",
             {b.categories[closest].label, formatShare(b.categories[closest].segments[0].value)});
    FactsFrame probes;
    probes.title = "What an interviewer would probe next";
    for (const std::string& p : v.probes)
        addParagraph(probes.rows, p, names[static_cast<int>(topicOf(p))], false, "probe");
    addParagraph(probes.rows,
                 "the recipe: global batch, sequence length, TP × PP × DP, recompute: does "
                 "the memory budget of each GPU add up?",
                 "always", false, "probe");
    return Frames{{b, f, probes}};
}

} // namespace

std::string ScaleFluencyScenario::question() const {
    return "A resume says: N GPUs, a model of this size, this many tokens, in so many days, at "
           "this MFU. Do the numbers agree with each other?";
}

std::string ScaleFluencyScenario::answer() const {
    return R"(**Five numbers pin each other down.**
- **Compute:** training takes 6·N·D FLOPs (Kaplan et al.). Divided by GPUs × dense peak × wall-clock, that is the **implied MFU**. Above 100 % is physics, above 56.3 % (the best published, Korthikanti's 1T model) needs explaining; Llama 3 reports 38–43 %.
- **A claimed MFU** predicts the days: 6ND ÷ (GPUs × peak × MFU). Far fewer days than that is impossible; far more means idle time or an inflated MFU. Megatron-LM's 140 TFLOP/s per GPU counts the recompute pass (8TP/(nX)); as MFU that is 33.7 %.
- **Memory:** mixed-precision Adam needs **16 bytes per parameter** (ZeRO §3.1); even sharded over every GPU it must fit in HBM.
- **Checkpoint:** at least the BF16 weights (2N bytes), 14N with the optimizer state to resume; writing it faster than Llama 3's 7 TB/s storage peak needs a story.
- **Failures:** Llama 3 saw 419 unexpected interruptions in 54 days on 16,384 GPUs; a large run claiming none is improbable.)";
}

std::vector<SourceRef> ScaleFluencyScenario::sources() const {
    return {
        {"Kaplan et al., Scaling Laws for Neural Language Models (6ND)",
         "https://arxiv.org/abs/2001.08361"},
        {"Chowdhery et al., PaLM (MFU, Appendix B)", "https://arxiv.org/abs/2204.02311"},
        {"Narayanan et al., Megatron-LM on GPU clusters (SC'21)",
         "https://arxiv.org/abs/2104.04473"},
        {"Grattafiori et al., The Llama 3 Herd of Models", "https://arxiv.org/abs/2407.21783"},
        {"Rajbhandari et al., ZeRO (SC'20)", "https://arxiv.org/abs/1910.02054"},
        {"Korthikanti et al., Reducing Activation Recomputation (Table 5)",
         "https://arxiv.org/abs/2205.05198"},
    };
}

std::vector<ParamSpec> ScaleFluencyScenario::parameters() const {
    std::vector<std::string> gpus = {"preset"};
    for (const std::string& id : HardwareCatalogue::builtin().ids())
        gpus.push_back(id);
    const char* keep = "0 keeps the preset's claim";
    return {
        ParamSpec::choice("claims", "Claims", presetIds(), "megatron-gpt3-175b",
                          "published runs and an impossible one"),
        ParamSpec::choice("gpu", "GPU", gpus, "preset", "peak and HBM from the catalogue"),
        ParamSpec::integer("gpus", "GPUs", "", 0, 100000, 0, false, keep),
        ParamSpec::real("params-b", "Model size", "B params", 0, 10000, 0, false, keep),
        ParamSpec::real("tokens-b", "Tokens", "B", 0, 100000, 0, false, keep),
        ParamSpec::real("days", "Wall-clock", "days", 0, 1000, 0, false, keep),
        ParamSpec::real("mfu-pct", "Claimed MFU", "%", 0, 100, 0, false, keep),
        ParamSpec::real("checkpoint-gb", "Checkpoint size", "GB", 0, 100000, 0, false, keep),
        ParamSpec::real("checkpoint-s", "Checkpoint write time", "s", 0, 100000, 0, false, keep),
        ParamSpec::integer("failures", "Failures seen", "", -1, 100000, -1, false,
                           "-1 keeps the preset's claim"),
    };
}

Story ScaleFluencyScenario::build(const Params& p, const ScenarioInputs&) const {
    const std::string presetId = p.text("claims");
    const Preset& preset = *std::find_if(presets().begin(), presets().end(),
                                         [&](const Preset& x) { return presetId == x.id; });
    auto c = std::make_shared<Checked>();
    c->presetId = presetId;
    c->presetSource = preset.source;
    c->mfuNote = preset.mfuNote;
    c->tokenNote = preset.tokenNote;
    Claims& k = c->claims;
    k = preset.claims;
    bool edited = false;
    auto keepOr = [&](const char* name, double scale, auto apply) {
        const double v = p.number(name);
        if (v > 0) {
            apply(v * scale);
            edited = true;
        }
    };
    keepOr("gpus", 1.0, [&](double v) { k.gpus = static_cast<int>(v); });
    keepOr("params-b", 1e9, [&](double v) { k.params = v; });
    keepOr("tokens-b", 1e9, [&](double v) { k.tokens = v; });
    keepOr("days", 1.0, [&](double v) { k.days = v; });
    keepOr("mfu-pct", 0.01, [&](double v) { k.mfu = v; });
    keepOr("checkpoint-gb", 1e9, [&](double v) { k.checkpointBytes = v; });
    keepOr("checkpoint-s", 1.0, [&](double v) { k.checkpointSeconds = v; });
    if (p.integer("failures") >= 0) {
        k.failures = static_cast<double>(p.integer("failures"));
        edited = true;
    }
    const std::string gpuId = p.text("gpu") == "preset" ? preset.gpu : p.text("gpu");
    const GpuSpec& spec = *HardwareCatalogue::builtin().find(gpuId);
    if (gpuId != preset.gpu)
        edited = true;
    if (edited) {
        c->presetSource = fill("edited from %1", {preset.source});
        c->mfuNote = fill("edited from %1", {c->mfuNote});
        c->tokenNote = fill("edited from %1", {c->tokenNote});
    }
    c->gpu.name = spec.name;
    c->gpu.peakFlops = peakTflops(spec, Precision::BF16).value_or(0.0) * 1e12;
    c->gpu.hbmBytes = spec.value("memory_gb") * 1e9;
    c->verdict = checkClaims(k, c->gpu);

    Story story;
    story.provenance = fill("modeled on CPU: claims '%1'%2 checked against 6ND, %3 peak and HBM, "
                            "Llama 3's rates",
                            {presetId, edited ? " (edited)" : "", spec.name});
    const std::string n = std::to_string(c->verdict.issues.size());
    story.steps.push_back({"The claims sheet",
                           "Seven numbers from a paper or a resume, and the references they are "
                           "checked against: the GPU's peak and memory from the catalogue, "
                           "published MFUs, ZeRO's bytes per parameter, Llama 3's failure rate "
                           "and storage bandwidth.",
                           5.0, [c](double) { return claimsSheet(*c); }});
    story.steps.push_back({"Compute: 6·N·D against GPUs × peak × days",
                           "The FLOPs a run needs are fixed by its size and tokens; the GPUs and "
                           "the days give the FLOPs available. Their ratio is the MFU the claims "
                           "imply, whatever MFU is claimed.",
                           6.0, [c](double t) { return computeCheck(*c, t); }});
    story.steps.push_back({"Memory: 16 bytes per parameter",
                           "Even fully sharded over every GPU (ZeRO-3), the weights, gradients "
                           "and Adam state must fit in HBM before any activation.",
                           5.0, [c](double t) { return memoryCheck(*c, t); }});
    story.steps.push_back({"Checkpoint: size and write speed",
                           "A checkpoint that resumes training holds the weights and the "
                           "optimizer state; its size over its write time is a bandwidth the "
                           "storage must deliver.",
                           5.0, [c](double t) { return checkpointCheck(*c, t); }});
    story.steps.push_back({"Failures: what the cluster should have seen",
                           "At Llama 3's rate of unexpected interruptions, GPUs × days predicts "
                           "how many the run met; far fewer is improbable, far more says the "
                           "cluster was unhealthy.",
                           6.0, [c](double t) { return failureCheck(*c, t); }});
    story.steps.push_back({c->verdict.consistent ? "Verdict: the claims agree"
                                                 : fill("Verdict: %1 inconsistencies", {n}),
                           "Every finding with the numbers behind it, and the questions that "
                           "would come next in an interview.",
                           5.0, [c](double) { return verdict(*c); }});
    return story;
}

} // namespace wb
