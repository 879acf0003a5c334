#include "planning/scale_fluency_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/number_format.h"
#include "engine/prefixed.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"
#include "planning/claims_check.h"
#include "reliability/llama3_interruptions.h"
#include "roofline/roofline_model.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

// Published claims, each number with where it comes from (FACTS.md), and one invented resume
// line whose inflated claims the checks catch.
struct Preset {
    const char* id;
    const char* gpu;
    Claims claims;
    const char* source;    // short, for every claim
    const char* mfuNote;   // how the MFU was obtained
    const char* tokenNote; // how the tokens were obtained
    const char* daysNote;  // how the wall-clock was obtained
    // The claims are the run Llama 3's interruption rate comes from: checking its failures
    // against that rate would compare the run with itself.
    bool failureRateSource = false;
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

// Llama 3 405B as published: 405B parameters on 15.6T tokens, 3.8 × 10²⁵ FLOPs (§1), 16K H100s
// (§3.3.1) at 41 % MFU (Table 4). The paper gives no total wall-clock; the Llama 3.1 model
// card gives 30.84M H100-hours for the 405B model, spread here over 16,384 GPUs (assumed at 16K
// throughout, though the run started on fewer).
constexpr double kLlamaGpuHours = 30.84e6;
constexpr int kLlamaGpus = 16384;

Claims llamaClaims() {
    Claims c = claimsOf(kLlamaGpus, 405e9, 15.6e12, kLlamaGpuHours / kLlamaGpus / 24.0, 0.41,
                        std::nullopt, std::nullopt, std::nullopt);
    c.statedFlops = 3.8e25;
    return c;
}

const std::vector<Preset>& presets() {
    static const std::vector<Preset> list = {
        {"resume-70b", "h100-sxm", claimsOf(2048, 70e9, 2e12, 12, 0.55, 140e9, 10, 0),
         "an invented resume line (assumed)", "claimed on the resume", "claimed on the resume",
         "claimed on the resume", false},
        {"megatron-gpt3-175b", "a100-sxm-80gb",
         // 140 TFLOP/s per GPU counts the recompute pass (8TP/(nX)); MFU counts 6 of those 8.
         claimsOf(1024, 175e9, 300e9, 34, 140.0 * 6.0 / 8.0 / 312.0, std::nullopt, std::nullopt,
                  std::nullopt),
         "Narayanan et al. SC'21, end-to-end training time",
         "derived: 140 · 6/8 ÷ 312; Narayanan et al. SC'21's 140 TFLOP/s counts recompute "
         "(8TP/(nX)), 312: A100 datasheet",
         "300B tokens, Narayanan et al. SC'21",
         "the paper's own estimate 8TP/(nX) at 140 TFLOP/s, not a measured run", false},
        {"llama3-405b", "h100-sxm", llamaClaims(),
         "Llama 3 paper §1 (N, D, FLOPs) and §3.3.1 (16K H100s)",
         "Llama 3 paper Table 4: 41 % at 16,384 GPUs", "15.6T tokens, Llama 3 paper §1",
         "derived: Llama 3.1 model card, 30.84M H100-hours ÷ 16,384 GPUs (assumed 16K "
         "throughout)",
         true},
        {"impossible", "h100-sxm", claimsOf(64, 70e9, 2e12, 7, 0.6, 100e9, 2, 0),
         "an invented resume line (assumed)", "claimed", "claimed", "claimed", false},
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

const char* topicName(Topic t) {
    static const char* const names[4] = {"compute", "memory", "checkpoint", "failures"};
    return names[static_cast<int>(t)];
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
    std::string presetId, presetSource, mfuNote, tokenNote, daysNote;
    bool failureRateSource = false;
    Claims claims;
    ClaimsGpu gpu;
    ClaimsVerdict verdict;
    StateBytesPerParam bytes; // mixed-precision Adam: 2 + 2 + 12 per parameter

    int issuesIn(Topic t) const {
        return static_cast<int>(
            std::count_if(verdict.issues.begin(), verdict.issues.end(),
                          [&](const std::string& i) { return topicOf(i) == t; }));
    }
};

void addFindings(FactsFrame& f, const Checked& c, Topic topic) {
    const std::string name = topicName(topic);
    for (const std::string& issue : c.verdict.issues)
        if (topicOf(issue) == topic)
            addParagraph(f.rows, issue, name, true, "issue");
    for (const std::string& probe : c.verdict.probes)
        if (topicOf(probe) == topic)
            addParagraph(f.rows, probe, name, false, "probe");
    if (c.issuesIn(topic) == 0)
        f.rows.push_back({"verdict", "consistent", fill("no %1 check failed", {name})});
}

std::string rateText() {
    return fill("%1 per 1000 GPU-days",
                {formatSignificant(llama3InterruptionsPerGpuDay() * 1000, 3)});
}

std::string llamaRecordSource() {
    const Llama3Record& r = llama3Record();
    return fill("Llama 3 paper §3.3.4: %1 unexpected in %2 days on %3 GPUs",
                {std::to_string(r.unexpected), std::to_string(r.days), std::to_string(r.gpus)});
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
        {"wall-clock", fill("%1 days", {formatSignificant(k.days, 3)}), c.daysNote},
        {"MFU", k.mfu ? formatShare(*k.mfu) : std::string("not claimed"), c.mfuNote},
    };
    if (k.statedFlops)
        f.rows.push_back(
            {"training FLOPs", fill("%1 FLOP", {formatTimesTenTo(*k.statedFlops)}), src});
    f.rows.push_back({"checkpoint", checkpoint, src});
    f.rows.push_back({"failures seen",
                      k.failures ? formatSignificant(*k.failures, 4)
                                 : std::string(c.failureRateSource ? "the reference rate itself"
                                                                   : "not claimed"),
                      c.failureRateSource ? llamaRecordSource() : src});
    FactsFrame w;
    w.title = "What they are checked with";
    w.rows = {
        {"peak per GPU", formatSi(c.gpu.peakFlops, "FLOP/s"),
         fill("%1 dense BF16, vendor datasheet", {c.gpu.name})},
        {"HBM per GPU", formatBytes(c.gpu.hbmBytes), "vendor datasheet"},
        {"training FLOPs", "6·N·D", "Kaplan et al. 2020 §2.1"},
        {"best published MFU", formatShare(kBestPublishedMfu),
         "Korthikanti et al. 2022, Table 5, 1T model"},
        {"model states", fill("%1 bytes × N", {formatSignificant(c.bytes.total())}),
         "Rajbhandari et al., ZeRO (SC'20) §3.1"},
        {"interruptions", rateText(), llamaRecordSource()},
        {"storage",
         fill("%1 sustained, %2 peak", {formatSi(kStorageSustainedBytesPerS, "B/s"),
                                        formatSi(kStoragePeakBytesPerS, "B/s")}),
         "Llama 3 paper §3.3.1 (Tectonic storage)"},
    };
    return Frames{{f, w}};
}

Frames computeCheck(const Checked& c, double t) {
    const ClaimsVerdict& v = c.verdict;
    BarChartFrame b;
    b.title = "MFU: what the days imply against what is claimed";
    b.caption = fill("6·N·D = %1 FLOP ÷ (%2 GPUs × %3 × %4 days)",
                     {formatTimesTenTo(v.trainingFlops), std::to_string(c.claims.gpus),
                      formatSi(c.gpu.peakFlops, "FLOP/s"), formatSignificant(c.claims.days, 3)});
    b.series = {"implied by the claims", "claimed", "published reference"};
    b.unit = BarValueUnit::Percent;
    b.axisTitle = "fraction of dense BF16 peak";
    b.horizontal = true;
    b.references = {{.value = 1.0, .label = fill("%1 of peak", {formatShare(1.0)})}};
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
        {.label = c.claims.mfu ? std::string("claimed") : std::string("claimed: none"),
         .value = c.claims.mfu.value_or(0.0),
         .series = 1,
         .tip = c.claims.mfu ? fill("claimed %1", {formatShare(*c.claims.mfu)})
                             : std::string("no MFU claimed")},
        {.label = "best published (1T, A100)",
         .value = kBestPublishedMfu,
         .series = 2,
         .tip = fill("Korthikanti et al. Table 5: %1", {formatShare(kBestPublishedMfu)})},
        {.label = "Llama 3 at 16K GPUs",
         .value = 0.41,
         .series = 2,
         .tip = fill("Llama 3 paper Table 4: %1–%2",
                     {formatShare(kLlama3MfuLow), formatShare(kLlama3MfuHigh)})},
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
        {"6·N·D", fill("%1 FLOP", {formatTimesTenTo(v.trainingFlops)}), "Kaplan et al. 2020 §2.1"},
    };
    if (c.claims.statedFlops)
        f.rows.push_back({"stated ÷ 6·N·D", formatShare(v.statedFlopsRatio),
                          fill("stated %1 FLOP", {formatTimesTenTo(*c.claims.statedFlops)})});
    f.rows.push_back({"GPU-days", formatSignificant(v.gpuDays, 3), "GPUs × wall-clock days"});
    f.rows.push_back({"tokens/s per GPU", formatSignificant(v.tokensPerGpuSecond, 3),
                      "D ÷ (GPUs × wall-clock seconds)"});
    f.rows.push_back({.label = "implied MFU",
                      .value = formatShare(v.impliedMfu),
                      .source = "MFU as in PaLM (Chowdhery et al.) §4.1",
                      .emphasis = true});
    if (c.claims.mfu) {
        f.rows.push_back({"days at the claimed MFU", formatSignificant(v.daysAtClaimedMfu, 3),
                          "6ND ÷ (GPUs × peak × MFU)"});
        f.rows.push_back({"tokens/s per GPU at the claimed MFU",
                          formatSignificant(v.tokensPerGpuSecondAtMfu, 3), "peak × MFU ÷ 6N"});
    }
    addFindings(f, c, Topic::Compute);
    return Frames{{b, f}};
}

Frames memoryCheck(const Checked& c, double t) {
    const int gpus = c.claims.gpus;
    const ModelStates z3 = modelStatesPerGpu(c.claims.params, 3, gpus, c.bytes);
    const ModelStates z1 = modelStatesPerGpu(c.claims.params, 1, gpus, c.bytes);
    const auto segments = [](const ModelStates& s, bool visible) {
        return std::vector<BarSegment>{
            {.value = visible ? s.weights : 0.0,
             .series = 0,
             .tip = fill("weights %1", {formatBytes(s.weights)})},
            {.value = visible ? s.gradients : 0.0,
             .series = 1,
             .tip = fill("gradients %1", {formatBytes(s.gradients)})},
            {.value = visible ? s.optimizer : 0.0,
             .series = 2,
             .tip = fill("optimizer state %1", {formatBytes(s.optimizer)})}};
    };
    // HBM as a bar of its own, not a reference line: beside a ZeRO-1 bar many times its
    // length, a line's label has no clear spot and lands on a bar.
    BarChartFrame b;
    b.title = fill("Model states per GPU: %1 bytes × N, sharded or not",
                   {formatSignificant(c.bytes.total())});
    b.caption = fill("ZeRO-1 keeps the weights and gradients whole: %1; ZeRO-3 over %2 GPUs: %3",
                     {formatBytes(z1.total()), std::to_string(gpus), formatBytes(z3.total())});
    b.series = {"weights", "gradients", "optimizer state", "HBM"};
    b.unit = BarValueUnit::Bytes;
    b.axisTitle = "bytes per GPU";
    b.horizontal = true;
    b.categories = {
        {.label = fill("ZeRO-1 over %1 GPUs", {std::to_string(gpus)}),
         .segments = segments(z1, t >= 0.5),
         .tip = "ZeRO (SC'20) §5"},
        {.label = fill("ZeRO-3 over %1 GPUs", {std::to_string(gpus)}),
         .segments = segments(z3, true),
         .tip = "ZeRO (SC'20) §5"},
        {.label = "HBM per GPU",
         .segments = {{.value = c.gpu.hbmBytes,
                       .series = 3,
                       .tip = fill("%1, vendor datasheet", {c.gpu.name})}},
         .tip = c.gpu.name},
    };
    b.axisMax = std::max({z1.total(), z3.total(), c.gpu.hbmBytes});
    b.emphasis = 1;
    // The answer can be a thousandth of the axis: an inset draws it at its own scale, with
    // HBM beside it when HBM is within reach of that scale.
    BarChartFrame zoom;
    zoom.title = fill("Zoomed in: ZeRO-3, %1 per GPU", {formatBytes(z3.total())});
    zoom.caption = fill("%1 of the %2 of HBM",
                        {formatShare(z3.total() / c.gpu.hbmBytes), formatBytes(c.gpu.hbmBytes)});
    zoom.series = {"weights", "gradients", "optimizer state"};
    zoom.unit = BarValueUnit::Bytes;
    zoom.axisTitle = "bytes per GPU, own scale";
    zoom.horizontal = true;
    zoom.categories = {
        {.label = "ZeRO-3", .segments = segments(z3, true), .tip = "ZeRO (SC'20) §5"}};
    if (c.gpu.hbmBytes <= 3.0 * z3.total()) {
        zoom.series.push_back("HBM");
        zoom.categories.push_back(b.categories.back());
    }
    zoom.emphasis = 0;
    FactsFrame f;
    f.title = "Memory";
    f.rows = {
        {.label = "model states per GPU, ZeRO-3",
         .value = formatBytes(z3.total()),
         .source = fill("%1 bytes × N ÷ GPUs (ZeRO §5.3)", {formatSignificant(c.bytes.total())}),
         .emphasis = true},
        {"model states per GPU, ZeRO-1", formatBytes(z1.total()),
         "weights and gradients whole, optimizer state sharded (ZeRO §5.1)"},
        {"HBM", formatBytes(c.gpu.hbmBytes), fill("%1, vendor datasheet", {c.gpu.name})}};
    addFindings(f, c, Topic::Memory);
    return Frames{{b, zoom, f}};
}

Frames checkpointCheck(const Checked& c, double t) {
    const ClaimsVerdict& v = c.verdict;
    BarChartFrame b;
    b.title = "Checkpoint: what it must hold";
    b.series = {"claimed", fill("weights (%1 bytes × N)", {formatSignificant(c.bytes.weights)}),
                fill("optimizer state (%1 bytes × N)", {formatSignificant(c.bytes.optimizer)})};
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
    const std::string weightsTip = fill("%1 bytes × N", {formatSignificant(c.bytes.weights)});
    b.categories = {
        {.label = c.claims.checkpointBytes ? std::string("claimed") : std::string("claimed: none"),
         .segments = {{.value = claimed,
                       .series = 0,
                       .tip = fill("claimed %1", {formatBytes(claimed)})}},
         .tip = ""},
        {.label = "weights only",
         .segments = {{.value = second ? v.weightBytes : 0.0, .series = 1, .tip = weightsTip}},
         .tip = ""},
        {.label = "weights + Adam state",
         .segments = {{.value = second ? v.weightBytes : 0.0, .series = 1, .tip = weightsTip},
                      {.value = second ? v.resumableStateBytes - v.weightBytes : 0.0,
                       .series = 2,
                       .tip = fill("fp32 master weights, momentum, variance: %1 bytes × N",
                                   {formatSignificant(c.bytes.optimizer)})}},
         .tip = ""},
    };
    b.axisMax = std::max(claimed, v.resumableStateBytes);
    b.emphasis = 0;
    FactsFrame f;
    f.title = "Checkpoint";
    f.rows = {{"weights + Adam state", formatBytes(v.resumableStateBytes),
               fill("%1 bytes × N: weights %2 + Adam state %3 (ZeRO §3.1)",
                    {formatSignificant(c.bytes.weights + c.bytes.optimizer),
                     formatSignificant(c.bytes.weights), formatSignificant(c.bytes.optimizer)})}};
    if (v.checkpointBandwidth > 0)
        f.rows.push_back({.label = "write bandwidth",
                          .value = formatSi(v.checkpointBandwidth, "B/s"),
                          .source = fill("Llama 3 paper §3.3.1 storage: %1 sustained, %2 peak",
                                         {formatSi(kStorageSustainedBytesPerS, "B/s"),
                                          formatSi(kStoragePeakBytesPerS, "B/s")}),
                          .emphasis = true});
    addFindings(f, c, Topic::Checkpoint);
    return Frames{{b, f}};
}

Frames failureCheck(const Checked& c, double t) {
    const ClaimsVerdict& v = c.verdict;
    BarChartFrame b;
    b.title =
        fill("Failures: what %1 GPU-days should have seen", {formatSignificant(v.gpuDays, 3)});
    b.caption =
        fill("Llama 3's rate, %1, × %2 GPUs × %3 days",
             {rateText(), std::to_string(c.claims.gpus), formatSignificant(c.claims.days, 3)});
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
        {.label = c.claims.failures ? std::string("claimed") : std::string("claimed: none"),
         .segments = {{.value = c.claims.failures.value_or(0.0),
                       .series = 1,
                       .tip = c.claims.failures ? "claimed" : "not claimed"}},
         .tip = ""},
    };
    b.axisMax = std::max(v.expectedFailures, c.claims.failures.value_or(0.0));
    b.emphasis = 0;
    FactsFrame f;
    f.title = "Failures";
    f.rows = {{.label = "expected",
               .value = formatSignificant(v.expectedFailures, 3),
               .source = "derived: rate × GPUs × days; rate from Llama 3 paper §3.3.4",
               .emphasis = true},
              {"claimed",
               c.claims.failures
                   ? formatSignificant(*c.claims.failures, 4)
                   : std::string(c.failureRateSource ? "the reference rate itself" : "not claimed"),
               c.failureRateSource ? llamaRecordSource() : c.presetSource}};
    if (v.expectedFailures > 0)
        f.rows.push_back({"hours between failures",
                          formatSignificant(c.claims.days * 24.0 / v.expectedFailures, 3),
                          "wall-clock hours ÷ expected interruptions"});
    addFindings(f, c, Topic::Failures);
    return Frames{{b, f}};
}

