#include "gpu/memory_hierarchy_scenario.h"

#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "gpu/gpu_recording_input.h"
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
        return formatSignificant(l.capacityBytes / sms / 1024.0, 4) + " KiB per SM × " +
               formatSignificant(sms, 4);
    return formatBytes(l.capacityBytes);
}

// The ladder with one level emphasised and Little's law for it: latency × bandwidth.
LadderFrame ladderFrame(const MemoryLadder& ladder, const std::string& focus) {
    LadderFrame f;
    const double sms = ladder.gpu().value("sm_count");
    f.title = ladder.gpu().name + " memory hierarchy";
    f.clockGHz = ladder.clockGHz();
    for (const auto& l : ladder.levels()) {
        LadderLevel out;
        out.name = l.name;
        out.capacity = capacityText(l, sms);
        out.latencyCycles = l.latencyCycles;
        out.latencyNs = ladder.latencyNs(l);
        out.bandwidthGBs = l.bandwidthBytesPerS / 1e9;
        out.source = l.latencySource;
        if (!l.bandwidthSource.empty() && l.bandwidthSource != l.latencySource)
            out.source += (out.source.empty() ? "" : "; ") + l.bandwidthSource;
        out.highlight = l.name == focus;
        std::string tip = l.name + ": ";
        if (l.latencyCycles > 0)
            tip += formatSignificant(l.latencyCycles, 3) +
                   " cycles = " + formatSignificant(out.latencyNs, 3) + " ns at " +
                   formatSignificant(f.clockGHz, 3) + " GHz. ";
        if (l.bandwidthBytesPerS > 0)
            tip += "Bandwidth " + formatSi(l.bandwidthBytesPerS, "B/s") + ". ";
        if (l.latencyCycles > 0 && l.bandwidthBytesPerS > 0)
            tip += "To keep it busy, " +
                   formatBytes(littlesLaw(out.latencyNs * 1e-9, l.bandwidthBytesPerS)) +
                   " must be in flight.";
        out.tip = tip;
        f.levels.push_back(std::move(out));
    }
    const auto& levels = ladder.levels();
    const auto it = std::find_if(levels.begin(), levels.end(),
                                 [&](const MemoryLevel& l) { return l.name == focus; });
    if (it == levels.end())
        return f;
    const MemoryLevel& lv = *it;
    if (lv.latencyCycles > 0 && lv.bandwidthBytesPerS > 0) {
        f.bytesInFlightNeeded = littlesLaw(ladder.latencyNs(lv) * 1e-9, lv.bandwidthBytesPerS);
        f.gaugeLabel = "Bytes in flight to saturate " + lv.name + ": " +
                       formatBytes(f.bytesInFlightNeeded) + " (" +
                       formatBytes(f.bytesInFlightNeeded / sms) + " per SM)";
        f.gaugeSource = "Little's law: latency × bandwidth";
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
Replay replayFor(const Scenario& scenario, const Params& params, const MemoryLadder& ladder) {
    RecordingChoice choice = chooseRecording(scenario, kPointerChaseKind, params);
    if (choice.trace && seriesNamed(*choice.trace, "load latency")) {
        const bool live = choice.trace->provenance.source == TraceSource::Live;
        Trace trace = std::move(*choice.trace);
        choice.trace.reset();
        return {std::move(trace),
                live ? "live recording" : "resources/traces/" + scenario.id() + ".json", choice};
    }
    choice.trace.reset();
    if (auto shipped = shippedPointerChase(ladder.gpu().id);
        shipped && seriesNamed(*shipped, "load latency")) {
        std::string origin = "resources/traces/";
        origin.append(pointerChaseFileName(ladder.gpu().id));
        return {std::move(*shipped), origin, choice};
    }
    return {modeledPointerChase(ladder), "the memory ladder model", choice};
}

// The latency staircase from a recording (today the modeled one shipped in resources/).
ChartFrame staircase(const Replay& replay, const MemoryLadder& ladder, double reveal) {
    ChartFrame f;
    const Trace& recording = replay.trace;
    const double l2 = ladder.gpu().value("l2_cache_mb") * 1e6;
    const TraceSeries& rec = *seriesNamed(recording, "load latency");
    f.title = "Pointer-chase latency vs working set · " + ladder.gpu().name;
    f.x = ChartAxis{"working set (B)", true, rec.x.front(), rec.x.back()};
    f.y = ChartAxis{"load latency (cycles)", true, 10.0, 1000.0};
    ChartSeries s;
    s.name = describeProvenance(recording.provenance);
    s.colorIndex = 0;
    const auto shown = std::max<size_t>(
        2, static_cast<size_t>(std::ceil(reveal * static_cast<double>(rec.x.size()))));
    for (size_t i = 0; i < shown && i < rec.x.size(); ++i)
        s.points.push_back({rec.x[i], rec.y[i]});
    f.series.push_back(std::move(s));
    const double l1 = ladder.gpu().value("l1_shared_per_sm_kb") * 1024.0;
    f.markers.push_back({{l1, ladder.modeledChaseLatencyCycles(l1)},
                         "L1 " + formatSignificant(l1 / 1024.0, 4) + " KiB",
                         "Beyond the SM's L1 every miss goes to L2",
                         3,
                         true,
                         false});
    f.markers.push_back({{l2, ladder.modeledChaseLatencyCycles(l2)},
                         "L2 " + formatBytes(l2),
                         "Beyond L2 a growing share of loads goes to HBM",
                         3,
                         true,
                         false});
    f.footnote =
        "Replayed from " + replay.origin + " · " + describeProvenance(recording.provenance) + ".";
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
    f.title = "Bandwidth vs working set · " + describeProvenance(replay.trace.provenance);
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
    f.x = ChartAxis{"working set (B)", true, lo, std::max(hi, lo * 2.0)};
    f.y = ChartAxis{"bandwidth (GB/s)", false, 0.0, std::max(top, hbm) * 1.1};
    f.footnote = "Replayed from " + replay.origin +
                 ". Catalogue HBM bandwidth: " + formatSignificant(hbm, 4) + " GB/s.";
    return f;
}

// FLOPs the tensor cores can do per byte each level delivers: how much reuse a kernel
// needs at that level to stay compute-bound.
FactsFrame feedFacts(const MemoryLadder& ladder) {
    FactsFrame f;
    const double peak = *peakTflops(ladder.gpu(), Precision::BF16) * 1e12;
    f.title = "BF16 FLOPs per byte each level must be reused";
    for (const auto& l : ladder.levels()) {
        if (l.bandwidthBytesPerS <= 0)
            continue;
        f.rows.push_back({l.name + " (" + formatSi(l.bandwidthBytesPerS, "B/s") + ")",
                          formatSignificant(peak / l.bandwidthBytesPerS, 3) + " FLOP/B",
                          l.bandwidthSource, l.name == "HBM"});
    }
    return f;
}

} // namespace

std::string MemoryHierarchyScenario::question() const {
    return "Walk me through the GPU memory hierarchy with latencies and bandwidths.";
}

std::string MemoryHierarchyScenario::answer() const {
    return R"(**Each level down is bigger, slower and shared by more threads.**

- **Registers** (64K × 32-bit per SM, 256 KB): operands in ~1–4 cycles; the fastest storage on the chip.
- **Shared memory / L1** (256 KB per SM on H100, 192 KB on A100; up to 228 / 164 KB as shared memory): ~30 cycles,
  32 banks × 4 B per clock per SM ≈ 33 TB/s across an H100 at 1.98 GHz.
- **L2** (50 MB on H100, 40 MB on A100), shared by all SMs and split in two partitions: ~200–300 cycles near,
  350–470 far.
- **HBM** (80 GB HBM3, 3.35 TB/s on H100; 141 GB, 4.8 TB/s on H200): ~450–650 cycles, 400–600 ns.
- **Off the GPU:** NVLink 450 GB/s per direction (900 bidirectional), PCIe Gen5 ≈ 63 GB/s per direction,
  a 400 Gb/s NIC 50 GB/s — each step down is roughly an order of magnitude.
- **Little's law:** bytes in flight = latency × bandwidth. Feeding 3.35 TB/s over ~300 ns needs ~1 MB in flight,
  ~8 KB per SM: many warps (TLP) or several independent loads per thread (ILP).
- **Reuse needed:** H100's 989 BF16 TFLOP/s need ~295 FLOPs per HBM byte but only ~30 per shared-memory byte, which is why
  tiling into shared memory and registers is the whole game.

Latencies are microbenchmark values (Luo et al. 2024/2025, Abdelkhalik et al. 2022); Hopper's HBM latency is a teaching
value inside the published range, not a measurement.)";
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
    };
}

