#include "roofline/roofline_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/chart_helpers.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/roofline_probes_recording.h"
#include "imported/ncu_kernels.h"
#include "roofline/roofline_model.h"

#include <algorithm>
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
    double peak;      // TFLOP/s of the chosen precision
    double bandwidth; // TB/s
    double batch;
    double parameters;
    double weightBytes;
};

std::string cite(const GpuSpec& gpu, const std::string& field) {
    const auto& cat = HardwareCatalogue::builtin();
    const SpecSource* s = cat.source(gpu.field(field).sourceId);
    return s ? s->label : std::string{};
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
    f.x = ChartAxis{"arithmetic intensity (FLOP/B)", true, kXMin, kXMax};
    f.y = ChartAxis{"attainable (TFLOP/s)", true, 0.01, 10000};
    f.footnote = "Dense peaks and HBM bandwidth from " + cite(*s.gpu, "memory_bandwidth_gbs") +
                 "; model: " + kRooflineSource + ".";
    return f;
}

ChartMarker ridgeMarker(const Setup& s, double peak, Precision p, bool emphasis) {
    const double ridge = ridgeFlopPerByte(peak, s.bandwidth);
    return ChartMarker{{ridge, peak},
                       "ridge " + formatSignificant(ridge, 4) + " FLOP/B",
                       precisionTitle(p) + ": " + formatNumber(peak) + " TFLOP/s ÷ " +
                           formatNumber(s.bandwidth) + " TB/s (" + cite(*s.gpu, peakField(p)) + ")",
                       static_cast<int>(p),
                       false,
                       emphasis};
}

ChartMarker decodeMarker(const Setup& s, const GpuSpec& gpu, double batch, int color) {
    const DecodeEstimate d = decodeEstimate(gpu, s.parameters, batch, s.weightBytes);
    return ChartMarker{{d.intensity, d.point.attainableTflops},
                       "decode B=" + formatNumber(batch),
                       formatSignificant(d.intensity, 4) + " FLOP/B → " +
                           formatSi(d.maxTokensPerS, "tok/s") + " on " + gpu.name,
                       color,
                       false,
                       true};
}

FactsFrame decodeFacts(const Setup& s, double batch) {
    const DecodeEstimate d = decodeEstimate(*s.gpu, s.parameters, batch, s.weightBytes);
    FactsFrame f;
    f.title = "Decode, " + formatNumber(s.parameters / 1e9) + "B parameters, batch " +
              formatNumber(batch);
    f.rows.push_back({"weights read per step", formatBytes(s.parameters * s.weightBytes),
                      "P × bytes per weight", false});
    f.rows.push_back({"intensity 2B / bytes per weight",
                      formatSignificant(d.intensity, 4) + " FLOP/B", "formula", true});
    f.rows.push_back({"BF16 ridge", formatSignificant(d.point.ridge, 4) + " FLOP/B",
                      cite(*s.gpu, "bf16_dense_tflops"), false});
    f.rows.push_back({"bound", d.point.memoryBound ? "memory" : "compute", kRooflineSource, false});
    f.rows.push_back({"step time ≥", formatSi(d.stepTimeS, "s"), "roofline", false});
    f.rows.push_back(
        {"tokens/s, all sequences ≤", formatSi(d.maxTokensPerS, "tok/s"), "roofline", true});
    return f;
}

