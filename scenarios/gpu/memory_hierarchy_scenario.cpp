#include "gpu/memory_hierarchy_scenario.h"

#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "engine/sentence.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/hbm_latency.h"
#include "gpu/littles_law.h"
#include "gpu/memory_ladder.h"
#include "gpu/staircase_recording.h"
#include "roofline/roofline_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

namespace wb {

namespace {

std::string capacityText(const MemoryLevel& l, double sms) {
    if (l.capacityBytes <= 0.0)
        return "—";
    // On-chip SRAM is sized in binary units (256 KiB per SM), as the tuning guides do.
    if (l.scope == "per SM")
        return fill("%1 KiB per SM × %2", {formatSignificant(l.capacityBytes / sms / 1024.0, 4),
                                           formatSignificant(sms, 4)});
    return formatBytes(l.capacityBytes);
}

std::string nsText(double ns) {
    return formatSi(ns * 1e-9, "s", 3);
}

std::string latencyText(const MemoryLadder& ladder, const MemoryLevel& l) {
    if (l.latencyAssumed)
        return assumedLatencyText(l.latencyLowNs, l.latencyHighNs, ladder.latencyNs(l));
    if (l.farLatencyCycles > 0.0)
        return fill("%1 near · %2 far",
                    {nsText(ladder.latencyNs(l)), nsText(ladder.farLatencyNs(l))});
    if (l.latencyCycles <= 0.0)
        return "—";
    return fill("%1 · %2", {formatCount(std::lround(l.latencyCycles), "cycle", "cycles"),
                            nsText(ladder.latencyNs(l))});
}

// `between` separates a link's per-direction figure from its both-directions one.
std::string bandwidthText(const MemoryLevel& l, std::string_view between = " ") {
    if (l.bandwidthBytesPerS <= 0.0)
        return "—";
    const std::string rate = formatSi(l.bandwidthBytesPerS, "B/s", 3);
    if (l.bidirectionalBytesPerS > 0.0)
        return fill("%1 per direction%2(%3 both)",
                    {rate, between, formatSi(l.bidirectionalBytesPerS, "B/s", 3)});
    return l.bandwidthAssumed ? fill("%1 (assumed)", {rate}) : rate;
}

// Every number the ladder prints, as the values the sweep test reads back.
std::vector<ResultValue> ladderResults(const MemoryLadder& ladder) {
    const double sms = ladder.gpu().value("sm_count");
    std::vector<ResultValue> out{{"SMs", sms}, {"clock GHz", ladder.clockGHz()}};
    for (const MemoryLevel& l : ladder.levels()) {
        out.push_back({fill("%1 capacity", {l.name}), l.capacityBytes});
        out.push_back({fill("%1 KiB per SM", {l.name}), l.capacityBytes / sms / 1024.0});
        out.push_back({fill("%1 cycles", {l.name}), std::round(l.latencyCycles)});
        out.push_back({fill("%1 latency s", {l.name}), ladder.latencyNs(l) * 1e-9});
        out.push_back({fill("%1 far latency s", {l.name}), ladder.farLatencyNs(l) * 1e-9});
        out.push_back({fill("%1 latency low ns", {l.name}), l.latencyLowNs});
        out.push_back({fill("%1 latency high s", {l.name}), l.latencyHighNs * 1e-9});
        out.push_back({fill("%1 bandwidth", {l.name}), l.bandwidthBytesPerS});
        out.push_back({fill("%1 both directions", {l.name}), l.bidirectionalBytesPerS});
    }
    return out;
}

// Little's law for one level: what must be in flight, and what `warps` × `ilp` loads give.
struct InFlight {
    std::string level;
    double latencyNs = 0.0;
    double bandwidth = 0.0;
    double needed = 0.0;      // whole GPU, bytes
    double neededPerSm = 0.0; // bytes
    double providedPerSm = 0.0;
    int warps = 0;
    int ilp = 0;
    int ilpNeeded = 0; // loads per warp that would close the gap at these warps
};

InFlight inFlight(const MemoryLadder& ladder, const std::string& name, int warps, int ilp) {
    const MemoryLevel& l = ladder.level(name);
    InFlight f;
    f.level = name;
    f.latencyNs = ladder.latencyNs(l);
    f.bandwidth = l.bandwidthBytesPerS;
    f.needed = littlesLaw(f.latencyNs * 1e-9, f.bandwidth);
    f.neededPerSm = f.needed / ladder.gpu().value("sm_count");
    f.providedPerSm = bytesInFlightProvided(warps, kBytesPerWarpLoad, ilp);
    f.warps = warps;
    f.ilp = ilp;
    f.ilpNeeded = ilpNeeded(f.neededPerSm, kBytesPerWarpLoad, warps);
    return f;
}

// The ladder with one level emphasised and, when `flight` is given, its Little's-law gauge.
LadderFrame ladderFrame(const MemoryLadder& ladder, const std::string& focus,
                        const InFlight* flight = nullptr) {
    LadderFrame f;
    const double sms = ladder.gpu().value("sm_count");
    f.title = fill("%1 memory hierarchy", {ladder.gpu().name});
    f.clockGHz = ladder.clockGHz();
    for (const auto& l : ladder.levels()) {
        LadderLevel out;
        out.name = l.name;
        out.capacity = capacityText(l, sms);
        out.latencyCycles = l.latencyCycles;
        out.latencyNs = ladder.latencyNs(l);
        out.bandwidthGBs = l.bandwidthBytesPerS / 1e9;
        out.latencyLabel = latencyText(ladder, l);
        // A link's two figures on two lines: the column is narrow, and a wrap must never
        // split a unit ("GB/" | "s").
        out.bandwidthLabel = bandwidthText(l, "\n");
        out.source = l.latencySource;
        if (!l.bandwidthSource.empty() && l.bandwidthSource != l.latencySource)
            out.source = out.source.empty() ? l.bandwidthSource
                                            : fill("%1; %2", {out.source, l.bandwidthSource});
        out.highlight = l.name == focus;
        const std::string latency =
            l.latencyCycles > 0
                ? fill("latency %1 at %2 GHz. ",
                       {latencyText(ladder, l), formatSignificant(l.latencyClockGHz, 4)})
                : std::string{};
        const std::string bandwidth =
            l.bandwidthBytesPerS > 0 ? fill("Bandwidth %1. ", {bandwidthText(l)}) : std::string{};
        out.tip = fill("%1: %2%3", {l.name, latency, bandwidth});
        f.levels.push_back(std::move(out));
    }
    if (flight) {
        f.bytesInFlightNeeded = flight->neededPerSm;
        f.bytesInFlightProvided = flight->providedPerSm;
        f.gaugeLabel = fill("Bytes in flight per SM to keep %1 busy: %2 needed",
                            {flight->level, formatBytes(flight->neededPerSm)});
        f.gaugeSource = kLittlesLawSource;
    }
    return f;
}

const TraceSeries* seriesNamed(const Trace& trace, const std::string& name) {
    for (const auto& s : trace.series)
        if (s.name == name && !s.x.empty() && s.x.size() == s.y.size())
            return &s;
    return nullptr;
}

// What the scenario replays and where it came from (for footnotes).
struct Replay {
    Trace trace;
    std::string origin;     // "live recording", "resources/traces/…"
    RecordingChoice choice; // its note says when a recording of another GPU exists
};

// A recording made on the selected GPU (live, else resources/traces/memory-hierarchy.json) →
// the per-GPU file shipped for this GPU → the model itself. Only traces that carry the latency
// series qualify.
Replay replayFor(const Scenario& scenario, const Params& params, const ScenarioInputs& inputs,
                 const MemoryLadder& ladder) {
    RecordingChoice choice = chooseRecording(scenario, kPointerChaseKind, params, inputs);
    if (choice.trace && seriesNamed(*choice.trace, "load latency")) {
        const bool live = choice.trace->provenance.source == TraceSource::Live;
        Trace trace = std::move(*choice.trace);
        choice.trace.reset();
        return {std::move(trace),
                live ? "live recording" : fill("resources/traces/%1.json", {scenario.id()}),
                choice};
    }
    choice.trace.reset();
    if (auto shipped = shippedPointerChase(ladder.gpu().id);
        shipped && seriesNamed(*shipped, "load latency")) {
        return {std::move(*shipped),
                fill("resources/traces/%1", {pointerChaseFileName(ladder.gpu().id)}), choice};
    }
    return {modeledPointerChase(ladder), "the memory ladder model", choice};
}

// The latency staircase from a recording (today the modeled one shipped in resources/).
ChartFrame staircase(const Replay& replay, const MemoryLadder& ladder, double reveal) {
    ChartFrame f;
    const Trace& recording = replay.trace;
    const double l2 = ladder.gpu().value("l2_cache_mb") * 1e6;
    const TraceSeries& rec = *seriesNamed(recording, "load latency");
    f.title = fill("Pointer-chase latency vs working set · %1", {ladder.gpu().name});
    f.x = ChartAxis{
        .title = "working set (B)", .log = true, .min = rec.x.front(), .max = rec.x.back()};
    f.y = ChartAxis{.title = "load latency (cycles)", .log = true, .min = 10.0, .max = 1000.0};
    ChartSeries s;
    s.name = describeProvenance(recording.provenance);
    s.colorIndex = 0;
    const auto shown = std::max<size_t>(
        2, static_cast<size_t>(std::ceil(reveal * static_cast<double>(rec.x.size()))));
    for (size_t i = 0; i < shown && i < rec.x.size(); ++i)
        s.points.push_back({rec.x[i], rec.y[i]});
    f.series.push_back(std::move(s));
    const double l1 = ladder.gpu().value("l1_shared_per_sm_kb") * 1024.0;
    f.markers.push_back({.at = {l1, ladder.modeledChaseLatencyCycles(l1)},
                         .label = fill("L1 %1 KiB", {formatSignificant(l1 / 1024.0, 4)}),
                         .tooltip = "Beyond the SM's L1 every miss goes to L2",
                         .colorIndex = 3,
                         .estimate = true,
                         .emphasis = false});
    f.markers.push_back({.at = {l2, ladder.modeledChaseLatencyCycles(l2)},
                         .label = fill("L2 %1", {formatBytes(l2)}),
                         .tooltip = "Beyond L2 a growing share of loads goes to HBM",
                         .colorIndex = 3,
                         .estimate = true,
                         .emphasis = false});
    f.footnote =
        fill("Replayed from %1 · %2.", {replay.origin, describeProvenance(recording.provenance)});
    return f;
}

constexpr std::array<const char*, 3> kBandwidthSeries{"read bandwidth", "write bandwidth",
                                                      "copy bandwidth"};

bool hasBandwidth(const Trace& trace) {
    return std::any_of(kBandwidthSeries.begin(), kBandwidthSeries.end(),
                       [&](const char* name) { return seriesNamed(trace, name) != nullptr; });
}

// The recorded bandwidth series exactly as recorded, with the catalogue's HBM bandwidth as
// the line they approach once the working set outgrows L2.
ChartFrame bandwidthChart(const Replay& replay, const MemoryLadder& ladder, double reveal) {
    ChartFrame f;
    f.title = fill("Bandwidth vs working set · %1", {ladder.gpu().name});
    double lo = 0.0;
    double hi = 0.0;
    double top = 0.0;
    int color = 0;
    for (const char* name : kBandwidthSeries) {
        const TraceSeries* rec = seriesNamed(replay.trace, name);
        if (!rec)
            continue;
        ChartSeries s;
        s.name = name;
        s.colorIndex = color++;
        const auto shown = std::max<size_t>(
            2, static_cast<size_t>(std::ceil(reveal * static_cast<double>(rec->x.size()))));
        for (size_t i = 0; i < shown && i < rec->x.size(); ++i)
            s.points.push_back({rec->x[i], rec->y[i]});
        lo = lo > 0.0 ? std::min(lo, rec->x.front()) : rec->x.front();
        hi = std::max(hi, rec->x.back());
        top = std::max(top, *std::max_element(rec->y.begin(), rec->y.end()));
        f.series.push_back(std::move(s));
    }
    const double hbm = ladder.gpu().value("memory_bandwidth_gbs");
    f.x = ChartAxis{
        .title = "working set (B)", .log = true, .min = lo, .max = std::max(hi, lo * 2.0)};
    f.y = ChartAxis{
        .title = "bandwidth (GB/s)", .log = false, .min = 0.0, .max = std::max(top, hbm) * 1.1};
    f.footnote = fill("Replayed from %1. Catalogue HBM bandwidth: %2 GB/s.",
                      {replay.origin, formatSignificant(hbm, 4)});
    return f;
}

// Load latency of each level in ns, the far L2 partition and the HBM range drawn apart.
BarChartFrame latencyBars(const MemoryLadder& ladder) {
    BarChartFrame f;
    f.title = fill("Load latency on %1", {ladder.gpu().name});
    f.series = {"load latency"};
    f.axisTitle = "ns";
    f.unit = BarValueUnit::Seconds;
    f.horizontal = true;
    for (const MemoryLevel& l : ladder.levels()) {
        if (l.latencyCycles <= 0.0)
            continue;
        const double ns = ladder.latencyNs(l);
        if (l.farLatencyCycles > 0.0) {
            f.categories.push_back(
                {.label = fill("%1 near", {l.name}),
                 .segments = {{.value = ns * 1e-9, .series = 0, .tip = latencyText(ladder, l)}},
                 .tip = l.latencySource});
            f.categories.push_back({.label = fill("%1 far", {l.name}),
                                    .segments = {{.value = ladder.farLatencyNs(l) * 1e-9,
                                                  .series = 0,
                                                  .tip = latencyText(ladder, l)}},
                                    .tip = l.latencySource});
            f.emphasis = static_cast<int>(f.categories.size()) - 1;
        } else if (l.latencyAssumed) {
            // No measurement: the bar stands at the assumed value and its label says so.
            f.categories.push_back(
                {.label =
                     fill("%1, assumed inside %2–%3",
                          {l.name, formatSignificant(l.latencyLowNs, 3), nsText(l.latencyHighNs)}),
                 .segments = {{.value = ns * 1e-9, .series = 0, .tip = latencyText(ladder, l)}},
                 .tip = l.latencySource});
        } else {
            f.categories.push_back(
                {.label = l.name,
                 .segments = {{.value = ns * 1e-9, .series = 0, .tip = latencyText(ladder, l)}},
                 .tip = l.latencySource});
        }
    }
    return f;
}

// Bandwidth that leaves the GPU against HBM: one direction, and the other stacked on it.
BarChartFrame linkBars(const MemoryLadder& ladder) {
    BarChartFrame f;
    f.title = "Bandwidth per direction, and both directions as datasheets quote it";
    f.series = {"one direction", "the other direction"};
    f.unit = BarValueUnit::Plain;
    f.horizontal = true;
    for (const char* name : {"HBM", "NVLink peer", "PCIe host", "Network (NIC)"}) {
        const MemoryLevel& l = ladder.level(name);
        BarCategory c{.label = l.name,
                      .segments = {{.value = l.bandwidthBytesPerS / 1e9,
                                    .series = 0,
                                    .tip = bandwidthText(l)}},
                      .tip = l.bandwidthSource};
        if (l.bidirectionalBytesPerS > 0.0)
            c.segments.push_back({.value = (l.bidirectionalBytesPerS - l.bandwidthBytesPerS) / 1e9,
                                  .series = 1,
                                  .tip = bandwidthText(l)});
        f.categories.push_back(std::move(c));
    }
    f.axisTitle = "GB/s";
    f.emphasis = 1;
    return f;
}

// BF16 FLOPs the tensor cores can do per byte each on-GPU level delivers: the reuse a kernel
// needs from that level to stay compute-bound.
BarChartFrame reuseBars(const MemoryLadder& ladder, double peakFlops) {
    BarChartFrame f;
    f.title = fill("BF16 FLOPs per byte each level must be reused at %1",
                   {formatSi(peakFlops, "FLOP/s", 4)});
    f.series = {"FLOP per byte"};
    f.axisTitle = "FLOP/B";
    f.horizontal = true;
    for (const MemoryLevel& l : ladder.levels()) {
        if (l.bandwidthBytesPerS <= 0.0 || l.scope == "per direction")
            continue;
        const double reuse = peakFlops / l.bandwidthBytesPerS;
        f.categories.push_back(
            {.label = fill("%1 (%2)", {l.name, bandwidthText(l)}),
             .segments = {{.value = reuse,
                           .series = 0,
                           .tip = fill("%1 FLOP/B", {formatSignificant(reuse, 3)})}},
             .tip = l.bandwidthSource});
        if (l.name == "HBM")
            f.emphasis = static_cast<int>(f.categories.size()) - 1;
    }
    return f;
}

FactsFrame inFlightFacts(const InFlight& f, double sms) {
    FactsFrame out;
    out.title = fill("Little's law for %1", {f.level});
    out.rows.push_back(
        {.label = "latency × bandwidth = bytes in flight",
         .value = fill("%1 × %2 = %3", {nsText(f.latencyNs), formatSi(f.bandwidth, "B/s", 3),
                                        formatBytes(f.needed)}),
         .source = kLittlesLawSource,
         .emphasis = false});
    out.rows.push_back({.label = fill("per SM (÷ %1)", {formatSignificant(sms, 4)}),
                        .value = formatBytes(f.neededPerSm),
                        .source = "",
                        .emphasis = false});
    out.rows.push_back(
        {.label = "warps × loads per warp × 128\u00a0B",
         .value = fill("%1 × %2 × 128 B = %3", {std::to_string(f.warps), std::to_string(f.ilp),
                                                formatBytes(f.providedPerSm)}),
         .source = "assumed: the warps and loads set in the parameters",
         .emphasis = false});
    out.rows.push_back({.label = "share of what is needed",
                        .value = formatShare(std::min(1.0, f.providedPerSm / f.neededPerSm)),
                        .source = "",
                        .emphasis = true});
    out.rows.push_back({.label = fill("loads per warp that would do it with %1",
                                      {formatCount(f.warps, "warp", "warps")}),
                        .value = std::to_string(f.ilpNeeded),
                        .source = "",
                        .emphasis = false});
    return out;
}

FactsFrame sharedFacts(const MemoryLadder& ladder) {
    const MemoryLevel& smem = ladder.level("Shared memory / L1");
    const double sms = ladder.gpu().value("sm_count");
    FactsFrame f;
    f.title = "Shared memory: 32 banks, 4 bytes each, every clock";
    f.rows.push_back(
        {.label = "per SM per clock",
         .value = "32 banks × 4 B = 128 B",
         .source = "CUDA C++ Programming Guide, shared memory (compute capability 5.x and later)",
         .emphasis = false});
    f.rows.push_back({.label = fill("× %1 SMs × %2 GHz", {formatSignificant(sms, 4),
                                                          formatSignificant(ladder.clockGHz(), 4)}),
                      .value = formatSi(smem.bandwidthBytesPerS, "B/s", 3),
                      .source = smem.bandwidthSource,
                      .emphasis = true});
    f.rows.push_back({.label = "load latency",
                      .value = latencyText(ladder, smem),
                      .source = smem.latencySource,
                      .emphasis = false});
    const MemoryLevel& regs = ladder.level("Registers");
    f.rows.push_back({.label = "a register operand",
                      .value = latencyText(ladder, regs),
                      .source = regs.latencySource,
                      .emphasis = false});
    return f;
}

} // namespace

std::string MemoryHierarchyScenario::question() const {
    return "Walk me through the GPU memory hierarchy with latencies and bandwidths.";
}

std::string MemoryHierarchyScenario::answer() const {
    return R"(**Each level down is bigger, slower and shared by more threads.**

- **Registers** (64K × 32-bit per SM, 256 KB): operands in a few cycles; the fastest storage on the chip.
- **Shared memory / L1** (256 KB per SM on H100, 192 KB on A100): about 30 cycles, 32 banks × 4 B per clock per SM,
  about 33 TB/s across an H100 at 1.98 GHz.
- **L2** (50 MB on H100, 40 MB on A100), shared by all SMs and split in two partitions: a line in the far partition
  costs more (147 ns near, 236 ns far measured on an H800 PCIe).
- **HBM** (80 GB HBM3 at 3.35 TB/s on H100; 141 GB at 4.8 TB/s on H200): about 400–600 ns. A100 was measured at
  about 400 ns; no Hopper figure has been published, so the lesson assumes the middle of the range.
- **Off the GPU:** NVLink 450 GB/s per direction (900 both), PCIe Gen5 about 63 GB/s per direction (128 both),
  a 400 Gb/s NIC 50 GB/s — each an order of magnitude below HBM.
- **Little's law:** bytes in flight = latency × bandwidth, about 1.7 MB for HBM on an H100 or 13 KB per SM: many warps
  (TLP) or several independent loads per thread (ILP).
- **Reuse needed:** 989 BF16 TFLOP/s need about 295 FLOPs per HBM byte but only about 30 per shared-memory byte, which
  is why tiling into shared memory and registers is the whole game.)";
}

