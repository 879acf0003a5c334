#include "roofline/roofline_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/chart_helpers.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "engine/sentence.h"
#include "engine/text_numbers.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/roofline_probes_recording.h"
#include "imported/ncu_kernels.h"
#include "roofline/roofline_model.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <memory>

namespace wb {

namespace {

constexpr double kXMin = 1.0 / 32.0; // FLOP/byte
constexpr double kXMax = 4096.0;
constexpr const char* kRooflineSource = "Williams, Waterman & Patterson, CACM 2009";

struct Setup {
    const GpuSpec* gpu;
    Precision precision;
    double peak;           // TFLOP/s of the chosen precision
    double bandwidth;      // TB/s
    DecodeWorkload decode; // the batch parameter, context and the assumed model shape
};

std::string cite(const GpuSpec& gpu, const std::string& field) {
    const auto& cat = HardwareCatalogue::builtin();
    const SpecSource* s = cat.source(gpu.field(field).sourceId);
    return s ? s->label : std::string{};
}

// Bandwidth on screen in decimal GB/s, as the datasheets print it.
std::string gbs(double tbs) {
    return fill("%1 GB/s", {formatNumber(tbs * 1000.0)});
}

std::string precisionShort(Precision p) {
    std::string n = precisionName(p);
    std::transform(n.begin(), n.end(), n.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return n;
}

std::string gpuCount(int n) {
    return formatCount(n, "GPU", "GPUs");
}

// "far left of the BF16 ridge (28× below 295.3 FLOP/B), so memory-bound": the side and the
// bound come from comparing the two values.
std::string sideOfRidge(double intensity, double ridge, const std::string& roof) {
    if (intensity < ridge) {
        const double r = ridge / intensity;
        return fill("%1 %2 ridge (%3× below %4 FLOP/B), so memory-bound",
                    {r >= 10.0 ? "far left of the" : "left of the", roof, formatSignificant(r, 3),
                     formatSignificant(ridge, 4)});
    }
    return fill("at or right of the %1 ridge (%2 FLOP/B), so compute-bound",
                {roof, formatSignificant(ridge, 4)});
}

// The workload of the decode steps at batch b in precision p: weights and KV cache are stored
// in the precision the roof is drawn for.
DecodeWorkload workloadAt(const Setup& s, Precision p, double batch) {
    return decodeWorkload(s.decode.shape, p, batch, s.decode.seqLen);
}

// A decode step on g: split over the fewest tensor-parallel GPUs it fits.
struct DecodeOn {
    DecodeFit fit;
    DecodeEstimate estimate;
};
DecodeOn decodeOn(const Setup& s, const GpuSpec& g, Precision p, double batch) {
    const DecodeWorkload w = workloadAt(s, p, batch);
    const DecodeFit fit = decodeFit(g, w);
    return {fit, decodeEstimate(g, p, w, fit.tensorParallel)};
}

// Whether the model and its KV cache fit one GPU, and what it takes when they do not.
std::string fitSentence(const Setup& s, const GpuSpec& g, Precision p, double batch) {
    const DecodeFit fit = decodeFit(g, workloadAt(s, p, batch));
    const double need = fit.weightBytes + fit.kvBytes;
    const std::string needs =
        fill("%1 in %2 needs %3 of weights + %4 of KV cache = %5",
             {s.decode.shape.name, precisionShort(p), formatBytes(fit.weightBytes),
              formatBytes(fit.kvBytes), formatBytes(need)});
    if (fit.fitsOneGpu())
        return fill("%1, within one %2 (%3).", {needs, g.name, formatBytes(fit.memoryBytes)});
    std::string fp8Text;
    if (p != Precision::FP8 && peakTflops(g, Precision::FP8)) {
        const DecodeFit fp8 = decodeFit(g, workloadAt(s, Precision::FP8, batch));
        fp8Text =
            fp8.fitsOneGpu()
                ? fill(" In FP8 (%1) it fits one GPU.",
                       {formatBytes(fp8.weightBytes + fp8.kvBytes)})
                : fill(" Even in FP8 (%1) it needs %2.",
                       {formatBytes(fp8.weightBytes + fp8.kvBytes), gpuCount(fp8.tensorParallel)});
    }
    return fill(
        "%1, more than one %2 holds (%3): modeled as tensor parallel over %4, all-reduce "
        "time not counted.%5",
        {needs, g.name, formatBytes(fit.memoryBytes), gpuCount(fit.tensorParallel), fp8Text});
}

// The roof of one precision: bandwidth × I up to the ridge, flat at the peak after it.
ChartSeries roofSeries(const std::string& name, double peak, double bw, int color,
                       ChartSeries::Style style, double xEnd = kXMax) {
    ChartSeries s;
    s.name = name;
    s.colorIndex = color;
    s.style = style;
    const double ridge = ridgeFlopPerByte(peak, bw);
    s.points.push_back({kXMin, attainableTflops(peak, bw, kXMin)});
    if (ridge < xEnd)
        s.points.push_back({ridge, peak});
    s.points.push_back({xEnd, attainableTflops(peak, bw, xEnd)});
    return s;
}

// The roof of one precision of the scenario's GPU (the GPU must support it).
ChartSeries precisionRoof(const Setup& s, Precision p, ChartSeries::Style style) {
    return roofSeries(precisionTitle(p), *peakTflops(*s.gpu, p), s.bandwidth, static_cast<int>(p),
                      style);
}

ChartFrame baseChart(const Setup& s, const std::string& title) {
    ChartFrame f;
    f.title = title;
    f.x = ChartAxis{
        .title = "arithmetic intensity (FLOP/B)", .log = true, .min = kXMin, .max = kXMax};
    f.y = ChartAxis{.title = "attainable (TFLOP/s)", .log = true, .min = 0.01, .max = 10000};
    f.footnote = fill("Dense peaks and HBM bandwidth from %1; model: %2.",
                      {cite(*s.gpu, "memory_bandwidth_gbs"), kRooflineSource});
    return f;
}

ChartMarker ridgeMarker(const Setup& s, double peak, Precision p, bool emphasis) {
    const double ridge = ridgeFlopPerByte(peak, s.bandwidth);
    return ChartMarker{
        .at = {ridge, peak},
        .label = fill("ridge %1 FLOP/B", {formatSignificant(ridge, 4)}),
        .tooltip = fill("%1: %2 TFLOP/s ÷ %3 (%4)", {precisionTitle(p), formatNumber(peak),
                                                     gbs(s.bandwidth), cite(*s.gpu, peakField(p))}),
        .colorIndex = static_cast<int>(p),
        .estimate = false,
        .emphasis = emphasis};
}

ChartMarker decodeMarker(const DecodeEstimate& d, const std::string& label,
                         const std::string& gpuName, int color) {
    return ChartMarker{
        .at = {d.intensity, d.point.attainableTflops},
        .label = label,
        .tooltip = fill("%1 FLOP/B → %2 on %3",
                        {formatSignificant(d.intensity, 4), formatSi(d.maxTokensPerS, "tok/s"),
                         d.gpus == 1 ? gpuName : fill("%1 × %2", {gpuCount(d.gpus), gpuName})}),
        .colorIndex = color,
        .estimate = false,
        .emphasis = true};
}

std::string shapeText(const DecoderShape& m) {
    return fill("%1: %2 layers, %3 query heads, %4 KV heads × %5 dims (GQA)",
                {m.name, std::to_string(m.layers), std::to_string(m.heads),
                 std::to_string(m.kvHeads), std::to_string(m.headDim)});
}

FactsFrame decodeFacts(const Setup& s, double batch) {
    const DecodeOn on = decodeOn(s, *s.gpu, s.precision, batch);
    const DecodeEstimate& d = on.estimate;
    const DecoderShape& m = s.decode.shape;
    const std::string bytes = fill("%1 B", {formatNumber(bytesPerElement(s.precision))});
    FactsFrame f;
    f.title = fill("Decode, %1, batch %2, %3-token context",
                   {m.name, formatNumber(batch), formatNumber(s.decode.seqLen)});
    f.rows.push_back({.label = "assumed model",
                      .value = shapeText(m),
                      .source = kDecoderShapeSource,
                      .emphasis = false});
    f.rows.push_back(
        {.label = "weights read per step",
         .value = formatBytes(d.weightBytes),
         .source = fill("%1B parameters × %2", {formatNumber(m.parameters / 1e9), bytes}),
         .emphasis = false});
    f.rows.push_back(
        {.label = "KV cache read per step",
         .value = formatBytes(d.kvBytes),
         .source = fill("batch × context × 2 (K, V) × layers × KV heads × head dim × %1", {bytes}),
         .emphasis = false});
    f.rows.push_back(
        {.label = "FLOPs per step",
         .value = formatSi(d.flops, "FLOP"),
         .source = "2 × parameters × batch + 4 × batch × context × layers × heads × head dim",
         .emphasis = false});
    f.rows.push_back({.label = "intensity = FLOPs ÷ bytes",
                      .value = fill("%1 FLOP/B", {formatSignificant(d.intensity, 4)}),
                      .source = kRooflineSource,
                      .emphasis = true});
    f.rows.push_back({.label = fill("%1 ridge", {precisionShort(s.precision)}),
                      .value = fill("%1 FLOP/B", {formatSignificant(d.point.ridge, 4)}),
                      .source = cite(*s.gpu, peakField(s.precision)),
                      .emphasis = false});
    f.rows.push_back({.label = "bound",
                      .value = d.point.memoryBound ? "memory" : "compute",
                      .source = kRooflineSource,
                      .emphasis = false});
    f.rows.push_back({.label = "GPUs (weights + KV cache ÷ HBM)",
                      .value = on.fit.fitsOneGpu() ? std::string("1, fits")
                                                   : fill("%1, tensor parallel",
                                                          {formatNumber(on.fit.tensorParallel)}),
                      .source = cite(*s.gpu, "memory_gb"),
                      .emphasis = false});
    f.rows.push_back({.label = "step time ≥",
                      .value = formatSi(d.stepTimeS, "s"),
                      .source = kRooflineSource,
                      .emphasis = false});
    f.rows.push_back({.label = "tokens/s, all sequences ≤",
                      .value = formatSi(d.maxTokensPerS, "tok/s"),
                      .source = kRooflineSource,
                      .emphasis = true});
    return f;
}

constexpr std::array<Precision, 4> kRidgePrecisions{Precision::FP32, Precision::TF32,
                                                    Precision::BF16, Precision::FP8};

std::string precisionRidgesNarration(const Setup& s) {
    std::vector<std::pair<Precision, double>> ridges;
    for (Precision q : kRidgePrecisions)
        if (const auto peak = peakTflops(*s.gpu, q))
            ridges.emplace_back(q, ridgeFlopPerByte(*peak, s.bandwidth));
    const auto [lo, hi] =
        std::minmax_element(ridges.begin(), ridges.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; });
    return fill("Tensor-core precisions raise the flat roof but not the slanted one. On %1 the "
                "ridge runs from %2 FLOP/B for %3 to %4 FLOP/B for %5: %6 needs %7× the FLOPs "
                "per byte to reach its peak.",
                {s.gpu->name, formatSignificant(lo->second, 4), precisionTitle(lo->first),
                 formatSignificant(hi->second, 4), precisionTitle(hi->first),
                 precisionShort(hi->first), formatSignificant(hi->second / lo->second, 3)});
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

std::string referenceNarration(const Setup& s) {
    std::vector<std::string> memory, compute;
    bool estimates = false;
    for (const auto& k : referenceKernels()) {
        const RooflinePoint pt =
            roofline(*peakTflops(*s.gpu, k.precision), s.bandwidth, k.intensity);
        (pt.memoryBound ? memory : compute).push_back(k.name);
        estimates |= k.estimate;
    }
    const std::string memoryText =
        memory.empty()
            ? std::string()
            : fill(memory.size() == 1 ? "%1 sits left of their precision's ridge, memory-bound. "
                                      : "%1 sit left of their precision's ridge, memory-bound. ",
                   {joined(memory)});
    const std::string computeText =
        compute.empty()
            ? std::string("None reaches the compute roof.")
            : fill(compute.size() == 1 ? "%1 %2 reuses data enough to reach the compute roof."
                                       : "%1 %2 reuse data enough to reach the compute roof.",
                   {memory.empty() ? "All of" : "Only", joined(compute)});
    return fill("%1%2%3",
                {memoryText, computeText, estimates ? " Hollow dots are estimates." : ""});
}

std::string batchOneNarration(const Setup& s) {
    const DecodeEstimate d = decodeOn(s, *s.gpu, s.precision, 1).estimate;
    return fill("One sequence's next token reads %1 of weights and %2 of KV cache (%3-token "
                "context) for %4: %5 FLOP/B, %6. %7",
                {formatBytes(d.weightBytes), formatBytes(d.kvBytes), formatNumber(s.decode.seqLen),
                 formatSi(d.flops, "FLOP"), formatSignificant(d.intensity, 3),
                 sideOfRidge(d.intensity, d.point.ridge, precisionShort(s.precision)),
                 fitSentence(s, *s.gpu, s.precision, 1)});
}

std::string batchingNarration(const Setup& s) {
    const double b = s.decode.batch;
    const DecodeEstimate d = decodeOn(s, *s.gpu, s.precision, b).estimate;
    const double limit = decodeIntensityLimit(workloadAt(s, s.precision, b));
    const std::string limitText =
        std::isfinite(limit)
            ? fill(limit < d.point.ridge
                       ? " With a %1-token context no batch gets past %2 FLOP/B, still left of "
                         "the ridge."
                       : " With a %1-token context no batch gets past %2 FLOP/B, past the ridge.",
                   {formatNumber(s.decode.seqLen), formatSignificant(limit, 3)})
            : std::string();
    return fill("Each extra sequence reuses the same weights but brings its own KV cache: batch "
                "%1 reaches %2 FLOP/B, %3.%4 %5",
                {formatNumber(b), formatSignificant(d.intensity, 3),
                 sideOfRidge(d.intensity, d.point.ridge, precisionShort(s.precision)), limitText,
                 fitSentence(s, *s.gpu, s.precision, b)});
}

// "H100 SXM5 80 GB": the catalogue name without the vendor, for labels beside a dot.
std::string shortGpuName(const GpuSpec& g) {
    const std::string vendor = "NVIDIA ";
    return g.name.rfind(vendor, 0) == 0 ? g.name.substr(vendor.size()) : g.name;
}

struct OtherGpu {
    const GpuSpec* gpu;
    DecodeOn decode;
    double tokensPerGpu; // tokens/s ÷ tensor-parallel GPUs
};
// Every catalogue GPU that has the chosen precision, at the batch parameter.
std::vector<OtherGpu> otherGpus(const Setup& s, std::vector<std::string>* lacking = nullptr) {
    std::vector<OtherGpu> out;
    for (const auto& g : HardwareCatalogue::builtin().gpus()) {
        if (!peakTflops(g, s.precision)) {
            if (lacking)
                lacking->push_back(g.name);
            continue;
        }
        const DecodeOn on = decodeOn(s, g, s.precision, s.decode.batch);
        out.push_back({&g, on, on.estimate.maxTokensPerS / on.estimate.gpus});
    }
    return out;
}

std::string otherGpusNarration(const Setup& s) {
    std::vector<std::string> lacking;
    const auto gpus = otherGpus(s, &lacking);
    std::size_t memoryBound = 0;
    for (const auto& o : gpus)
        memoryBound += o.decode.estimate.point.memoryBound ? 1 : 0;
    const auto [slow, fast] =
        std::minmax_element(gpus.begin(), gpus.end(), [](const auto& a, const auto& b) {
            return a.tokensPerGpu < b.tokensPerGpu;
        });
    const std::string n = std::to_string(gpus.size());
    // "both GPUs" for two, "all 5 GPUs" for more.
    const std::string every = gpus.size() == 2 ? std::string("both") : fill("all %1", {n});
    const std::string bound =
        memoryBound == gpus.size()
            ? fill("memory-bound on %1 GPUs, so speed follows bandwidth, not peak FLOP/s", {every})
        : memoryBound == 0
            ? fill("compute-bound on %1 GPUs, so speed follows peak FLOP/s", {every})
            : fill("memory-bound on %1 of %2 GPUs", {std::to_string(memoryBound), n});
    const std::string notShown = lacking.empty()
                                     ? std::string()
                                     : fill(" Not shown, no %1 tensor cores: %2.",
                                            {precisionShort(s.precision), joined(lacking)});
    return fill("At batch %1 decode is %2: %3 (%4, %5 TFLOP/s) generates %6× the tokens/s per GPU "
                "of %7 (%8, %9 TFLOP/s).",
                {formatNumber(s.decode.batch), bound, shortGpuName(*fast->gpu),
                 gbs(bandwidthTBs(*fast->gpu)), formatNumber(*peakTflops(*fast->gpu, s.precision)),
                 formatSignificant(fast->tokensPerGpu / slow->tokensPerGpu, 3),
                 shortGpuName(*slow->gpu), gbs(bandwidthTBs(*slow->gpu)),
                 formatNumber(*peakTflops(*slow->gpu, s.precision))}) +
           notShown;
}

Frames otherGpuFrames(const Setup& s) {
    const auto gpus = otherGpus(s);
    ChartFrame f = baseChart(
        s, fill("%1 roofs across the catalogue, %2 decode at batch %3",
                {precisionShort(s.precision), s.decode.shape.name, formatNumber(s.decode.batch)}));
    FactsFrame facts;
    facts.title = fill("Decode ceiling at batch %1", {formatNumber(s.decode.batch)});
    // The dots share one intensity and differ only by bandwidth: a y axis spanning just the
    // dots and the peaks spreads them far enough apart for their labels.
    double yMin = f.y.max;
    for (const auto& o : gpus) {
        const DecodeEstimate& d = o.decode.estimate;
        const bool chosen = o.gpu == s.gpu;
        const int color = static_cast<int>(&o - gpus.data());
        f.series.push_back(
            roofSeries(shortGpuName(*o.gpu), *peakTflops(*o.gpu, s.precision), bandwidthTBs(*o.gpu),
                       color, chosen ? ChartSeries::Style::Line : ChartSeries::Style::Dashed));
        f.markers.push_back(decodeMarker(
            d, fill("%1: %2", {shortGpuName(*o.gpu), formatSi(d.maxTokensPerS, "tok/s")}),
            o.gpu->name, color));
        yMin = std::min(yMin, decadeBelow(d.point.attainableTflops));
        facts.rows.push_back(
            {.label = o.gpu->name,
             .value = d.gpus == 1 ? fill("%1 on 1 GPU", {formatSi(d.maxTokensPerS, "tok/s")})
                                  : fill("%1 on %2 (TP)",
                                         {formatSi(d.maxTokensPerS, "tok/s"), gpuCount(d.gpus)}),
             .source = cite(*o.gpu, "memory_bandwidth_gbs"),
             .emphasis = chosen});
    }
    f.y.min = yMin;
    return Frames{{f, facts}};
}

// A measured probe against its datasheet ceiling: "624 TFLOP/s (63.1 % of datasheet)". A
// modeled probe is the datasheet value itself, so it gets no share.
std::string ofDatasheet(double value, const std::optional<double>& datasheet,
                        const std::string& unit, bool modeled = false) {
    const std::string text = fill("%1 %2", {formatSignificant(value, 4), unit});
    if (modeled)
        return fill("%1 (the datasheet value)", {text});
    if (datasheet)
        return fill("%1 (%2 of datasheet)", {text, formatPercent(100.0 * value / *datasheet)});
    return text;
}

// "measured on NVIDIA H200" / "modeled on CPU for NVIDIA H100 SXM5 80 GB": a title's origin, with
// versions and date left to the footnote.
std::string originShort(const Trace& trace) {
    const std::string device =
        trace.provenance.device.empty() ? "an unknown device" : trace.provenance.device;
    return fill(trace.provenance.source == TraceSource::Modeled ? "modeled on CPU for %1"
                                                                : "measured on %1",
                {device});
}

// Probe names as the reader knows them, not as the trace spells them.
constexpr const char* kFp32Probe = "FP32 FMA probe";
constexpr const char* kBf16Probe = "BF16 tensor MMA probe";
constexpr const char* kHbmProbe = "HBM bandwidth probe";

// A recording shipped for another GPU than the one chosen: its catalogue GPU and trace.
struct OtherRecording {
    const GpuSpec* gpu;
    std::shared_ptr<const Trace> trace; // a copy: the set may change while the story lives
};

// The recorded probes as fact rows, each against the datasheet of the GPU that ran them.
void probeRows(FactsFrame& facts, const GpuSpec& gpu, const Trace& trace,
               const std::string& prefix) {
    const RooflineProbes probes = rooflineProbes(trace);
    const std::string origin = describeProvenance(trace.provenance);
    const bool modeled = trace.provenance.source == TraceSource::Modeled;
    auto row = [&](const std::optional<double>& value, const char* name,
                   const std::optional<double>& datasheet, const char* unit, bool emphasis) {
        if (value)
            facts.rows.push_back({.label = fill("%1%2", {prefix, name}),
                                  .value = ofDatasheet(*value, datasheet, unit, modeled),
                                  .source = origin,
                                  .emphasis = emphasis});
    };
    row(probes.fp32Tflops, kFp32Probe, peakTflops(gpu, Precision::FP32), "TFLOP/s", false);
    row(probes.bf16Tflops, kBf16Probe, peakTflops(gpu, Precision::BF16), "TFLOP/s", true);
    row(probes.hbmGBs, kHbmProbe, gpu.value("memory_bandwidth_gbs"), "GB/s", true);
}

// The probes' ceilings and kernels exactly as the trace holds them, over the catalogue's
// roofs (dashed) so the gap between datasheet and probe is visible. Measured and modeled
// traces take this one path; every label carries the trace's provenance. A recording made on
// another GPU is listed below, each value against that GPU's own datasheet.
Frames probeFrames(const Setup& s, const Trace& trace, const std::optional<OtherRecording>& other) {
    const RooflineProbes probes = rooflineProbes(trace);
    const std::string origin = describeProvenance(trace.provenance);
    const bool modeled = trace.provenance.source == TraceSource::Modeled;
    ChartFrame f = baseChart(s, fill("Probe ceilings · %1", {originShort(trace)}));
    FactsFrame facts;
    facts.title = fill("Probes vs datasheet · %1", {originShort(trace)});
    const double catalogueBw = s.bandwidth;
    const double bw = probes.hbmGBs ? *probes.hbmGBs / 1e3 : catalogueBw;
    auto ceiling = [&](const std::optional<double>& probe, Precision p, const std::string& name) {
        const auto peak = peakTflops(*s.gpu, p);
        if (peak)
            f.series.push_back(roofSeries(fill("%1 datasheet", {precisionTitle(p)}), *peak,
                                          catalogueBw, static_cast<int>(p),
                                          ChartSeries::Style::Dashed));
        if (probe)
            f.series.push_back(roofSeries(modeled ? fill("%1 (modeled)", {name}) : name, *probe, bw,
                                          static_cast<int>(p), ChartSeries::Style::Line));
    };
    ceiling(probes.fp32Tflops, Precision::FP32, kFp32Probe);
    ceiling(probes.bf16Tflops, Precision::BF16, kBf16Probe);
    probeRows(facts, *s.gpu, trace, modeled ? "modeled " : "");
    for (const auto& k : probes.kernels) {
        const std::string at = fill("%1 TFLOP/s at %2 FLOP/B",
                                    {formatNumber(k.tflops), formatSignificant(k.intensity, 3)});
        f.markers.push_back(ChartMarker{.at = {k.intensity, k.tflops},
                                        .label = k.label,
                                        .tooltip = fill("%1: %2 (%3)", {k.label, at, origin}),
                                        .colorIndex = 5,
                                        .estimate = false,
                                        .emphasis = true});
        facts.rows.push_back({.label = k.label, .value = at, .source = origin, .emphasis = false});
    }
    if (other)
        probeRows(facts, *other->gpu, *other->trace, fill("%1 ", {shortGpuName(*other->gpu)}));
    f.footnote =
        fill("Solid: the trace (%1); dashed: %2.", {origin, cite(*s.gpu, "memory_bandwidth_gbs")});
    return Frames{{f, facts}};
}

std::string probeNarration(const Setup& s, const Trace& trace,
                           const std::optional<OtherRecording>& other) {
    const RooflineProbes probes = rooflineProbes(trace);
    const std::string origin = originShort(trace);
    if (trace.provenance.source != TraceSource::Modeled) {
        std::vector<std::string> parts;
        if (probes.bf16Tflops)
            parts.push_back(fill(
                "BF16 MMA %1",
                {ofDatasheet(*probes.bf16Tflops, peakTflops(*s.gpu, Precision::BF16), "TFLOP/s")}));
        if (probes.hbmGBs)
            parts.push_back(
                fill("HBM %1",
                     {ofDatasheet(*probes.hbmGBs, s.gpu->value("memory_bandwidth_gbs"), "GB/s")}));
        const std::string kernels =
            probes.kernels.empty()
                ? std::string()
                : fill(" %1 under them.",
                       {formatCount(static_cast<long long>(probes.kernels.size()),
                                    "measured kernel sits", "measured kernels sit")});
        return fill("Tight loops of FMAs, tensor-core MMAs and streaming copies, %1: %2.%3",
                    {origin, joined(parts), kernels});
    }
    std::string elsewhere =
        " Record the probes on a GPU to see how far below the datasheet they land.";
    if (other) {
        const RooflineProbes measured = rooflineProbes(*other->trace);
        const std::string device = other->trace->provenance.device.empty()
                                       ? other->gpu->name
                                       : other->trace->provenance.device;
        elsewhere = measured.bf16Tflops
                        ? fill(" A recording made on %1 reached %2 in BF16 MMA (table); choose "
                               "%3 as the GPU to draw it.",
                               {device,
                                ofDatasheet(*measured.bf16Tflops,
                                            peakTflops(*other->gpu, Precision::BF16), "TFLOP/s"),
                                shortGpuName(*other->gpu)})
                        : std::string();
    }
    return fill("No recording was made on %1: the solid lines are its datasheet peaks, modeled on "
                "CPU, so they lie on the roofs and show no measured gap.%2",
                {s.gpu->name, elsewhere});
}

// Dots drawn one per launch up to this many; past it one per kernel (each dot is a chart
// marker with its own tooltip, and Qt Charts needs seconds for thousands of them).
constexpr std::size_t kMaxDots = 400;

// The user's Nsight Compute launches, copied out of the imported set when the story is built.
struct ImportedKernels {
    std::vector<NcuRooflinePoint> points; // one per launch, or per kernel when grouped
    std::vector<NcuSkippedLaunch> skipped;
    std::vector<std::pair<std::string, std::string>> devices; // file, what the CSV says
    std::size_t launches = 0;                                 // launches with all three metrics
    bool grouped = false;            // more than kMaxDots launches: one point per kernel
    std::size_t kernelsNotDrawn = 0; // kernels past kMaxDots (the least total time)
};

ImportedKernels importedKernels(const ImportedSet& imported) {
    ImportedKernels k;
    for (const auto& result : imported.ncu) {
        if (!result)
            continue;
        NcuRooflineSet set = ncuRooflinePoints(*result);
        k.points.insert(k.points.end(), set.points.begin(), set.points.end());
        k.skipped.insert(k.skipped.end(), set.skipped.begin(), set.skipped.end());
        k.devices.emplace_back(fileNameOf(result->path), ncuDeviceText(*result));
    }
    k.launches = k.points.size();
    if (k.points.size() > kMaxDots) {
        k.grouped = true;
        k.points = ncuPointsByKernel(k.points);
    }
    if (k.points.size() > kMaxDots) {
        // Keep the kernels that took the most time, in their file order.
        std::vector<std::size_t> order(k.points.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return k.points[a].durationNs > k.points[b].durationNs;
        });
        order.resize(kMaxDots);
        std::sort(order.begin(), order.end());
        std::vector<NcuRooflinePoint> kept;
        for (std::size_t i : order)
            kept.push_back(k.points[i]);
        k.kernelsNotDrawn = k.points.size() - kept.size();
        k.points = std::move(kept);
    }
    return k;
}

constexpr const char* kYourKernelsSeries = "your kernels (Nsight Compute)";
constexpr std::size_t kMaxLabelled = 12; // marker labels beyond this would pile up
constexpr std::size_t kMaxRows = 12;     // table rows per list; the rest are counted

std::string launchText(const std::string& name, std::int64_t id) {
    return fill("%1 #%2", {name, std::to_string(id)});
}

// "k #3" for one launch, "k × 40 launches" for a kernel's summed launches.
std::string pointText(const std::string& name, const NcuRooflinePoint& p) {
    return p.launches == 1 ? launchText(name, p.id)
                           : fill("%1 × %2 launches", {name, std::to_string(p.launches)});
}

// One dot per launch with FLOPs, DRAM bytes and a duration, over the GPU parameter's roofs.
Frames importedKernelFrames(const Setup& s, const ImportedKernels& k) {
    ChartFrame f =
        baseChart(s, fill("Your Nsight Compute kernels on the %1 roofline", {s.gpu->name}));
    if (s.precision != Precision::FP32)
        f.series.push_back(precisionRoof(s, Precision::FP32, ChartSeries::Style::Dashed));
    f.series.push_back(precisionRoof(s, s.precision, ChartSeries::Style::Line));
    // The legend's entry for the dots; the dots themselves are markers, one per launch, so
    // each carries its own tooltip (a line through unrelated kernels would mean nothing).
    if (!k.points.empty())
        f.series.push_back({.name = std::string(kYourKernelsSeries),
                            .points = {},
                            .style = ChartSeries::Style::Line,
                            .colorIndex = 5});
    for (std::size_t i = 0; i < k.points.size(); ++i) {
        const auto& p = k.points[i];
        const double tflops = p.flopPerS / 1e12;
        f.x.min = std::min(f.x.min, decadeBelow(p.intensity));
        f.x.max = std::max(f.x.max, decadeAbove(p.intensity));
        f.y.min = std::min(f.y.min, decadeBelow(tflops));
        f.y.max = std::max(f.y.max, decadeAbove(tflops));
        f.markers.push_back(ChartMarker{
            .at = {p.intensity, tflops},
            .label = i < kMaxLabelled ? p.shortName : std::string{},
            .tooltip =
                fill("%1: %2 FLOP/B = %3 ÷ %4 DRAM; %5 = %3 in %6 (%7)",
                     {pointText(p.name, p), formatSignificant(p.intensity, 4),
                      formatSi(p.flops, "FLOP"), formatBytes(p.dramBytes),
                      formatSi(p.flopPerS, "FLOP/s"), formatSi(p.durationNs * 1e-9, "s"), p.file}),
            .colorIndex = 5,
            .estimate = false,
            .emphasis = true});
    }
    f.footnote = fill("Dots: your launches, x = FLOPs ÷ DRAM bytes, y = FLOPs ÷ duration (Nsight "
                      "Compute). Roofs: %1, %2.",
                      {s.gpu->name, cite(*s.gpu, "memory_bandwidth_gbs")});

    FactsFrame facts;
    facts.title = fill("Your kernels · %1 launches plotted, %2 not plotted",
                       {std::to_string(k.launches), std::to_string(k.skipped.size())});
    for (const auto& [file, device] : k.devices)
        facts.rows.push_back(
            {.label = "the CSV's device", .value = device, .source = file, .emphasis = false});
    facts.rows.push_back(
        {.label = "roofs drawn for (GPU parameter)",
         .value = fill("%1, compute capability %2", {s.gpu->name, s.gpu->computeCapability}),
         .source = "hardware catalogue",
         .emphasis = true});
    if (k.grouped)
        facts.rows.push_back(
            {.label = "one dot per kernel",
             .value = fill("%1 launches > %2: each dot sums a kernel's FLOPs, DRAM bytes and time",
                           {std::to_string(k.launches), std::to_string(kMaxDots)}),
             .source = "the chart",
             .emphasis = true});
    if (k.kernelsNotDrawn > 0)
        facts.rows.push_back({.label = "kernels not drawn (least total time)",
                              .value = std::to_string(k.kernelsNotDrawn),
                              .source = "the chart",
                              .emphasis = false});
    for (std::size_t i = 0; i < k.points.size() && i < kMaxRows; ++i) {
        const auto& p = k.points[i];
        facts.rows.push_back({.label = pointText(p.shortName, p),
                              .value = fill("%1 FLOP/B · %2", {formatSignificant(p.intensity, 4),
                                                               formatSi(p.flopPerS, "FLOP/s")}),
                              .source = p.file,
                              .emphasis = false});
    }
    if (k.points.size() > kMaxRows)
        facts.rows.push_back({.label = k.grouped ? "more plotted kernels" : "more plotted launches",
                              .value = std::to_string(k.points.size() - kMaxRows),
                              .source = "the chart",
                              .emphasis = false});
    for (std::size_t i = 0; i < k.skipped.size() && i < kMaxRows; ++i) {
        const auto& m = k.skipped[i];
        facts.rows.push_back({.label = fill("not plotted: %1", {launchText(m.shortName, m.id)}),
                              .value = m.reason,
                              .source = m.file,
                              .emphasis = false});
    }
    if (k.skipped.size() > kMaxRows)
        facts.rows.push_back({.label = "more launches not plotted",
                              .value = std::to_string(k.skipped.size() - kMaxRows),
                              .source = "",
                              .emphasis = false});
    return Frames{{f, facts}};
}

// Every value the roofline's slides quote, for the parameter-sweep test: peaks, bandwidths
// and ridges of every catalogue GPU, the reference kernels, the decode workload at batch 1 and
// at the batch parameter (and in FP8, which the fit sentence quotes), the probes.
std::vector<ResultValue> rooflineResults(const Setup& s, const Trace& probes,
                                         const std::optional<OtherRecording>& other) {
    std::vector<ResultValue> out;
    const auto gpuValues = [&](const GpuSpec& g) {
        out.push_back({"bandwidth GB/s", bandwidthTBs(g) * 1000.0});
        out.push_back({"memory", g.value("memory_gb") * 1e9});
        for (Precision q :
             {Precision::FP32, Precision::TF32, Precision::BF16, Precision::FP16, Precision::FP8})
            if (const auto peak = peakTflops(g, q)) {
                out.push_back({"peak TFLOP/s", *peak});
                out.push_back({"ridge", ridgeFlopPerByte(*peak, bandwidthTBs(g))});
            }
    };
    for (const GpuSpec& g : HardwareCatalogue::builtin().gpus())
        gpuValues(g);
    std::vector<double> ridges;
    for (Precision q : kRidgePrecisions)
        if (const auto peak = peakTflops(*s.gpu, q))
            ridges.push_back(ridgeFlopPerByte(*peak, s.bandwidth));
    for (double a : ridges)
        for (double b : ridges)
            out.push_back({"ridge ratio", a / b});
    for (const auto& k : referenceKernels()) {
        out.push_back({"reference intensity", k.intensity});
        // "GEMV 8192²": the kernel's size is part of its definition, an input.
        for (const QuotedNumber& q : quotedNumbers(k.name))
            out.push_back({"in the kernel's name", q.shown});
        out.push_back({"reference attainable",
                       roofline(*peakTflops(*s.gpu, k.precision), s.bandwidth, k.intensity)
                           .attainableTflops});
    }
    const DecoderShape& m = s.decode.shape;
    out.insert(out.end(), {{"layers", m.layers},
                           {"heads", m.heads},
                           {"KV heads", m.kvHeads},
                           {"head dim", m.headDim},
                           {"billions of parameters", m.parameters / 1e9},
                           {"context", s.decode.seqLen},
                           {"batch", s.decode.batch},
                           {"batch 1", 1},
                           {"bytes per element", bytesPerElement(s.precision)}});
    const auto decodeValues = [&](const GpuSpec& g, Precision p, double batch) {
        const DecodeOn on = decodeOn(s, g, p, batch);
        const DecodeEstimate& d = on.estimate;
        out.insert(out.end(), {{"weights", d.weightBytes},
                               {"KV", d.kvBytes},
                               {"FLOPs", d.flops},
                               {"intensity", d.intensity},
                               {"ridge / intensity", d.point.ridge / d.intensity},
                               {"step time", d.stepTimeS},
                               {"tokens/s", d.maxTokensPerS},
                               {"GPUs", d.gpus},
                               {"fit weights", on.fit.weightBytes},
                               {"fit KV", on.fit.kvBytes},
                               {"fit total", on.fit.weightBytes + on.fit.kvBytes},
                               {"HBM", on.fit.memoryBytes},
                               {"tensor parallel", on.fit.tensorParallel},
                               {"intensity limit", decodeIntensityLimit(workloadAt(s, p, batch))}});
    };
    for (double batch : {1.0, s.decode.batch}) {
        decodeValues(*s.gpu, s.precision, batch);
        if (peakTflops(*s.gpu, Precision::FP8))
            decodeValues(*s.gpu, Precision::FP8, batch);
    }
    const auto gpus = otherGpus(s);
    out.push_back({"GPUs compared", gpus.size()});
    out.push_back(
        {"memory-bound GPUs", std::count_if(gpus.begin(), gpus.end(), [](const OtherGpu& o) {
             return o.decode.estimate.point.memoryBound;
         })});
    for (const auto& a : gpus) {
        decodeValues(*a.gpu, s.precision, s.decode.batch);
        for (const auto& b : gpus)
            out.push_back({"tokens per GPU ratio", a.tokensPerGpu / b.tokensPerGpu});
    }
    const auto probeValues = [&](const GpuSpec& g, const Trace& trace) {
        const RooflineProbes r = rooflineProbes(trace);
        const auto withShare = [&](const std::optional<double>& v,
                                   const std::optional<double>& datasheet) {
            if (!v)
                return;
            out.push_back({"probe", *v});
            if (datasheet)
                out.push_back({"share of datasheet", *v / *datasheet});
        };
        withShare(r.fp32Tflops, peakTflops(g, Precision::FP32));
        withShare(r.bf16Tflops, peakTflops(g, Precision::BF16));
        withShare(r.hbmGBs, g.value("memory_bandwidth_gbs"));
        for (const auto& k : r.kernels) {
            out.insert(out.end(),
                       {{"kernel intensity", k.intensity}, {"kernel TFLOP/s", k.tflops}});
            // The kernel's name is the recording's label ("GEMM 4096³"): its sizes are inputs.
            for (const QuotedNumber& q : quotedNumbers(k.label))
                out.push_back({"in the kernel's name", q.shown});
        }
    };
    probeValues(*s.gpu, probes);
    if (other)
        probeValues(*other->gpu, *other->trace);
    return out;
}

} // namespace

std::string RooflineScenario::question() const {
    return "Is this kernel compute- or memory-bound? Why is LLM decode at batch 1 never "
           "compute-bound?";
}

std::string RooflineScenario::answer() const {
    return R"(**Attainable FLOP/s = min(peak, bandwidth × arithmetic intensity).** Intensity is FLOPs per
byte moved from HBM. Below the **ridge point** (peak ÷ bandwidth) a kernel is memory-bound, above it compute-bound.

- **H100 SXM:** 989.4 TFLOP/s dense BF16 ÷ 3.35 TB/s = **≈295 FLOP/B**. FP8 doubles the ridge (≈591), FP32 on CUDA
  cores is only ≈20. H200 has the same compute and 4.8 TB/s, so its BF16 ridge drops to ≈206. A100 80 GB: ≈153.
  Use dense peaks: the datasheets' starred numbers assume 2:4 sparsity.
- **Decode at batch B** reads every weight once per step and does 2 FLOPs per weight per sequence, so without
  the KV cache the intensity is ≈ 2B / bytes-per-weight, **≈ B FLOP/B in BF16**. Batch 1 sits at ≈1 FLOP/B,
  hundreds of times left of the ridge: memory-bound.
- **Does it fit?** A 70B model in BF16 is 140 GB of weights, more than one 80 GB H100 holds: it needs tensor
  parallelism over 2 GPUs (more with a large KV cache), or FP8 weights (70 GB).
- **The KV cache** adds batch × context × 2 (K and V) × layers × KV heads × head dim × bytes to every step's
  reads. It grows with the batch as fast as the FLOPs do, so batching alone levels off below the ridge at long
  contexts: for a Llama 3 8B shape (32 layers, 8 KV heads × 128, GQA) at 4,096 tokens in BF16 the limit is
  ≈34 FLOP/B.
- Reference intensities: vector add 1/12, GEMV ≈1, softmax ≈0.6 (estimate), GEMM n/3 if each matrix moves once.

The model ignores on-chip caches, activations and the all-reduces of tensor parallelism. Open an
Nsight Compute CSV (File → Open) to place your own kernels on the roofs.)";
}