// The probes' ceilings and kernels exactly as the trace holds them, over the catalogue's
// roofs (dashed) so the gap between datasheet and probe is visible. Measured and modeled
// traces take this one path; every label carries the trace's provenance.
Frames probeFrames(const Setup& s, const Trace& trace) {
    const RooflineProbes probes = rooflineProbes(trace);
    const std::string origin = describeProvenance(trace.provenance);
    ChartFrame f = baseChart(s, "Probe ceilings · " + origin);
    FactsFrame facts;
    facts.title = "Probes vs datasheet · " + origin;
    const double catalogueBw = s.bandwidth;
    const double bw = probes.hbmGBs ? *probes.hbmGBs / 1e3 : catalogueBw;
    auto ceiling = [&](const std::optional<double>& probe, Precision p, const std::string& name) {
        const auto peak = peakTflops(*s.gpu, p);
        if (peak)
            f.series.push_back(roofSeries(precisionTitle(p) + " datasheet", *peak, catalogueBw,
                                          static_cast<int>(p), ChartSeries::Style::Dashed));
        if (!probe)
            return;
        f.series.push_back(
            roofSeries(name + " probe", *probe, bw, static_cast<int>(p), ChartSeries::Style::Line));
        std::string value = formatNumber(*probe) + " TFLOP/s";
        if (peak)
            value += " (" + formatSignificant(100.0 * *probe / *peak, 3) + " % of datasheet)";
        facts.rows.push_back({name, value, origin, true});
    };
    ceiling(probes.fp32Tflops, Precision::FP32, "fp32-fma");
    ceiling(probes.bf16Tflops, Precision::BF16, "bf16-mma");
    if (probes.hbmGBs)
        facts.rows.push_back({"hbm-bandwidth",
                              formatNumber(*probes.hbmGBs) + " GB/s (" +
                                  formatSignificant(100.0 * bw / catalogueBw, 3) +
                                  " % of datasheet)",
                              origin, true});
    for (const auto& k : probes.kernels) {
        f.markers.push_back(ChartMarker{{k.intensity, k.tflops},
                                        k.label,
                                        k.label + ": " + formatNumber(k.tflops) + " TFLOP/s at " +
                                            formatSignificant(k.intensity, 3) + " FLOP/B (" +
                                            origin + ")",
                                        5,
                                        false,
                                        true});
        facts.rows.push_back({k.label,
                              formatNumber(k.tflops) + " TFLOP/s at " +
                                  formatSignificant(k.intensity, 3) + " FLOP/B",
                              origin, false});
    }
    f.footnote =
        "Solid: the trace (" + origin + "); dashed: " + cite(*s.gpu, "memory_bandwidth_gbs") + ".";
    return Frames{{f, facts}};
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

ImportedKernels importedKernels() {
    ImportedKernels k;
    for (const auto& result : importedSet().ncu) {
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
    return name + " #" + std::to_string(id);
}

// "k #3" for one launch, "k × 40 launches" for a kernel's summed launches.
std::string pointText(const std::string& name, const NcuRooflinePoint& p) {
    return p.launches == 1 ? launchText(name, p.id)
                           : name + " × " + std::to_string(p.launches) + " launches";
}

// One dot per launch with FLOPs, DRAM bytes and a duration, over the GPU parameter's roofs.
Frames importedKernelFrames(const Setup& s, const ImportedKernels& k) {
    ChartFrame f = baseChart(s, "Your Nsight Compute kernels on the " + s.gpu->name + " roofline");
    if (s.precision != Precision::FP32)
        f.series.push_back(precisionRoof(s, Precision::FP32, ChartSeries::Style::Dashed));
    f.series.push_back(precisionRoof(s, s.precision, ChartSeries::Style::Line));
    // The legend's entry for the dots; the dots themselves are markers, one per launch, so
    // each carries its own tooltip (a line through unrelated kernels would mean nothing).
    if (!k.points.empty())
        f.series.push_back({std::string(kYourKernelsSeries), {}, ChartSeries::Style::Line, 5});
    for (std::size_t i = 0; i < k.points.size(); ++i) {
        const auto& p = k.points[i];
        const double tflops = p.flopPerS / 1e12;
        f.x.min = std::min(f.x.min, decadeBelow(p.intensity));
        f.x.max = std::max(f.x.max, decadeAbove(p.intensity));
        f.y.min = std::min(f.y.min, decadeBelow(tflops));
        f.y.max = std::max(f.y.max, decadeAbove(tflops));
        f.markers.push_back(ChartMarker{
            {p.intensity, tflops},
            i < kMaxLabelled ? p.shortName : std::string{},
            pointText(p.name, p) + ": " + formatSignificant(p.intensity, 4) +
                " FLOP/B = " + formatSi(p.flops, "FLOP") + " ÷ " + formatBytes(p.dramBytes) +
                " DRAM; " + formatSi(p.flopPerS, "FLOP/s") + " = " + formatSi(p.flops, "FLOP") +
                " in " + formatSi(p.durationNs * 1e-9, "s") + " (" + p.file + ")",
            5,
            false,
            true});
    }
    f.footnote = "Dots: your launches, x = FLOPs ÷ DRAM bytes, y = FLOPs ÷ duration (Nsight "
                 "Compute). Roofs: " +
                 s.gpu->name + ", " + cite(*s.gpu, "memory_bandwidth_gbs") + ".";

    FactsFrame facts;
    facts.title = "Your kernels · " + std::to_string(k.launches) + " launches plotted, " +
                  std::to_string(k.skipped.size()) + " not plotted";
    for (const auto& [file, device] : k.devices)
        facts.rows.push_back({"the CSV's device", device, file, false});
    facts.rows.push_back({"roofs drawn for (GPU parameter)",
                          s.gpu->name + ", compute capability " + s.gpu->computeCapability,
                          "hardware catalogue", true});
    if (k.grouped)
        facts.rows.push_back({"one dot per kernel",
                              std::to_string(k.launches) + " launches > " +
                                  std::to_string(kMaxDots) +
                                  ": each dot sums a kernel's FLOPs, DRAM bytes and time",
                              "the chart", true});
    if (k.kernelsNotDrawn > 0)
        facts.rows.push_back({"kernels not drawn (least total time)",
                              std::to_string(k.kernelsNotDrawn), "the chart", false});
    for (std::size_t i = 0; i < k.points.size() && i < kMaxRows; ++i) {
        const auto& p = k.points[i];
        facts.rows.push_back(
            {pointText(p.shortName, p),
             formatSignificant(p.intensity, 4) + " FLOP/B · " + formatSi(p.flopPerS, "FLOP/s"),
             p.file, false});
    }
    if (k.points.size() > kMaxRows)
        facts.rows.push_back({k.grouped ? "more plotted kernels" : "more plotted launches",
                              std::to_string(k.points.size() - kMaxRows), "the chart", false});
    for (std::size_t i = 0; i < k.skipped.size() && i < kMaxRows; ++i) {
        const auto& m = k.skipped[i];
        facts.rows.push_back(
            {"not plotted: " + launchText(m.shortName, m.id), m.reason, m.file, false});
    }
    if (k.skipped.size() > kMaxRows)
        facts.rows.push_back(
            {"more launches not plotted", std::to_string(k.skipped.size() - kMaxRows), "", false});
    return Frames{{f, facts}};
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
- **Decode at batch B** reads every weight once per step and does 2 FLOPs per weight per sequence:
  intensity ≈ 2B / bytes-per-weight, i.e. **≈ B FLOP/B for BF16**. Batch 1 sits at ≈1 FLOP/B, hundreds of times
  left of the ridge, so it is bandwidth-bound: a 70B model in BF16 (140 GB) can do at most ≈24 steps/s on an H100.
- Batching is how serving climbs the roof: it needs B ≈ ridge (≈295 on H100) before compute limits. KV-cache reads
  (ignored here) grow with batch × sequence and pull the point back left.
- Reference intensities: vector add 1/12, GEMV ≈1, softmax ≈0.6 (estimate), GEMM n/3 if each matrix moves once.

The model ignores caches, KV cache and activations. Open an Nsight Compute CSV (File → Open) to place your own
kernels on the roofs.)";
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
        ParamSpec::real("params", "Model parameters", "", 1e9, 1e12, 70e9, true),
        ParamSpec::real("weight-bytes", "Bytes per weight", "B", 0.5, 4, 2),
    };
}