std::vector<SourceRef> MemoryHierarchyScenario::sources() const {
    return {
        {"NVIDIA Hopper Tuning Guide", "https://docs.nvidia.com/cuda/hopper-tuning-guide/"},
        {"Luo et al., Benchmarking and Dissecting the Nvidia Hopper GPU Architecture (2024)",
         "https://arxiv.org/abs/2402.13499"},
        {"Luo et al., Dissecting the NVIDIA Hopper Architecture through Microbenchmarking (2025)",
         "https://arxiv.org/abs/2501.12084"},
        {"Abdelkhalik et al., Demystifying the Nvidia Ampere Architecture (2022)",
         "https://arxiv.org/abs/2208.11174"},
        {"NVIDIA H100 datasheet", "https://www.nvidia.com/en-us/data-center/h100/"},
        {"Volkov, Better Performance at Lower Occupancy (GTC 2010)",
         "https://www.nvidia.com/content/gtc-2010/pdfs/2238_gtc2010.pdf"},
    };
}

std::vector<ParamSpec> MemoryHierarchyScenario::parameters() const {
    return {
        ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm"),
        ParamSpec::choice("focus", "Level for Little's law",
                          {"Shared memory / L1", "L2 cache", "HBM"}, "HBM"),
        ParamSpec::integer("warps", "Resident warps per SM", "", 1, 64, 32),
        ParamSpec::integer("ilp", "Independent loads per warp (ILP)", "", 1, 16, 2),
    };
}