std::vector<SourceRef> RooflineScenario::sources() const {
    return {
        {"Williams, Waterman & Patterson, Roofline (CACM 2009)",
         "https://doi.org/10.1145/1498765.1498785"},
        {"NVIDIA H100 datasheet", "https://www.nvidia.com/en-us/data-center/h100/"},
        {"NVIDIA H200 datasheet", "https://www.nvidia.com/en-us/data-center/h200/"},
        {"NVIDIA A100 datasheet", "https://www.nvidia.com/en-us/data-center/a100/"},
        {"NVIDIA Hopper Tuning Guide", "https://docs.nvidia.com/cuda/hopper-tuning-guide/"},
    };
}

std::vector<ParamSpec> RooflineScenario::parameters() const {
    const auto ids = HardwareCatalogue::builtin().ids();
    return {
        ParamSpec::choice("gpu", "GPU", ids, "h100-sxm", "from the hardware catalogue"),
        ParamSpec::choice("precision", "Precision", precisionNames(), "bf16",
                          "compute roof to emphasise"),
        ParamSpec::integer("batch", "Decode batch", "sequences", 1, 1024, 64, true),
        ParamSpec::integer("seq-len", "Context length", "tokens", 1, 131072, 4096, true),
        ParamSpec::choice("model", "Model (assumed shape)", decoderShapeIds(), "llama-3-8b",
                          "layers and heads from the Llama 3 paper, Table 3"),
    };
}