Story RooflineScenario::build(const Params& p) const {
    const auto& cat = HardwareCatalogue::builtin();
    const GpuSpec* gpu = cat.find(p.text("gpu"));
    Precision precision = *parsePrecision(p.text("precision"));
    // A GPU without the precision (FP8 on A100) falls back to BF16 rather than drawing
    // a roof that does not exist; the step text says so.
    const bool fellBack = !peakTflops(*gpu, precision).has_value();
    if (fellBack)
        precision = Precision::BF16;
    const Setup s{gpu,
                  precision,
                  *peakTflops(*gpu, precision),
                  bandwidthTBs(*gpu),
                  static_cast<double>(p.integer("batch")),
                  p.number("params"),
                  p.number("weight-bytes")};
    const std::string gpuName = gpu->name;
    const std::string precisionText = precisionTitle(precision);

    // Probe ceilings replay a recording made on this GPU, else the catalogue peaks as a trace.
    RecordingChoice choice = chooseRecording(*this, kRooflineProbesKind, p);
    auto probes = std::make_shared<const Trace>(choice.trace ? std::move(*choice.trace)
                                                             : modeledRooflineProbes(*gpu));

    Story story;
    story.provenance =
        withReplayNote(replayProvenance(*probes, "roofline from catalogue peaks"), choice);
    story.steps.push_back(
        {"The memory roof",
         "A kernel that does I FLOPs per byte can never run faster than bandwidth × I. On " +
             gpuName + " that is " + formatNumber(s.bandwidth) + " TB/s times the intensity.",
         3.0, [s](double t) {
             ChartFrame f = baseChart(s, "Memory roof · " + s.gpu->name);
             const double xEnd =
                 std::exp(std::log(kXMin) + t * (std::log(kXMax) - std::log(kXMin)));
             ChartSeries roof;
             roof.name = "HBM " + formatNumber(s.bandwidth) + " TB/s";
             roof.colorIndex = 6;
             roof.points = {
                 {kXMin, s.bandwidth * kXMin},
                 {std::max(xEnd, kXMin * 1.01), s.bandwidth * std::max(xEnd, kXMin * 1.01)}};
             f.series.push_back(roof);
             return Frames{{f}};
         }});
    story.steps.push_back(
        {"The compute roof and the ridge point",
         "The " + precisionText +
             " peak caps everything. The roofs meet at the ridge, peak ÷ "
             "bandwidth = " +
             formatSignificant(ridgeFlopPerByte(s.peak, s.bandwidth), 4) +
             " FLOP/B: left of it a kernel waits on memory, right of it on math." +
             (fellBack ? " (This GPU has no FP8, so BF16 is shown.)" : ""),
         3.0, [s](double) {
             ChartFrame f =
                 baseChart(s, precisionTitle(s.precision) + " roofline · " + s.gpu->name);
             f.series.push_back(precisionRoof(s, s.precision, ChartSeries::Style::Line));
             f.markers.push_back(ridgeMarker(s, s.peak, s.precision, true));
             FactsFrame facts;
             facts.title = s.gpu->name;
             facts.rows.push_back({"peak " + precisionTitle(s.precision),
                                   formatNumber(s.peak) + " TFLOP/s",
                                   cite(*s.gpu, peakField(s.precision)), false});
             facts.rows.push_back({"HBM bandwidth", formatNumber(s.bandwidth) + " TB/s",
                                   cite(*s.gpu, "memory_bandwidth_gbs"), false});
             facts.rows.push_back(
                 {"ridge = peak ÷ bandwidth",
                  formatSignificant(ridgeFlopPerByte(s.peak, s.bandwidth), 4) + " FLOP/B",
                  "derived", true});
             return Frames{{f, facts}};
         }});
    story.steps.push_back(
        {"Every precision has its own ridge",
         "Tensor-core precisions raise the flat roof but not the slanted one, so the ridge moves "
         "right: lower precision needs more reuse per byte to pay off.",
         3.0, [s](double) {
             ChartFrame f = baseChart(s, "Roofs by precision · " + s.gpu->name);
             FactsFrame facts;
             facts.title = "Ridge points, " + s.gpu->name;
             for (Precision q :
                  {Precision::FP32, Precision::TF32, Precision::BF16, Precision::FP8}) {
                 const auto peak = peakTflops(*s.gpu, q);
                 if (!peak)
                     continue;
                 const bool chosen = q == s.precision;
                 f.series.push_back(
                     roofSeries(precisionTitle(q), *peak, s.bandwidth, static_cast<int>(q),
                                chosen ? ChartSeries::Style::Line : ChartSeries::Style::Dashed));
                 f.markers.push_back(ridgeMarker(s, *peak, q, chosen));
                 facts.rows.push_back(
                     {precisionTitle(q),
                      formatSignificant(ridgeFlopPerByte(*peak, s.bandwidth), 4) + " FLOP/B",
                      cite(*s.gpu, peakField(q)), chosen});
             }
             return Frames{{f, facts}};
         }});
    story.steps.push_back(
        {"Where common kernels land",
         "Element-wise kernels and GEMV sit far left of the ridge; only large GEMMs reuse data "
         "enough to reach the compute roof. Hollow dots are estimates.",
         4.0, [s](double t) {
             ChartFrame f = baseChart(s, "Reference kernels · " + s.gpu->name);
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
                 facts.rows.push_back({k.name,
                                       formatSignificant(k.intensity, 3) + " FLOP/B · " +
                                           (pt.memoryBound ? "memory" : "compute") + "-bound",
                                       k.formula, i + 1 == shown});
                 if (i < std::max<size_t>(shown, 1))
                     f.markers.push_back({{k.intensity, pt.attainableTflops},
                                          k.name,
                                          k.formula,
                                          static_cast<int>(k.precision),
                                          k.estimate,
                                          i + 1 == shown});
             }
             return Frames{{f, facts}};
         }});
    story.steps.push_back(
        {"Decode at batch 1",
         "Generating one token reads every weight once and does two FLOPs per weight: about "
         "1 FLOP per byte in BF16. That is hundreds of times left of the ridge.",
         3.0, [s](double) {
             ChartFrame f = baseChart(s, "LLM decode, batch 1 · " + s.gpu->name);
             f.series.push_back(precisionRoof(s, Precision::BF16, ChartSeries::Style::Line));
             f.markers.push_back(decodeMarker(s, *s.gpu, 1, 5));
             return Frames{{f, decodeFacts(s, 1)}};
         }});
    story.steps.push_back(
        {"Batching slides decode toward the ridge",
         "Each extra sequence reuses the same weights, so intensity grows with the batch: "
         "batch " +
             formatNumber(s.batch) + " reaches " +
             formatNumber(decodeEstimate(*gpu, s.parameters, s.batch, s.weightBytes).intensity) +
             " FLOP/B.",
         5.0, [s](double t) {
             // The batch grows geometrically with t so each doubling takes equal time.
             const double b = std::round(std::exp(std::clamp(t, 0.0, 1.0) * std::log(s.batch)));
             ChartFrame f = baseChart(s, "Decode, batch " + formatNumber(b) + " · " + s.gpu->name);
             f.series.push_back(precisionRoof(s, Precision::BF16, ChartSeries::Style::Line));
             f.markers.push_back(
                 ridgeMarker(s, *peakTflops(*s.gpu, Precision::BF16), Precision::BF16, false));
             f.markers.push_back(decodeMarker(s, *s.gpu, b, 5));
             return Frames{{f, decodeFacts(s, b)}};
         }});
    story.steps.push_back(
        {"Same model, other GPUs",
         "Decode speed follows memory bandwidth, not peak FLOP/s: H200 has H100's compute but "
         "4.8 TB/s, so at small batch it generates tokens about 1.4× faster.",
         4.0, [s](double) {
             ChartFrame f = baseChart(s, "BF16 roofs across the catalogue, decode batch " +
                                             formatNumber(s.batch));
             FactsFrame facts;
             facts.title = "Decode ceiling at batch " + formatNumber(s.batch);
             int color = 0;
             for (const auto& g : HardwareCatalogue::builtin().gpus()) {
                 const double peak = *peakTflops(g, Precision::BF16);
                 const bool chosen = &g == s.gpu;
                 f.series.push_back(
                     roofSeries(g.name, peak, bandwidthTBs(g), color,
                                chosen ? ChartSeries::Style::Line : ChartSeries::Style::Dashed));
                 f.markers.push_back(decodeMarker(s, g, s.batch, color));
                 const DecodeEstimate d = decodeEstimate(g, s.parameters, s.batch, s.weightBytes);
                 facts.rows.push_back({g.name, formatSi(d.maxTokensPerS, "tok/s"),
                                       cite(g, "memory_bandwidth_gbs"), chosen});
                 ++color;
             }
             return Frames{{f, facts}};
         }});
    const bool measured = probes->provenance.source != TraceSource::Modeled;
    story.steps.push_back(
        {"Probes against the roofs",
         measured ? std::string("Tight loops of FMAs, tensor-core MMAs and streaming copies "
                                "measure the real ceilings; they land below the datasheet "
                                "roofs, and the kernels sit under them.")
                  : std::string("Without a recording the probes' ceilings are the datasheet "
                                "peaks themselves: run the probes on a GPU to see how far "
                                "below them real kernels land."),
         4.0, [s, probes](double) { return probeFrames(s, *probes); }});
    if (!importedSet().ncu.empty()) {
        std::vector<std::string> paths;
        for (const auto& n : importedSet().ncu)
            paths.push_back(n->path);
        story.provenance += importedNote(paths);
        auto kernels = std::make_shared<const ImportedKernels>(importedKernels());
        std::string narration =
            std::to_string(kernels->launches) +
            " of your launches have FLOPs, DRAM bytes "
            "and a duration and sit where they ran: x = FLOPs ÷ DRAM bytes, y = FLOPs ÷ time.";
        if (kernels->grouped)
            narration += " That is too many dots to read, so each dot is one kernel with its "
                         "launches summed.";
        if (!kernels->skipped.empty())
            narration += " " + std::to_string(kernels->skipped.size()) +
                         " are not plotted; the table says which metric is missing (collect "
                         "them with --section SpeedOfLight_RooflineChart or the "
                         "smsp__sass_thread_inst_executed_op_* and dram__bytes metrics).";
        narration += " The roofs are " + gpuName +
                     "'s, the GPU parameter; the table names the "
                     "device the CSV was measured on.";
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