Story MemoryHierarchyScenario::build(const Params& p, const ScenarioInputs& in) const {
    const GpuSpec* gpu = HardwareCatalogue::builtin().find(p.text("gpu"));
    auto ladder = std::make_shared<const MemoryLadder>(*gpu);
    const double sms = gpu->value("sm_count");
    const std::string focus = p.text("focus");
    const int warps = static_cast<int>(p.integer("warps"));
    const int ilp = static_cast<int>(p.integer("ilp"));
    const InFlight flight = inFlight(*ladder, focus, warps, ilp);
    const MemoryLevel& regs = ladder->level("Registers");
    const MemoryLevel& smem = ladder->level("Shared memory / L1");
    const MemoryLevel& l2 = ladder->level("L2 cache");
    const MemoryLevel& hbm = ladder->level("HBM");
    const MemoryLevel& nvlink = ladder->level("NVLink peer");
    const MemoryLevel& pcie = ladder->level("PCIe host");
    const double peak = *peakTflops(*gpu, Precision::BF16) * 1e12;

    Story story;
    story.results = ladderResults(*ladder);
    const double share = flight.providedPerSm / flight.neededPerSm;
    story.results.insert(story.results.end(),
                         {{"bytes in flight needed", flight.needed},
                          {"per SM", flight.neededPerSm},
                          {"provided per SM", flight.providedPerSm},
                          {"share provided", std::min(1.0, share)},
                          {"ILP needed", flight.ilpNeeded},
                          {"BF16 peak", peak},
                          {"far / near L2", ladder->farLatencyNs(l2) / ladder->latencyNs(l2)},
                          {"HBM / NVLink", hbm.bandwidthBytesPerS / nvlink.bandwidthBytesPerS},
                          {"HBM / PCIe", hbm.bandwidthBytesPerS / pcie.bandwidthBytesPerS},
                          {"L2 clock", l2.latencyClockGHz}});
    for (const MemoryLevel& l : ladder->levels())
        if (l.bandwidthBytesPerS > 0.0 && l.scope != "per direction")
            story.results.push_back({fill("%1 reuse", {l.name}), peak / l.bandwidthBytesPerS});
    const auto ladderOnly = [ladder](std::string level) {
        return [ladder, level](double) { return Frames{{ladderFrame(*ladder, level)}}; };
    };

    story.steps.push_back(
        {"The ladder",
         fill("Each level down holds more, answers later and is shared by more threads: %1 of "
              "registers answer in %2, %3 of HBM in %4.",
              {formatBytes(regs.capacityBytes), nsText(ladder->latencyNs(regs)),
               formatBytes(hbm.capacityBytes), latencyText(*ladder, hbm)}),
         3.0, ladderOnly("")});
    story.steps.push_back(
        {"Registers and shared memory",
         fill("Registers answer in %1; shared memory in %2, %3 per clock on each of the %4 SMs: "
              "%5 across the GPU.",
              {formatCount(std::lround(regs.latencyCycles), "cycle", "cycles"),
               formatCount(std::lround(smem.latencyCycles), "cycle", "cycles"), "128 B",
               formatSignificant(sms, 4), formatSi(smem.bandwidthBytesPerS, "B/s", 3)}),
         3.0, [ladder](double) {
             return Frames{{ladderFrame(*ladder, "Shared memory / L1"), sharedFacts(*ladder)}};
         }});
    story.results.insert(story.results.end(),
                         {{"bytes per clock per SM", 128.0}, {"banks", 32}, {"bytes per bank", 4}});
    const double farRatio = ladder->farLatencyNs(l2) / ladder->latencyNs(l2);
    story.steps.push_back(
        {"L2: one cache, two partitions",
         fill("Every SM shares the %1 L2, split in two partitions: a hit in the near one takes "
              "%2, in the far one %3 (%4× as long), measured at %5 GHz. HBM takes %6.",
              {formatBytes(l2.capacityBytes), nsText(ladder->latencyNs(l2)),
               nsText(ladder->farLatencyNs(l2)), formatSignificant(farRatio, 2),
               formatSignificant(l2.latencyClockGHz, 4), latencyText(*ladder, hbm)}),
         3.0, [ladder](double) {
             return Frames{{latencyBars(*ladder), ladderFrame(*ladder, "L2 cache")}};
         }});
    story.steps.push_back(
        {fill("Little's law for %1", {focus}),
         share >= 1.0
             ? fill("To keep %1 busy, latency × bandwidth = %2 must be in flight, %3 per SM. %4 "
                    "× %5 × 128 B = %6 covers it.",
                    {focus, formatBytes(flight.needed), formatBytes(flight.neededPerSm),
                     formatCount(warps, "warp", "warps"), formatCount(ilp, "load", "loads"),
                     formatBytes(flight.providedPerSm)})
             : fill("To keep %1 busy, latency × bandwidth = %2 must be in flight, %3 per SM. %4 "
                    "× %5 × 128 B = %6 is only %7 of it: %8 per warp would do.",
                    {focus, formatBytes(flight.needed), formatBytes(flight.neededPerSm),
                     formatCount(warps, "warp", "warps"), formatCount(ilp, "load", "loads"),
                     formatBytes(flight.providedPerSm), formatShare(share),
                     formatCount(flight.ilpNeeded, "load", "loads")}),
         3.0, [ladder, flight, sms](double) {
             return Frames{
                 {ladderFrame(*ladder, flight.level, &flight), inFlightFacts(flight, sms)}};
         }});

    // Replay a recording; the model itself stands in only if none exists.
    auto replay = std::make_shared<const Replay>(replayFor(*this, p, in, *ladder));
    story.provenance =
        withReplayNote(fill("%1; ladder: catalogue numbers and microbenchmark papers",
                            {replayProvenance(replay->trace, "pointer-chase staircase from the "
                                                             "memory ladder model")}),
                       replay->choice);
    story.results.push_back({"L1 KiB", gpu->value("l1_shared_per_sm_kb")});
    story.steps.push_back(
        {"The latency staircase",
         fill("A pointer chase over a growing working set steps up each time it outgrows a "
              "cache: past %1 of L1, then past %2 of L2.",
              {fill("%1 KiB", {formatSignificant(gpu->value("l1_shared_per_sm_kb"), 4)}),
               formatBytes(l2.capacityBytes)}),
         5.0, [ladder, replay](double t) {
             return Frames{{staircase(*replay, *ladder, t), ladderFrame(*ladder, "")}};
         }});
    if (hasBandwidth(replay->trace))
        story.steps.push_back(
            {"Bandwidth as the working set grows",
             fill("Streaming bandwidth is highest while the data fits on chip and falls toward "
                  "HBM's %1 once it outgrows the %2 L2.",
                  {formatSi(hbm.bandwidthBytesPerS, "B/s", 3), formatBytes(l2.capacityBytes)}),
             4.0, [ladder, replay](double t) {
                 return Frames{{bandwidthChart(*replay, *ladder, t), ladderFrame(*ladder, "HBM")}};
             }});
    story.steps.push_back(
        {"Off the GPU",
         fill("One direction of NVLink carries %1, HBM %2× that and PCIe %3× less than HBM: "
              "data that leaves the GPU must be reused far more.",
              {formatSi(nvlink.bandwidthBytesPerS, "B/s", 3),
               formatSignificant(hbm.bandwidthBytesPerS / nvlink.bandwidthBytesPerS, 2),
               formatSignificant(hbm.bandwidthBytesPerS / pcie.bandwidthBytesPerS, 2)}),
         3.0, [ladder](double) {
             return Frames{{linkBars(*ladder), ladderFrame(*ladder, "NVLink peer")}};
         }});
    story.steps.push_back(
        {"Feeding the tensor cores",
         fill("Divide the BF16 peak of %1 by each level's bandwidth: a kernel must reuse each "
              "HBM byte %2 times to stay compute-bound, each shared-memory byte %3 times.",
              {formatSi(peak, "FLOP/s", 4), formatSignificant(peak / hbm.bandwidthBytesPerS, 3),
               formatSignificant(peak / smem.bandwidthBytesPerS, 3)}),
         3.0, [ladder, peak](double) {
             return Frames{{reuseBars(*ladder, peak), ladderFrame(*ladder, "HBM")}};
         }});

    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("Registers (%1) and shared memory / L1 (%2): %3 and %4, %5 across the chip.",
              {formatBytes(regs.capacityBytes), capacityText(smem, sms), latencyText(*ladder, regs),
               latencyText(*ladder, smem), formatSi(smem.bandwidthBytesPerS, "B/s", 3)}),
         smem.latencySource},
        {fill("L2 (%1), shared by all SMs in two partitions: %2.",
              {formatBytes(l2.capacityBytes), latencyText(*ladder, l2)}),
         l2.latencySource},
        {fill("HBM (%1 at %2): %3.",
              {formatBytes(hbm.capacityBytes), formatSi(hbm.bandwidthBytesPerS, "B/s", 3),
               latencyText(*ladder, hbm)}),
         hbm.latencySource},
        {fill("Off the GPU: NVLink %1, PCIe %2.", {bandwidthText(nvlink), bandwidthText(pcie)}),
         nvlink.bandwidthSource},
        {fill("Little's law: %1 × %2 = %3 in flight for %4, %5 per SM, from warps × "
              "independent loads.",
              {nsText(flight.latencyNs), formatSi(flight.bandwidth, "B/s", 3),
               formatBytes(flight.needed), focus, formatBytes(flight.neededPerSm)}),
         kLittlesLawSource},
        {fill("Reuse needed: %1 FLOPs per HBM byte, %2 per shared-memory byte at the BF16 peak.",
              {formatSignificant(peak / hbm.bandwidthBytesPerS, 3),
               formatSignificant(peak / smem.bandwidthBytesPerS, 3)}),
         ""},
    };
    story.checks = {
        {fill("How many bytes must be in flight per SM to keep %1 busy on %2?", {focus, gpu->name}),
         flight.neededPerSm, "B", 0.1,
         fill("%1 × %2 = %3 for the GPU, ÷ %4 SMs = %5.",
              {nsText(flight.latencyNs), formatSi(flight.bandwidth, "B/s", 3),
               formatBytes(flight.needed), formatSignificant(sms, 4),
               formatBytes(flight.neededPerSm)})},
        {"How many BF16 FLOPs must a kernel do per byte it reads from HBM to be compute-bound?",
         peak / hbm.bandwidthBytesPerS, "FLOP/B", 0.1,
         fill("%1 ÷ %2 = %3 FLOP/B.",
              {formatSi(peak, "FLOP/s", 4), formatSi(hbm.bandwidthBytesPerS, "B/s", 3),
               formatSignificant(peak / hbm.bandwidthBytesPerS, 3)})},
    };
    addWhiteboardStep(story, fill("Registers → shared memory → L2 → HBM → NVLink → PCIe: each "
                                  "step down is slower, so %1 must be in flight per SM to hide %2.",
                                  {formatBytes(flight.neededPerSm), focus}));
    return story;
}

std::optional<std::vector<RecordingInput>>
MemoryHierarchyScenario::recordingInputs(const Trace& recording) const {
    return gpuOnlyRecordingInputs(recording);
}
} // namespace wb