Story RooflineScenario::build(const Params& p, const ScenarioInputs& in) const {
    const auto& cat = HardwareCatalogue::builtin();
    const GpuSpec* gpu = cat.find(p.text("gpu"));
    const Precision requested = *parsePrecision(p.text("precision"));
    Precision precision = requested;
    // A GPU without the precision (FP8 on A100) falls back to BF16 rather than drawing
    // a roof that does not exist; the step text says so.
    const bool fellBack = !peakTflops(*gpu, precision).has_value();
    if (fellBack)
        precision = Precision::BF16;
    const DecodeWorkload decode = decodeWorkload(*findDecoderShape(p.text("model")), precision,
                                                 static_cast<double>(p.integer("batch")),
                                                 static_cast<double>(p.integer("seq-len")));
    const Setup s{gpu, precision, *peakTflops(*gpu, precision), bandwidthTBs(*gpu), decode};
    const std::string gpuName = gpu->name;
    const std::string precisionText = precisionTitle(precision);
    const double ridge = ridgeFlopPerByte(s.peak, s.bandwidth);

    // Probe ceilings replay a recording made on this GPU, else the catalogue peaks as a trace.
    RecordingChoice choice = chooseRecording(*this, kRooflineProbesKind, p, in);
    auto probes = std::make_shared<const Trace>(choice.trace ? std::move(*choice.trace)
                                                             : modeledRooflineProbes(*gpu));

    Story story;
    story.provenance =
        withReplayNote(replayProvenance(*probes, "roofline from catalogue peaks"), choice);
    story.steps.push_back(
        {"The memory roof",
         fill("A kernel that does I FLOPs per byte can never run faster than bandwidth × I. On "
              "%1 that is %2 times the intensity.",
              {gpuName, gbs(s.bandwidth)}),
         3.0, [s](double t) {
             ChartFrame f = baseChart(s, fill("Memory roof · %1", {s.gpu->name}));
             const double xEnd =
                 std::exp(std::log(kXMin) + t * (std::log(kXMax) - std::log(kXMin)));
             ChartSeries roof;
             roof.name = fill("HBM %1", {gbs(s.bandwidth)});
             roof.colorIndex = 6;
             roof.points = {
                 {kXMin, s.bandwidth * kXMin},
                 {std::max(xEnd, kXMin * 1.01), s.bandwidth * std::max(xEnd, kXMin * 1.01)}};
             f.series.push_back(roof);
             return Frames{{f}};
         }});
    story.steps.push_back(
        {"The compute roof and the ridge point",
         fill("The %1 peak, %2 TFLOP/s, caps everything. The roofs meet at the ridge, peak ÷ "
              "bandwidth = %3 FLOP/B: left of it a kernel waits on memory, right of it on math.%4",
              {precisionText, formatNumber(s.peak), formatSignificant(ridge, 4),
               fellBack ? fill(" (%1 has no %2 tensor cores, so BF16 is shown.)",
                               {gpuName, precisionShort(requested)})
                        : std::string()}),
         3.0, [s](double) {
             ChartFrame f =
                 baseChart(s, fill("%1 roofline · %2", {precisionTitle(s.precision), s.gpu->name}));
             f.series.push_back(precisionRoof(s, s.precision, ChartSeries::Style::Line));
             f.markers.push_back(ridgeMarker(s, s.peak, s.precision, true));
             FactsFrame facts;
             facts.title = s.gpu->name;
             facts.rows.push_back({.label = fill("peak %1", {precisionTitle(s.precision)}),
                                   .value = fill("%1 TFLOP/s", {formatNumber(s.peak)}),
                                   .source = cite(*s.gpu, peakField(s.precision)),
                                   .emphasis = false});
             facts.rows.push_back({.label = "HBM bandwidth",
                                   .value = gbs(s.bandwidth),
                                   .source = cite(*s.gpu, "memory_bandwidth_gbs"),
                                   .emphasis = false});
             facts.rows.push_back(
                 {.label = "ridge = peak ÷ bandwidth",
                  .value = fill("%1 FLOP/B",
                                {formatSignificant(ridgeFlopPerByte(s.peak, s.bandwidth), 4)}),
                  .source = kRooflineSource,
                  .emphasis = true});
             return Frames{{f, facts}};
         }});
    story.steps.push_back(
        {"Every precision has its own ridge", precisionRidgesNarration(s), 3.0, [s](double) {
             ChartFrame f = baseChart(s, fill("Roofs by precision · %1", {s.gpu->name}));
             FactsFrame facts;
             facts.title = fill("Ridge points, %1", {s.gpu->name});
             for (Precision q : kRidgePrecisions) {
                 const auto peak = peakTflops(*s.gpu, q);
                 if (!peak)
                     continue;
                 const bool chosen = q == s.precision;
                 f.series.push_back(
                     roofSeries(precisionTitle(q), *peak, s.bandwidth, static_cast<int>(q),
                                chosen ? ChartSeries::Style::Line : ChartSeries::Style::Dashed));
                 f.markers.push_back(ridgeMarker(s, *peak, q, chosen));
                 facts.rows.push_back(
                     {.label = precisionTitle(q),
                      .value = fill("%1 FLOP/B",
                                    {formatSignificant(ridgeFlopPerByte(*peak, s.bandwidth), 4)}),
                      .source = cite(*s.gpu, peakField(q)),
                      .emphasis = chosen});
             }
             return Frames{{f, facts}};
         }});
    story.steps.push_back(
        {"Where common kernels land", referenceNarration(s), 4.0, [s](double t) {
             ChartFrame f = baseChart(s, fill("Reference kernels · %1", {s.gpu->name}));
             f.series.push_back(precisionRoof(s, Precision::FP32, ChartSeries::Style::Dashed));
             f.series.push_back(precisionRoof(s, Precision::BF16, ChartSeries::Style::Line));
             const auto kernels = referenceKernels();
             const auto shown = static_cast<size_t>(
                 std::ceil(std::clamp(t, 0.0, 1.0) * static_cast<double>(kernels.size())));
             FactsFrame facts;
             facts.title = "Formula-derived intensity";
             for (size_t i = 0; i < kernels.size(); ++i) {
                 const auto& k = kernels[i];
                 const RooflinePoint pt =
                     roofline(*peakTflops(*s.gpu, k.precision), s.bandwidth, k.intensity);
                 facts.rows.push_back({.label = k.name,
                                       .value = fill("%1 FLOP/B · %2-bound",
                                                     {formatSignificant(k.intensity, 3),
                                                      pt.memoryBound ? "memory" : "compute"}),
                                       .source = k.formula,
                                       .emphasis = i + 1 == shown});
                 if (i < std::max<size_t>(shown, 1))
                     f.markers.push_back({.at = {k.intensity, pt.attainableTflops},
                                          .label = k.name,
                                          .tooltip = k.formula,
                                          .colorIndex = static_cast<int>(k.precision),
                                          .estimate = k.estimate,
                                          .emphasis = i + 1 == shown});
             }
             return Frames{{f, facts}};
         }});
    story.steps.push_back(
        {"Decode at batch 1", batchOneNarration(s), 3.0, [s](double) {
             ChartFrame f = baseChart(
                 s, fill("LLM decode, batch 1 · %1 · %2", {s.decode.shape.name, s.gpu->name}));
             f.series.push_back(precisionRoof(s, s.precision, ChartSeries::Style::Line));
             const DecodeOn on = decodeOn(s, *s.gpu, s.precision, 1);
             f.markers.push_back(decodeMarker(on.estimate, "decode B=1", s.gpu->name, 5));
             return Frames{{f, decodeFacts(s, 1)}};
         }});
    story.steps.push_back(
        {"Batching slides decode toward the ridge", batchingNarration(s), 5.0, [s](double t) {
             // The batch grows geometrically with t so each doubling takes equal time.
             const double b =
                 std::round(std::exp(std::clamp(t, 0.0, 1.0) * std::log(s.decode.batch)));
             ChartFrame f = baseChart(s, fill("Decode, batch %1 · %2 · %3",
                                              {formatNumber(b), s.decode.shape.name, s.gpu->name}));
             f.series.push_back(precisionRoof(s, s.precision, ChartSeries::Style::Line));
             f.markers.push_back(ridgeMarker(s, s.peak, s.precision, false));
             const DecodeOn on = decodeOn(s, *s.gpu, s.precision, b);
             f.markers.push_back(
                 decodeMarker(on.estimate, fill("decode B=%1", {formatNumber(b)}), s.gpu->name, 5));
             return Frames{{f, decodeFacts(s, b)}};
         }});
    story.steps.push_back({"Same model, other GPUs", otherGpusNarration(s), 4.0,
                           [s](double) { return otherGpuFrames(s); }});
    // A shipped or live recording from another catalogue GPU: shown beside the modeled
    // probes so the step has a measurement to compare with, each against its own datasheet.
    std::optional<OtherRecording> other;
    if (probes->provenance.source == TraceSource::Modeled)
        if (const Trace* r = in.recordings.recordingFor(id()); r && r->kind == kRooflineProbesKind)
            if (const auto input = gpuRecordingInput(*r))
                if (const GpuSpec* g = cat.find(input->value); g && g != gpu)
                    other = OtherRecording{g, std::make_shared<const Trace>(*r)};
    story.steps.push_back({"Probes against the roofs", probeNarration(s, *probes, other), 4.0,
                           [s, probes, other](double) { return probeFrames(s, *probes, other); }});
    story.results = rooflineResults(s, *probes, other);

    const DecodeOn one = decodeOn(s, *gpu, precision, 1);
    const DecodeOn batched = decodeOn(s, *gpu, precision, s.decode.batch);
    const double limit = decodeIntensityLimit(workloadAt(s, precision, s.decode.batch));
    const std::string shortPrecision = precisionShort(precision);
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("Attainable FLOP/s = min(peak, bandwidth × intensity). The ridge, peak ÷ "
              "bandwidth, is %1 ÷ %2 = %3 FLOP/B for %4 on %5: left of it memory-bound, right "
              "of it compute-bound.",
              {fill("%1 TFLOP/s", {formatNumber(s.peak)}), gbs(s.bandwidth),
               formatSignificant(ridge, 4), shortPrecision, gpuName}),
         kRooflineSource},
        {fill("Decode at batch 1 reads %1 of weights for %2: %3 FLOP/B, %4.",
              {formatBytes(one.estimate.weightBytes), formatSi(one.estimate.flops, "FLOP"),
               formatSignificant(one.estimate.intensity, 3),
               sideOfRidge(one.estimate.intensity, one.estimate.point.ridge, shortPrecision)}),
         kRooflineSource},
        {std::isfinite(limit)
             ? fill("Batching reuses the weights, but each sequence brings its own KV cache: "
                    "batch %1 reaches %2 FLOP/B, and at %3 tokens of context no batch passes "
                    "%4 FLOP/B.",
                    {formatNumber(s.decode.batch), formatSignificant(batched.estimate.intensity, 3),
                     formatNumber(s.decode.seqLen), formatSignificant(limit, 3)})
             : fill("Batching reuses the weights: batch %1 reaches %2 FLOP/B.",
                    {formatNumber(s.decode.batch),
                     formatSignificant(batched.estimate.intensity, 3)}),
         kDecoderShapeSource},
        {fitSentence(s, *gpu, precision, s.decode.batch), cite(*gpu, "memory_gb")},
    };
    story.checks = {
        {fill("What is the %1 ridge point of %2, in FLOP per byte?", {shortPrecision, gpuName}),
         ridge, "FLOP/B", 0.05,
         fill("%1 TFLOP/s ÷ %2 = %3 FLOP/B.",
              {formatNumber(s.peak), gbs(s.bandwidth), formatSignificant(ridge, 4)})},
        {fill("What arithmetic intensity does %1 decode reach at batch 1 with a %2-token "
              "context, in FLOP per byte?",
              {s.decode.shape.name, formatNumber(s.decode.seqLen)}),
         one.estimate.intensity, "FLOP/B", 0.1,
         fill("%1 ÷ (%2 of weights + %3 of KV cache) = %4 FLOP/B.",
              {formatSi(one.estimate.flops, "FLOP"), formatBytes(one.estimate.weightBytes),
               formatBytes(one.estimate.kvBytes), formatSignificant(one.estimate.intensity, 3)})},
    };
    addWhiteboardStep(
        story, fill("Ridge %1 FLOP/B; decode at batch 1 sits at %2 FLOP/B.",
                    {formatSignificant(ridge, 4), formatSignificant(one.estimate.intensity, 3)}));
    // The user's own kernels follow the lesson, after its whiteboard answer.
    if (!in.imported.ncu.empty()) {
        std::vector<std::string> paths;
        for (const auto& n : in.imported.ncu)
            paths.push_back(n->path);
        story.provenance += importedNote(paths);
        auto kernels = std::make_shared<const ImportedKernels>(importedKernels(in.imported));
        const std::string narration = fill(
            "%1 of your launches have FLOPs, DRAM bytes and a duration and sit where they ran: x "
            "= FLOPs ÷ DRAM bytes, y = FLOPs ÷ time.%2%3 The roofs are %4's, the GPU parameter; "
            "the table names the device the CSV was measured on.",
            {std::to_string(kernels->launches),
             kernels->grouped ? " That is too many dots to read, so each dot is one kernel with "
                                "its launches summed."
                              : "",
             kernels->skipped.empty()
                 ? std::string()
                 : fill(" %1 are not plotted; the table says which metric is missing (collect "
                        "them with --section SpeedOfLight_RooflineChart or the "
                        "smsp__sass_thread_inst_executed_op_* and dram__bytes metrics).",
                        {std::to_string(kernels->skipped.size())}),
             gpuName});
        story.steps.push_back({"Your Nsight Compute kernels", narration, 4.0,
                               [s, kernels](double) { return importedKernelFrames(s, *kernels); }});
    }
    return story;
}

std::optional<std::vector<RecordingInput>>
RooflineScenario::recordingInputs(const Trace& recording) const {
    return gpuOnlyRecordingInputs(recording);
}
} // namespace wb