Frames verdict(const Checked& c) {
    const ClaimsVerdict& v = c.verdict;
    FactsFrame f;
    f.title = v.consistent
                  ? "Verdict: consistent"
                  : fill("Verdict: %1", {formatCount(static_cast<long long>(v.issues.size()),
                                                     "inconsistency", "inconsistencies")});
    for (const std::string& issue : v.issues)
        addParagraph(f.rows, issue, topicName(topicOf(issue)), true, "issue");
    // When every check passes, each with the number it rests on. Otherwise the issues alone:
    // each states its numbers, the chart beside them shows the checks that passed, and more
    // rows would fall off a presenter's slide.
    const auto agreed = [&](std::string label, std::string value, std::string source) {
        f.rows.push_back({std::move(label), std::move(value), prefixed("agrees · ", source)});
    };
    if (v.consistent) {
        agreed("compute: implied MFU", formatShare(v.impliedMfu),
               fill("6ND ÷ (GPUs × peak × days); best published %1 (Korthikanti et al. Table 5)",
                    {formatShare(kBestPublishedMfu)}));
        agreed("memory: model states per GPU", formatBytes(v.modelStateBytesPerGpu),
               fill("%1 bytes × N over %2 GPUs (ZeRO §3.1) against %3 of HBM",
                    {formatSignificant(c.bytes.total()), std::to_string(c.claims.gpus),
                     formatBytes(c.gpu.hbmBytes)}));
        agreed("checkpoint: write bandwidth",
               v.checkpointBandwidth > 0 ? formatSi(v.checkpointBandwidth, "B/s")
                                         : std::string("not claimed"),
               fill("bytes ÷ seconds claimed; Llama 3's storage sustains %1 (Llama 3 paper §3.3.1)",
                    {formatSi(kStorageSustainedBytesPerS, "B/s")}));
        agreed("failures: expected at Llama 3's rate", formatSignificant(v.expectedFailures, 3),
               fill("%1, × GPUs × days", {llamaRecordSource()}));
    }
    // The checks as one picture: each claim as a share of the limit it is checked against.
    BarChartFrame b;
    b.title = "Each claim against its limit";
    b.unit = BarValueUnit::Percent;
    b.horizontal = true;
    b.series = {"share of the limit"};
    b.axisTitle = fill("claim ÷ limit (past %1: implausible or impossible)", {formatShare(1.0)});
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
            fill("%1 ÷ %2 (Llama 3 paper §3.3.1)",
                 {formatSi(v.checkpointBandwidth, "B/s"), formatSi(kStoragePeakBytesPerS, "B/s")}));
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
        addParagraph(probes.rows, p, topicName(topicOf(p)), false, "probe");
    // The question that is always worth asking, when the claims raised fewer of their own.
    if (v.probes.size() < 2)
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
- **Throughput:** GPU-days and tokens per second per GPU put the claim in units a team tracks; Llama 3 405B's 15.6T tokens over the model card's 30.84M H100-hours is about 140 tokens/s per GPU.
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
        {"Meta, Llama 3.1 model card (training GPU-hours)",
         "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md"},
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
        ParamSpec::choice("claims", "Claims", presetIds(), "resume-70b",
                          "an invented resume line, published runs and an impossible one"),
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
    c->daysNote = preset.daysNote;
    c->bytes = stateBytesPerParam(Optimizer::Adam, TrainingPrecision::Bf16Mixed);
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
    // A stated FLOP count belongs to the published N and D: edit either and it no longer
    // describes this run.
    if (p.number("params-b") > 0 || p.number("tokens-b") > 0)
        k.statedFlops.reset();
    const std::string gpuId = p.text("gpu") == "preset" ? preset.gpu : p.text("gpu");
    const GpuSpec& spec = *HardwareCatalogue::builtin().find(gpuId);
    // A GPU picked in the panel is the user's choice, not the claim's, even when it is the
    // one the claims name.
    if (p.text("gpu") != "preset")
        edited = true;
    // Edited claims are no longer the reference run: their failures are checked.
    c->failureRateSource = preset.failureRateSource && !edited;
    if (edited) {
        c->presetSource = fill("edited from %1", {preset.source});
        c->mfuNote = fill("edited from %1", {c->mfuNote});
        c->tokenNote = fill("edited from %1", {c->tokenNote});
        c->daysNote = fill("edited from %1", {c->daysNote});
    }
    c->gpu.name = spec.name;
    c->gpu.peakFlops = peakTflops(spec, Precision::BF16).value_or(0.0) * 1e12;
    c->gpu.hbmBytes = spec.value("memory_gb") * 1e9;
    c->verdict = checkClaims(k, c->gpu);
    const ClaimsVerdict& v = c->verdict;
    const ModelStates z1 = modelStatesPerGpu(k.params, 1, k.gpus, c->bytes);
    const Llama3Record& llama = llama3Record();

    Story story;
    story.provenance = fill("modeled on CPU: claims '%1'%2 checked against 6ND, %3 peak and HBM, "
                            "Llama 3's rates",
                            {presetId, edited ? " (edited)" : "", spec.name});
    // Every number a slide quotes: the claims, what the checks computed, and the published
    // references they are checked against.
    story.results = {
        {"GPUs", k.gpus},
        {"parameters", k.params},
        {"tokens", k.tokens},
        {"days", k.days},
        {"claimed MFU", k.mfu.value_or(0.0)},
        {"stated FLOPs", k.statedFlops.value_or(0.0)},
        {"stated FLOPs, mantissa", timesTenToMantissa(k.statedFlops.value_or(0.0))},
        {"checkpoint bytes", k.checkpointBytes.value_or(0.0)},
        {"checkpoint seconds", k.checkpointSeconds.value_or(0.0)},
        {"failures claimed", k.failures.value_or(0.0)},
        {"peak FLOP/s", c->gpu.peakFlops},
        {"HBM bytes", c->gpu.hbmBytes},
        {"6ND", v.trainingFlops},
        {"6ND, mantissa", timesTenToMantissa(v.trainingFlops)},
        {"the 10 of × 10ⁿ", 10},
        {"the 6 of 6ND", 6},
        {"stated ÷ 6ND", v.statedFlopsRatio},
        {"implied MFU", v.impliedMfu},
        {"days at 100 % of peak", v.trainingFlops / (k.gpus * c->gpu.peakFlops * 86400.0)},
        {"100 % of peak", 1.0},
        {"days at the claimed MFU", v.daysAtClaimedMfu},
        {"share of the time trained", k.mfu ? v.impliedMfu / *k.mfu : 0.0},
        {"GPU-days", v.gpuDays},
        {"tokens/s per GPU", v.tokensPerGpuSecond},
        {"tokens/s per GPU at the claimed MFU", v.tokensPerGpuSecondAtMfu},
        {"bytes per parameter", c->bytes.total()},
        {"weight bytes per parameter", c->bytes.weights},
        {"optimizer bytes per parameter", c->bytes.optimizer},
        {"resumable bytes per parameter", c->bytes.weights + c->bytes.optimizer},
        {"model states per GPU, ZeRO-3", v.modelStateBytesPerGpu},
        {"model states per GPU, ZeRO-1", z1.total()},
        {"ZeRO stages", 1},
        {"ZeRO stage 3, and the 3 of Llama 3", 3},
        {"share of HBM", v.modelStateBytesPerGpu / c->gpu.hbmBytes},
        {"weights", v.weightBytes},
        {"resumable state", v.resumableStateBytes},
        {"checkpoint bandwidth", v.checkpointBandwidth},
        {"checkpoint write ÷ storage peak", v.checkpointBandwidth / kStoragePeakBytesPerS},
        {"implied ÷ best published", v.impliedMfu / kBestPublishedMfu},
        {"expected failures", v.expectedFailures},
        {"hours between failures",
         v.expectedFailures > 0 ? k.days * 24.0 / v.expectedFailures : 0.0},
        {"hours between failures at Llama 3's rate",
         24.0 / (llama3InterruptionsPerGpuDay() * k.gpus)},
        {"interruptions per 1000 GPU-days", llama3InterruptionsPerGpuDay() * 1000},
        {"the 1000 of per 1000 GPU-days", 1000},
        {"best published MFU", kBestPublishedMfu},
        {"Llama 3 MFU at 16K GPUs", 0.41},
        {"Llama 3 MFU low, %", kLlama3MfuLow * 100},
        {"Llama 3 MFU high", kLlama3MfuHigh},
        {"effective training time", kEffectiveTrainingTime},
        {"storage sustained", kStorageSustainedBytesPerS},
        {"storage peak", kStoragePeakBytesPerS},
        {"Llama 3 unexpected interruptions", llama.unexpected},
        {"Llama 3 snapshot days", llama.days},
        {"Llama 3 GPUs", llama.gpus},
        {"inconsistencies", v.issues.size()},
        {"chance of so few failures", v.fewFailuresChance},
    };
    const std::string implied = formatShare(v.impliedMfu);
    const std::string mfuTitle = k.mfu ? fill("Compute: the days imply %1 MFU, the claim says %2",
                                              {implied, formatShare(*k.mfu)})
                                       : fill("Compute: the days imply %1 MFU", {implied});
    story.steps.push_back({fill("The claims sheet: %1", {presetId}),
                           "Numbers from a paper or a resume, and the references they are "
                           "checked against: the GPU's peak and memory from its datasheet, "
                           "published MFUs, ZeRO's bytes per parameter, Llama 3's failure rate "
                           "and storage bandwidth.",
                           5.0, [c](double) { return claimsSheet(*c); }});
    const std::string compareMfu =
        !k.mfu ? std::string("No MFU is claimed, so only the ceiling applies.")
        : v.impliedMfu > *k.mfu * 1.1
            ? fill("The claimed %1 is lower than the days imply: the run would take %2 days, "
                   "not %3.",
                   {formatShare(*k.mfu), formatSignificant(v.daysAtClaimedMfu),
                    formatSignificant(k.days)})
        : v.impliedMfu < *k.mfu * kEffectiveTrainingTime * 0.85
            ? fill("The claimed %1 would finish in %2 days, not %3: either only %4 of the time "
                   "trained or the MFU is inflated.",
                   {formatShare(*k.mfu), formatSignificant(v.daysAtClaimedMfu),
                    formatSignificant(k.days), formatShare(v.impliedMfu / *k.mfu)})
            : fill("The claimed %1 and the days agree: %2 of the time at that rate.",
                   {formatShare(*k.mfu), formatShare(v.impliedMfu / *k.mfu)});
    story.steps.push_back(
        {mfuTitle,
         fill("Size and tokens fix the FLOPs; GPUs and days fix what was available: %1 "
              "GPU-days, %2 tokens/s per GPU. %3",
              {formatSignificant(v.gpuDays, 3), formatSignificant(v.tokensPerGpuSecond, 3),
               compareMfu}),
         6.0, [c](double t) { return computeCheck(*c, t); }});
    story.steps.push_back(
        {fill("Memory: %1 of model states per GPU against %2 of HBM",
              {formatBytes(v.modelStateBytesPerGpu), formatBytes(c->gpu.hbmBytes)}),
         fill("Even fully sharded over every GPU (ZeRO-3), weights, gradients and Adam state "
              "must fit in HBM before any activation; kept whole (ZeRO-1) they need %1, %2 "
              "HBM.",
              {formatBytes(z1.total()), z1.total() > c->gpu.hbmBytes ? "more than" : "within"}),
         5.0, [c](double t) { return memoryCheck(*c, t); }});
    story.steps.push_back(
        {k.checkpointBytes
             ? fill("Checkpoint: %1 claimed, %2 to resume",
                    {formatBytes(*k.checkpointBytes), formatBytes(v.resumableStateBytes)})
             : fill("Checkpoint: %1 to resume", {formatBytes(v.resumableStateBytes)}),
         "A checkpoint that resumes training holds the weights and the optimizer state; its "
         "size over its write time is a bandwidth the storage must deliver.",
         5.0, [c](double t) { return checkpointCheck(*c, t); }});
    const std::string failuresNarration =
        c->failureRateSource
            ? fill("These claims are the run Llama 3's rate comes from: its %1 interruptions in "
                   "the %2-day snapshot cannot check themselves. At that rate the whole run "
                   "expects about %3.",
                   {std::to_string(llama.unexpected), std::to_string(llama.days),
                    formatSignificant(v.expectedFailures, 3)})
        : !k.failures
            ? fill("At Llama 3's rate the run expects about %1; none were claimed.",
                   {formatSignificant(v.expectedFailures, 3)})
            : fill("At Llama 3's rate the run expects about %1 and %2 claimed: %3.",
                   {formatSignificant(v.expectedFailures, 3), formatSignificant(*k.failures, 4),
                    c->issuesIn(Topic::Failures) > 0 ? "too far apart to be chance"
                                                     : "close enough to be chance"});
    story.steps.push_back(
        {k.failures
             ? fill("Failures: %1 expected, %2 claimed",
                    {formatSignificant(v.expectedFailures, 3), formatSignificant(*k.failures, 4)})
             : fill("Failures: %1 expected", {formatSignificant(v.expectedFailures, 3)}),
         failuresNarration, 6.0, [c](double t) { return failureCheck(*c, t); }});
    story.steps.push_back(
        {v.consistent ? std::string("Verdict: the claims agree")
                      : fill("Verdict: %1", {formatCount(static_cast<long long>(v.issues.size()),
                                                         "inconsistency", "inconsistencies")}),
         v.consistent ? std::string("Every check passes; the questions that would come next in "
                                    "an interview are below.")
                      : "Every finding with the numbers behind it, and the questions that "
                        "would come next in an interview.",
         5.0, [c](double) { return verdict(*c); }});

    const std::string verdictWord = v.consistent ? "hold together" : "do not hold together";
    story.whiteboard.question = fill(
        "%1 GPUs, %2 parameters, %3 tokens, %4 days: do the claims hold together?",
        {std::to_string(k.gpus), count(k.params), count(k.tokens), formatSignificant(k.days, 3)});
    story.whiteboard.points = {
        {fill("6·N·D = %1 FLOP; over %2 GPU-days at %3 that is an implied MFU of %4 (best "
              "published %5).",
              {formatTimesTenTo(v.trainingFlops), formatSignificant(v.gpuDays, 3),
               formatSi(c->gpu.peakFlops, "FLOP/s"), implied, formatShare(kBestPublishedMfu)}),
         "Kaplan et al. 2020 §2.1; MFU: PaLM (Chowdhery et al.) §4.1; Korthikanti et al. "
         "Table 5"},
        {k.mfu ? fill("A claimed %1 predicts %2 days and %3 tokens/s per GPU; the claims say %4 "
                      "days, %5 tokens/s per GPU: %6.",
                      {formatShare(*k.mfu), formatSignificant(v.daysAtClaimedMfu, 3),
                       formatSignificant(v.tokensPerGpuSecondAtMfu, 3),
                       formatSignificant(k.days, 3), formatSignificant(v.tokensPerGpuSecond, 3),
                       c->issuesIn(Topic::Compute) > 0 ? "a compute claim fails"
                                                       : "the compute claims agree"})
               : fill("No MFU is claimed; the claims run at %1 tokens/s per GPU.",
                      {formatSignificant(v.tokensPerGpuSecond, 3)}),
         "PaLM (Chowdhery et al.) Appendix B"},
        {fill("Model states: %1 bytes × N, %2 per GPU fully sharded (ZeRO-3) against %3 of "
              "HBM.",
              {formatSignificant(c->bytes.total()), formatBytes(v.modelStateBytesPerGpu),
               formatBytes(c->gpu.hbmBytes)}),
         "Rajbhandari et al., ZeRO (SC'20) §3.1, §5"},
        {fill("A resumable checkpoint holds %1 (%2 bytes × N); storage sustains %3, peaks at %4.",
              {formatBytes(v.resumableStateBytes),
               formatSignificant(c->bytes.weights + c->bytes.optimizer),
               formatSi(kStorageSustainedBytesPerS, "B/s"),
               formatSi(kStoragePeakBytesPerS, "B/s")}),
         "Llama 3 paper §3.3.1"},
        {fill("At Llama 3's %1, the run expects %2 interruptions, one every %3 h%4.",
              {rateText(), formatSignificant(v.expectedFailures, 3),
               formatSignificant(24.0 / (llama3InterruptionsPerGpuDay() * k.gpus)),
               !k.failures ? std::string()
               : c->issuesIn(Topic::Failures) > 0
                   ? fill("; %1 claimed is not chance", {formatSignificant(*k.failures, 4)})
                   : fill("; %1 claimed fits", {formatSignificant(*k.failures, 4)})}),
         "Llama 3 paper §3.3.4"},
    };
    story.checks = {
        {fill("What MFU do %1 parameters, %2 tokens, %3 GPUs at %4 and %5 days imply, in %?",
              {count(k.params), count(k.tokens), std::to_string(k.gpus),
               formatSi(c->gpu.peakFlops, "FLOP/s"), formatSignificant(k.days, 3)}),
         v.impliedMfu * 100, "%", 0.05,
         fill("6 × N × D = %1 FLOP; ÷ (%2 × %3 × %4 days × 86,400 s) = %5.",
              {formatTimesTenTo(v.trainingFlops), std::to_string(k.gpus),
               formatSi(c->gpu.peakFlops, "FLOP/s"), formatSignificant(k.days, 3), implied})},
        {fill("How many tokens per second does each GPU process, if %1 tokens take %2 GPUs %3 "
              "days?",
              {count(k.tokens), std::to_string(k.gpus), formatSignificant(k.days, 3)}),
         v.tokensPerGpuSecond, "tokens/s", 0.05,
         fill("%1 ÷ (%2 GPU-days × 86,400 s) = %3 tokens/s per GPU.",
              {count(k.tokens), formatSignificant(v.gpuDays, 4),
               formatSignificant(v.tokensPerGpuSecond, 3)})},
        {fill("At Llama 3's %1, how many interruptions should %2 GPUs meet in %3 days?",
              {rateText(), std::to_string(k.gpus), formatSignificant(k.days, 3)}),
         v.expectedFailures, "interruptions", 0.05,
         fill("%1 ÷ 1000 × %2 GPU-days = %3.",
              {formatSignificant(llama3InterruptionsPerGpuDay() * 1000, 3),
               formatSignificant(v.gpuDays, 4), formatSignificant(v.expectedFailures, 3)})},
    };
    addWhiteboardStep(
        story,
        fill("The claims %1: %2.",
             {verdictWord, v.consistent ? std::string("every check passes")
                                        : formatCount(static_cast<long long>(v.issues.size()),
                                                      "check fails", "checks fail")}));
    return story;
}

} // namespace wb