std::vector<ParamSpec> MemoryHierarchyScenario::parameters() const {
    return {
        ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm"),
        ParamSpec::choice("focus", "Level for Little's law",
                          {"Shared memory / L1", "L2 cache", "HBM"}, "HBM"),
    };
}

Story MemoryHierarchyScenario::build(const Params& p) const {
    const GpuSpec* gpu = HardwareCatalogue::builtin().find(p.text("gpu"));
    auto ladder = std::make_shared<const MemoryLadder>(*gpu);
    const std::string focus = p.text("focus");
    Story story;
    auto step = [&](std::string title, std::string narration, std::string level) {
        story.steps.push_back(
            {std::move(title), std::move(narration), 3.0,
             [ladder, level](double) { return Frames{{ladderFrame(*ladder, level)}}; }});
    };
    step("The ladder",
         "Every level down holds more, takes longer and is shared by more "
         "threads. The numbers on each rung carry their source.",
         "");
    step("Registers and shared memory",
         "Registers answer in a few cycles; shared memory in "
         "about thirty, at 128 bytes per clock on every SM.",
         "Shared memory / L1");
    step("L2: one cache for all SMs",
         "L2 is shared by every SM and split in two partitions; "
         "lines in the far one cost more cycles.",
         "L2 cache");
    step("HBM and Little's law",
         "To keep HBM busy, latency × bandwidth bytes must be in flight at once. That is "
         "what many warps or several independent loads per thread provide.",
         focus);
    // Replay a recording; the model itself stands in only if none exists.
    auto replay = std::make_shared<const Replay>(replayFor(*this, p, *ladder));
    story.provenance =
        withReplayNote(replayProvenance(replay->trace, "pointer-chase staircase from the memory "
                                                       "ladder model") +
                           "; ladder: catalogue numbers and microbenchmark papers",
                       replay->choice);
    story.steps.push_back(
        {"The latency staircase",
         "A pointer chase over a growing working set steps up each time it "
         "outgrows a cache: L1, then L2, then HBM.",
         5.0, [ladder, replay](double t) {
             return Frames{{staircase(*replay, *ladder, t), ladderFrame(*ladder, "")}};
         }});
    if (hasBandwidth(replay->trace))
        story.steps.push_back(
            {"Bandwidth as the working set grows",
             "Streaming bandwidth is highest while the data fits on chip and "
             "falls to HBM bandwidth once it outgrows L2.",
             4.0, [ladder, replay](double t) {
                 return Frames{{bandwidthChart(*replay, *ladder, t), ladderFrame(*ladder, "HBM")}};
             }});
    step("Off the GPU",
         "NVLink, PCIe and the network are each about an order of magnitude "
         "below HBM: data that leaves the GPU must be reused far more.",
         "NVLink peer");
    story.steps.push_back({"Feeding the tensor cores",
                           "Divide the BF16 peak by each level's bandwidth: that is the reuse "
                           "a kernel needs from that level to stay compute-bound.",
                           3.0, [ladder](double) {
                               return Frames{{ladderFrame(*ladder, "HBM"), feedFacts(*ladder)}};
                           }});
    return story;
}

std::optional<std::vector<RecordingInput>>
MemoryHierarchyScenario::recordingInputs(const Trace& recording) const {
    return gpuOnlyRecordingInputs(recording);
}
} // namespace wb
