#include "gpu/occupancy_scenario.h"

#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "engine/sentence.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/hbm_latency.h"
#include "gpu/ilp_occupancy_recording.h"
#include "gpu/kernel_resource_params.h"
#include "gpu/littles_law.h"
#include "gpu/warp_scheduler_sim.h"
#include "imported/ncu_kernels.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

namespace wb {

namespace {

// The lesson's two kernels: a quarter of the SM's 64 warps with ILP, three quarters without.
constexpr int kFewWarps = 16;
constexpr int kManyWarps = 48;

constexpr const char* kSimSource = "warp-scheduler simulation (4 schedulers, no bandwidth limit)";
constexpr const char* kBandwidthModel =
    "bandwidth = HBM × min(1, simulated loads in flight / Little's-law need)";

FactsFrame calculatorFacts(const GpuSpec& gpu, const OccupancyResult& r) {
    FactsFrame f;
    f.title = fill("%1 · %2 threads, %3 registers, %4 shared",
                   {gpu.name, std::to_string(r.kernel.threadsPerBlock),
                    std::to_string(r.kernel.registersPerThread),
                    formatBytes(r.kernel.sharedPerBlockBytes)});
    auto row = [&](const char* label, int blocks, OccupancyLimiter which) {
        const bool limiting =
            std::find(r.limiters.begin(), r.limiters.end(), which) != r.limiters.end();
        f.rows.push_back({.label = fill("blocks allowed by %1", {label}),
                          .value = std::to_string(blocks),
                          .source = kOccupancyRulesSource,
                          .emphasis = limiting});
    };
    row("warps (64 per SM)", r.blocksByWarps, OccupancyLimiter::Warps);
    row("registers (256 per warp unit)", r.blocksByRegisters, OccupancyLimiter::Registers);
    row("shared memory (128 B units + 1 KB)", r.blocksBySharedMemory,
        OccupancyLimiter::SharedMemory);
    row("the block limit (32 per SM)", r.blocksByBlockLimit, OccupancyLimiter::Blocks);
    f.rows.push_back({.label = fill("occupancy = %1 warps / 64", {std::to_string(r.warpsPerSm)}),
                      .value = fill("%1 %", {formatSignificant(100.0 * r.occupancy, 3)}),
                      .source = kOccupancyRulesSource,
                      .emphasis = true});
    return f;
}

ChartFrame sweepChart(const std::string& title, const std::string& xTitle,
                      const std::vector<OccupancyPoint>& points, double current, double currentOcc,
                      double xMax) {
    ChartFrame f;
    f.title = title;
    f.x = ChartAxis{.title = xTitle, .log = false, .min = 0.0, .max = xMax};
    f.y = ChartAxis{.title = "occupancy (%)", .log = false, .min = 0.0, .max = 100.0};
    ChartSeries s;
    s.name = "occupancy";
    // Draw the staircase as steps: each value holds until the next x.
    for (size_t i = 0; i < points.size(); ++i) {
        const double y = 100.0 * points[i].occupancy;
        if (i > 0)
            s.points.push_back({double(points[i].x), 100.0 * points[i - 1].occupancy});
        s.points.push_back({double(points[i].x), y});
    }
    f.series.push_back(std::move(s));
    f.markers.push_back(
        {.at = {current, 100.0 * currentOcc},
         .label = fill("this kernel: %1 %", {formatSignificant(100.0 * currentOcc, 3)}),
         .tooltip = "the current parameters",
         .colorIndex = 1,
         .estimate = false,
         .emphasis = true});
    f.footnote = "Allocation rules of the CUDA occupancy calculator; shared memory at the "
                 "largest carveout.";
    return f;
}

struct Timelines {
    WarpSchedulerSim one;
    WarpSchedulerSim many;
    WarpSchedulerSim ilp;
};

WarpSchedulerConfig simConfig(int warps, int ilp, int latency) {
    WarpSchedulerConfig c;
    c.warps = warps;
    c.ilp = ilp;
    c.memoryLatency = latency;
    // Long enough for several round trips to memory, so the steady state is what it sustains.
    c.cycles = std::max(2000, 4 * latency);
    return c;
}

// The three configurations' steady-state issue-slot use; `shown` (0 one warp, 1 many
// warps, 2 ILP) is the one the step's timeline draws, emphasised.
FactsFrame simFacts(const Timelines& t, int shown) {
    FactsFrame f;
    f.title = "Issue-slot use in steady state";
    int index = 0;
    for (const WarpSchedulerSim* s : {&t.one, &t.many, &t.ilp}) {
        const auto& c = s->config();
        f.rows.push_back(
            {.label = fill("%1 (%2 occupancy), ILP %3",
                           {formatCount(c.warps, "warp", "warps"),
                            formatShare(static_cast<double>(c.warps) / c.maxWarpsPerSm),
                            std::to_string(c.ilp)}),
             .value = formatShare(s->result().steadyUtilization),
             .source = kSimSource,
             .emphasis = index++ == shown});
    }
    return f;
}

FactsFrame littleFacts(const GpuSpec& gpu, const MemoryParallelism& m, int ilp) {
    FactsFrame f;
    f.title = fill("Little's law on %1", {gpu.name});
    f.rows.push_back({.label = "HBM latency",
                      .value = fill("%1 = %2 cycles", {hbmLatencyText(m.gpuLatency),
                                                       formatSignificant(m.latencyCycles, 3)}),
                      .source = m.latencySource,
                      .emphasis = false});
    f.rows.push_back({.label = "bytes in flight per SM = latency × bandwidth / SMs",
                      .value = formatBytes(m.bytesInFlightPerSm),
                      .source = m.bandwidthSource,
                      .emphasis = true});
    // The two kernels the simulation compares: 25 % occupancy with ILP, 75 % without.
    for (auto [warps, k] : {std::pair{kFewWarps, ilp}, std::pair{kManyWarps, 1}}) {
        f.rows.push_back({.label = fill("%1 × ILP %2 × 128 B",
                                        {formatCount(warps, "warp", "warps"), std::to_string(k)}),
                          .value = formatBytes(bytesInFlightProvided(warps, kBytesPerWarpLoad, k)),
                          .source = "warps × loads per warp × bytes per load",
                          .emphasis = false});
    }
    f.rows.push_back(
        {.label = fill("ILP needed with %1", {formatCount(kFewWarps, "warp", "warps")}),
         .value = std::to_string(ilpNeeded(m.bytesInFlightPerSm, kBytesPerWarpLoad, kFewWarps)),
         .source = "⌈loads needed / warps⌉",
         .emphasis = true});
    return f;
}

// Bytes in flight per SM that warps (TLP) × independent loads (ILP) provide, against what
// Little's law needs to keep HBM busy.
ChartFrame latencyHidingChart(const GpuSpec& gpu, const MemoryParallelism& m, int ilp) {
    ChartFrame f;
    f.title = "Bytes in flight per SM: warps × ILP × 128 B";
    f.x = ChartAxis{.title = "resident warps per SM", .log = false, .min = 0.0, .max = 64.0};
    f.y = ChartAxis{
        .title = "bytes in flight per SM (B)", .log = true, .min = 100.0, .max = 100000.0};
    int colour = 0;
    for (int k : {1, 2, 4, 8}) {
        ChartSeries s;
        s.name = fill("ILP %1", {std::to_string(k)});
        s.colorIndex = colour++;
        s.style = k == ilp || k == 1 ? ChartSeries::Style::Line : ChartSeries::Style::Dashed;
        for (int w = 1; w <= 64; ++w)
            s.points.push_back({double(w), bytesInFlightProvided(w, kBytesPerWarpLoad, k)});
        f.series.push_back(std::move(s));
    }
    ChartSeries needed;
    needed.name = "needed (Little's law)";
    needed.colorIndex = 5;
    needed.style = ChartSeries::Style::Faint;
    needed.points = {{0.0, m.bytesInFlightPerSm}, {64.0, m.bytesInFlightPerSm}};
    f.series.push_back(std::move(needed));
    const double maxWarps = gpu.value("max_warps_per_sm");
    f.markers.push_back(
        {.at = {double(kManyWarps), bytesInFlightProvided(kManyWarps, kBytesPerWarpLoad, 1)},
         .label = fill("%1, ILP 1", {formatShare(kManyWarps / maxWarps)}),
         .tooltip = fill("%1 × 1 load × 128 B", {formatCount(kManyWarps, "warp", "warps")}),
         .colorIndex = 0,
         .estimate = false,
         .emphasis = false});
    f.markers.push_back(
        {.at = {double(kFewWarps), bytesInFlightProvided(kFewWarps, kBytesPerWarpLoad, ilp)},
         .label = fill("%1, ILP %2", {formatShare(kFewWarps / maxWarps), std::to_string(ilp)}),
         .tooltip = fill("%1 × %2 × 128 B", {formatCount(kFewWarps, "warp", "warps"),
                                             formatCount(ilp, "load", "loads")}),
         .colorIndex = 2,
         .estimate = false,
         .emphasis = true});
    f.footnote = fill("Needed = HBM latency × bandwidth ÷ SMs (%1; %2).",
                      {m.latencySource, m.bandwidthSource});
    return f;
}

// GB/s against occupancy, one line per ILP, exactly as the trace holds them: measured points
// for a recording, the simulation × Little's law for the modeled trace.
ChartFrame bandwidthChart(const Trace& trace, int ilp) {
    std::map<int, std::vector<ChartPoint>> byIlp;
    double top = 0.0;
    for (const auto& pt : ilpOccupancyPoints(trace)) {
        byIlp[pt.ilp].push_back({100.0 * pt.occupancy, pt.gbs});
        top = std::max(top, pt.gbs);
    }
    ChartFrame f;
    f.title = fill("Copy bandwidth vs occupancy, per ILP · %1", {trace.provenance.device});
    f.x = ChartAxis{.title = "theoretical occupancy (%)", .log = false, .min = 0.0, .max = 100.0};
    f.y = ChartAxis{
        .title = "bandwidth (GB/s)", .log = false, .min = 0.0, .max = top > 0.0 ? 1.1 * top : 1.0};
    int colour = 0;
    for (auto& [k, points] : byIlp) {
        std::sort(points.begin(), points.end(),
                  [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
        ChartSeries s;
        s.name = fill("ILP %1", {std::to_string(k)});
        s.colorIndex = colour++;
        s.style = k == ilp || k == 1 ? ChartSeries::Style::Line : ChartSeries::Style::Dashed;
        s.points = points;
        f.series.push_back(std::move(s));
    }
    // The story's two kernels, where the trace has them: 75 % at ILP 1 and 25 % at this ILP.
    auto mark = [&](int k, double occupancyPct, bool emphasis) {
        const auto it = byIlp.find(k);
        if (it == byIlp.end())
            return;
        for (const auto& pt : it->second) {
            if (std::fabs(pt.x - occupancyPct) > 1e-6)
                continue;
            f.markers.push_back({.at = pt,
                                 .label = fill("%1 %, ILP %2: %3 GB/s",
                                               {formatSignificant(occupancyPct, 3),
                                                std::to_string(k), formatSignificant(pt.y, 4)}),
                                 .tooltip = describeProvenance(trace.provenance),
                                 .colorIndex = emphasis ? 2 : 0,
                                 .estimate = false,
                                 .emphasis = emphasis});
            return;
        }
    };
    mark(1, 75.0, false);
    mark(ilp, 25.0, true);
    f.footnote = replayProvenance(trace, kBandwidthModel);
    return f;
}

// One launch of the user's Nsight Compute CSV as the occupancy step shows it.
struct ImportedOccupancy {
    std::int64_t id = 0;
    std::string name; // short
    std::string file;
    std::optional<double> achievedPct, theoreticalPct;
    std::optional<std::string> limiter;
    std::optional<int> threads, registers;
    std::optional<double> sharedBytes;
    std::optional<double> calculatorPct; // the calculator for the same block, on the GPU param
    std::string calculatorLimiter;
    std::string calculatorNote; // why there is no prediction, or what it assumed
};

constexpr std::size_t kMaxImportedRows = 12;
// Launches whose points carry tooltips (chart markers); the series hold every launch, since
// Qt Charts needs seconds for thousands of markers.
constexpr std::size_t kMaxImportedTips = 150;

std::vector<ImportedOccupancy> importedOccupancy(const ImportedSet& imported,
                                                 const OccupancyCalculator& calc) {
    std::vector<ImportedOccupancy> out;
    for (const auto& result : imported.ncu) {
        if (!result)
            continue;
        for (const auto& l : result->launches) {
            ImportedOccupancy o;
            o.id = l.id;
            o.name = shortKernelName(l.name);
            o.file = fileNameOf(result->path);
            o.achievedPct = l.achievedOccupancyPct;
            o.theoreticalPct = l.theoreticalOccupancyPct;
            o.limiter = l.occupancyLimiter;
            o.threads = ncuThreadsPerBlock(l);
            o.registers = ncuRegistersPerThread(l);
            o.sharedBytes = ncuSharedPerBlockBytes(l);
            if (!o.threads) {
                o.calculatorNote = "no block size in the CSV: no prediction";
            } else {
                KernelResources k;
                k.threadsPerBlock = *o.threads;
                k.registersPerThread = o.registers.value_or(0);
                k.sharedPerBlockBytes =
                    o.sharedBytes ? static_cast<int>(std::lround(*o.sharedBytes)) : 0;
                try {
                    const OccupancyResult r = calc.compute(k);
                    if (r.blocksPerSm == 0) {
                        o.calculatorNote = "the block does not fit on one SM";
                    } else {
                        o.calculatorPct = 100.0 * r.occupancy;
                        o.calculatorLimiter = limiterWords(r.limiter);
                    }
                } catch (const std::exception& e) {
                    o.calculatorNote = fill("calculator: %1", {e.what()});
                }
                if (o.calculatorPct) {
                    if (!o.registers)
                        o.calculatorNote = "registers not in the CSV: taken as not limiting";
                    if (!o.sharedBytes)
                        o.calculatorNote =
                            fill(o.calculatorNote.empty() ? "%2" : "%1; %2",
                                 {o.calculatorNote, "shared memory not in the CSV: taken as 0"});
                }
            }
            out.push_back(std::move(o));
        }
    }
    return out;
}

std::string pctText(const std::optional<double>& v) {
    return v ? fill("%1 %", {formatSignificant(*v, 3)}) : std::string("not in the CSV");
}

// Achieved and theoretical occupancy per launch (x = launch in file order), with the
// calculator's prediction for the same block on the GPU parameter beside them.
Frames importedOccupancyFrames(const GpuSpec& gpu, const std::vector<ImportedOccupancy>& all) {
    ChartFrame f;
    f.title = fill("Your kernels' occupancy · calculator for %1", {gpu.name});
    f.x = ChartAxis{.title = "launch (order in the file)",
                    .log = false,
                    .min = 0.0,
                    .max = static_cast<double>(all.size()) + 1.0};
    f.y = ChartAxis{.title = "occupancy (%)", .log = false, .min = 0.0, .max = 100.0};
    ChartSeries achieved{.name = "achieved (Nsight Compute)",
                         .points = {},
                         .style = ChartSeries::Style::Line,
                         .colorIndex = 0};
    ChartSeries theoretical{.name = "theoretical (Nsight Compute)",
                            .points = {},
                            .style = ChartSeries::Style::Dashed,
                            .colorIndex = 1};
    ChartSeries predicted{.name = fill("calculator, %1", {gpu.name}),
                          .points = {},
                          .style = ChartSeries::Style::Faint,
                          .colorIndex = 2};
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& o = all[i];
        const double x = static_cast<double>(i) + 1.0;
        const bool tips = i < kMaxImportedTips;
        const std::string who = fill("%1 #%2", {o.name, std::to_string(o.id)});
        const std::string threads =
            o.threads ? fill("%1 threads", {std::to_string(*o.threads)}) : std::string("block ?");
        const std::string block =
            o.registers ? fill("%1, %2 registers", {threads, std::to_string(*o.registers)})
                        : threads;
        if (o.achievedPct) {
            achieved.points.push_back({x, *o.achievedPct});
            if (tips)
                f.markers.push_back({.at = {x, *o.achievedPct},
                                     .label = i < kMaxImportedRows ? o.name : std::string{},
                                     .tooltip = fill("%1: achieved %2 (%3; %4)",
                                                     {who, pctText(o.achievedPct), block, o.file}),
                                     .colorIndex = 0,
                                     .estimate = false,
                                     .emphasis = true});
        }
        if (o.theoreticalPct) {
            theoretical.points.push_back({x, *o.theoreticalPct});
            if (tips)
                f.markers.push_back(
                    {.at = {x, *o.theoreticalPct},
                     .label = "",
                     .tooltip = o.limiter
                                    ? fill("%1: theoretical %2, limited by %3 (%4)",
                                           {who, pctText(o.theoreticalPct), *o.limiter, o.file})
                                    : fill("%1: theoretical %2 (%3)",
                                           {who, pctText(o.theoreticalPct), o.file}),
                     .colorIndex = 1,
                     .estimate = false,
                     .emphasis = false});
        }
        if (o.calculatorPct) {
            predicted.points.push_back({x, *o.calculatorPct});
            if (tips)
                f.markers.push_back(
                    {.at = {x, *o.calculatorPct},
                     .label = "",
                     .tooltip = fill(o.calculatorNote.empty()
                                         ? "%1: calculator %2 on %3 for %4, limited by %5"
                                         : "%1: calculator %2 on %3 for %4, limited by %5 (%6)",
                                     {who, pctText(o.calculatorPct), gpu.name, block,
                                      o.calculatorLimiter, o.calculatorNote}),
                     .colorIndex = 2,
                     .estimate = true,
                     .emphasis = false});
        }
    }
    for (auto* s : {&achieved, &theoretical, &predicted})
        if (!s->points.empty())
            f.series.push_back(*s);
    f.footnote = fill(all.size() > kMaxImportedTips
                          ? "Measured: Nsight Compute (sm__warps_active, "
                            "sm__maximum_warps_per_active_cycle); hollow: the calculator (%1) for "
                            "the GPU parameter. Tooltips on the first %2 launches."
                          : "Measured: Nsight Compute (sm__warps_active, "
                            "sm__maximum_warps_per_active_cycle); hollow: the calculator (%1) for "
                            "the GPU parameter.",
                      {kOccupancyRulesSource, std::to_string(kMaxImportedTips)});

    FactsFrame facts;
    facts.title = fill("Your kernels · calculator on %1", {gpu.id});
    for (std::size_t i = 0; i < all.size() && i < kMaxImportedRows; ++i) {
        const auto& o = all[i];
        // The three occupancies as the value (short enough for a slide column); the launch's
        // shape, limiters and notes on the line below.
        const std::string label = fill("%1 #%2", {o.name, std::to_string(o.id)});
        const std::string value =
            fill("%1 / %2 / %3",
                 {pctText(o.achievedPct), pctText(o.theoreticalPct),
                  o.calculatorPct ? fill("%1 %", {formatSignificant(*o.calculatorPct, 3)})
                                  : std::string("—")});
        // The launch's shape, then what limits it: each part present only when the CSV has it.
        std::string shape = o.threads ? fill("%1 threads", {std::to_string(*o.threads)})
                                      : std::string("block size not in the CSV");
        if (o.registers)
            shape = fill("%1, %2 registers", {shape, std::to_string(*o.registers)});
        if (o.sharedBytes)
            shape = fill("%1, %2 shared", {shape, formatBytes(*o.sharedBytes)});
        if (o.limiter)
            shape = fill("%1 · limited by %2", {shape, *o.limiter});
        if (o.calculatorPct && !o.calculatorLimiter.empty())
            shape = fill("%1 (calculator: %2)", {shape, o.calculatorLimiter});
        if (!o.calculatorNote.empty())
            shape = fill("%1 · %2", {shape, o.calculatorNote});
        const std::string detail = fill("achieved / theoretical / calculator · %1 — %2; %3",
                                        {shape, o.file, kOccupancyRulesSource});
        facts.rows.push_back(
            {.label = label, .value = value, .source = detail, .emphasis = i == 0});
    }
    if (all.size() > kMaxImportedRows)
        facts.rows.push_back({.label = "more launches",
                              .value = std::to_string(all.size() - kMaxImportedRows),
                              .source = "the chart",
                              .emphasis = false});
    return Frames{{f, facts}};
}

} // namespace

std::string OccupancyScenario::question() const {
    return "Is higher occupancy always better?";
}

std::string OccupancyScenario::answer() const {
    return R"(**No. Occupancy is a means to hide latency, and independent work per thread (ILP) hides it too.**

- **The calculator:** blocks per SM = the minimum allowed by warps (64 per SM), registers (64K per SM, allocated in
  units of 256 per warp), shared memory (128-byte units plus 1 KB reserved per block, up to 228 KB on sm_90 /
  164 KB on sm_80) and the block limit (32). Occupancy = resident warps / 64. Example: 128 registers × 256 threads
  → 2 blocks → 16 warps → **25 %**.
- **Little's law:** to keep HBM busy, latency × bandwidth bytes must be in flight: about 1.7 MB on an H100 at an
  assumed 500 ns (no Hopper HBM latency is published; 400–600 ns is the range), about 13 KB or 100 warp-wide
  128-byte loads per SM.
- Those loads can come from many warps with one load each (TLP, high occupancy) or from fewer warps with several
  independent loads each (ILP): **16 warps × ILP 4 = 64 loads in flight, more than 48 warps × ILP 1 = 48**.
- The scheduler simulation shows it: one warp leaves the issue slots idle; 25 % occupancy with ILP 4 keeps up with or
  beats 75 % with ILP 1, and the low-occupancy kernel keeps more registers per thread for tiling (Volkov, "Better
  Performance at Lower Occupancy", GTC 2010).
- So: raise occupancy until latency is hidden, then stop — registers and shared memory spent on reuse are often worth
  more than more warps.)";
}

std::vector<SourceRef> OccupancyScenario::sources() const {
    return {
        {"CUDA C++ Best Practices Guide: occupancy",
         "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/#occupancy"},
        {"CUDA Occupancy Calculator (Nsight Compute)",
         "https://docs.nvidia.com/nsight-compute/NsightCompute/index.html#occupancy-calculator"},
        {"Volkov, Better Performance at Lower Occupancy (GTC 2010)",
         "https://www.nvidia.com/content/GTC-2010/pdfs/2238_GTC2010.pdf"},
        {"NVIDIA Hopper Tuning Guide", "https://docs.nvidia.com/cuda/hopper-tuning-guide/"},
    };
}

std::vector<ParamSpec> OccupancyScenario::parameters() const {
    auto specs = kernelResourceParams();
    specs[2].defaultValue = 128; // registers: the 25 % example
    specs.push_back(ParamSpec::integer("ilp", "Independent loads per thread (ILP)", "", 1, 8, 4));
    return specs;
}

Story OccupancyScenario::build(const Params& p, const ScenarioInputs& in) const {
    const GpuSpec& gpu = gpuParamOf(p);
    const OccupancyCalculator calc(gpu);
    const KernelResources kernel = kernelResourcesOf(p);
    const OccupancyResult r = calc.compute(kernel);
    if (r.blocksPerSm == 0)
        throw std::invalid_argument(
            fill("this block does not fit on one SM of %1 (registers × threads exceed the "
                 "register file)",
                 {gpu.name}));
    const FactsFrame facts = calculatorFacts(gpu, r);
    const ChartFrame byRegisters =
        sweepChart("Occupancy vs registers per thread", "registers per thread",
                   calc.sweepRegisters(kernel), kernel.registersPerThread, r.occupancy, 255);
    const ChartFrame byThreads =
        sweepChart("Occupancy vs threads per block", "threads per block",
                   calc.sweepThreadsPerBlock(kernel), kernel.threadsPerBlock, r.occupancy, 1024);
    const double smemMax = calc.limits().maxSharedPerBlockBytes;
    const ChartFrame bySmem = sweepChart(
        "Occupancy vs shared memory per block", "shared memory per block (B)",
        calc.sweepSharedMemory(kernel, 2048), kernel.sharedPerBlockBytes, r.occupancy, smemMax);

    const int ilp = static_cast<int>(p.integer("ilp"));
    // One latency for the simulation, Little's law and the modeled bandwidth: the GPU's HBM
    // latency in cycles at its clock.
    const MemoryParallelism mem = memoryParallelism(gpu);
    const int latency = static_cast<int>(std::lround(mem.latencyCycles));
    auto sims = std::make_shared<const Timelines>(
        Timelines{WarpSchedulerSim(simConfig(1, 1, latency)),
                  WarpSchedulerSim(simConfig(kManyWarps, 1, latency)),
                  WarpSchedulerSim(simConfig(kFewWarps, ilp, latency))});
    const FactsFrame little = littleFacts(gpu, mem, ilp);
    const ChartFrame hiding = latencyHidingChart(gpu, mem, ilp);

    // The bandwidth step replays a recording made on this GPU, else the modeled grid in the
    // same schema (only built when needed: it runs twenty simulations).
    RecordingChoice choice = chooseRecording(*this, kIlpOccupancyKind, p, in);
    const Trace bandwidth =
        choice.trace ? std::move(*choice.trace) : modeledIlpOccupancy(gpu, latency);
    const ChartFrame measured = bandwidthChart(bandwidth, ilp);

    const double maxWarps = gpu.value("max_warps_per_sm");
    const WarpSchedulerResult& one = sims->one.result();
    const WarpSchedulerResult& many = sims->many.result();
    const WarpSchedulerResult& withIlp = sims->ilp.result();
    const int ilpNeed = ilpNeeded(mem.bytesInFlightPerSm, kBytesPerWarpLoad, kFewWarps);
    const std::string fewWarps = formatCount(kFewWarps, "warp", "warps");
    const std::string manyWarps = formatCount(kManyWarps, "warp", "warps");

    Story story;
    story.provenance = withReplayNote(fill("%1; occupancy calculator, Little's law and the "
                                           "scheduler timelines are modeled on CPU",
                                           {replayProvenance(bandwidth, kBandwidthModel)}),
                                      choice);
    story.results = {
        {"memory (in the GPU's name)", gpu.value("memory_gb") * 1e9},
        {"blocks per SM", r.blocksPerSm},
        {"warps per SM", r.warpsPerSm},
        {"occupancy", r.occupancy},
        {"max warps", maxWarps},
        {"blocks by warps", r.blocksByWarps},
        {"blocks by registers", r.blocksByRegisters},
        {"blocks by shared memory", r.blocksBySharedMemory},
        {"blocks by block limit", r.blocksByBlockLimit},
        {"HBM latency ns", mem.latencyNs * 1e-9},
        {"HBM latency low", mem.gpuLatency.lowNs},
        {"HBM latency high", mem.gpuLatency.highNs * 1e-9},
        {"HBM latency cycles", mem.latencyCycles},
        {"simulated latency cycles", latency},
        {"simulated cycles", sims->one.config().cycles},
        {"steady from", sims->one.config().cycles / 2},
        {"schedulers", sims->one.config().schedulers},
        {"bytes in flight per SM", mem.bytesInFlightPerSm},
        {"few warps", kFewWarps},
        {"many warps", kManyWarps},
        {"one warp", 1},
        {"few share", kFewWarps / maxWarps},
        {"many share", kManyWarps / maxWarps},
        {"one share", 1.0 / maxWarps},
        {"few provided", bytesInFlightProvided(kFewWarps, kBytesPerWarpLoad, ilp)},
        {"many provided", bytesInFlightProvided(kManyWarps, kBytesPerWarpLoad, 1)},
        {"ILP needed", ilpNeed},
        {"one use", one.steadyUtilization},
        {"many use", many.steadyUtilization},
        {"ILP use", withIlp.steadyUtilization},
        {"register unit", 256},
        {"reserved per block", 1024},
        {"shared unit", 128},
        {"block limit", calc.limits().maxBlocksPerSm},
        {"threads", kernel.threadsPerBlock},
        {"registers", kernel.registersPerThread},
        {"shared bytes", kernel.sharedPerBlockBytes},
        {"HBM bandwidth", mem.bandwidthBytesPerS},
        {"SMs", mem.smCount},
        {"bytes in flight", mem.bytesInFlight},
    };
    for (const ChartFrame* c : {&byRegisters, &byThreads, &bySmem})
        for (const ChartMarker& m : c->markers)
            story.results.push_back({"marker", m.at.y / 100.0});
    story.steps.push_back(
        {"What limits resident warps",
         fill("Four resources cap the blocks on an SM and the smallest wins: %1 of %2 fit, "
              "limited by %3, so %4 of %5 are resident (%6).",
              {formatCount(r.blocksPerSm, "block", "blocks"),
               fill("%1 threads", {std::to_string(kernel.threadsPerBlock)}),
               limiterWords(r.limiter), std::to_string(r.warpsPerSm),
               formatCount(static_cast<long long>(maxWarps), "warp", "warps"),
               formatShare(r.occupancy)}),
         3.0, [byRegisters, facts](double) {
             return Frames{{byRegisters, facts}};
         }});
    story.steps.push_back(
        {"Block size",
         fill("Blocks are allocated whole, so occupancy moves in steps as the block size "
              "changes; at %1 threads it is %2.",
              {std::to_string(kernel.threadsPerBlock), formatShare(r.occupancy)}),
         3.0, [byThreads, facts](double) {
             return Frames{{byThreads, facts}};
         }});
    story.steps.push_back(
        {"Shared memory",
         fill("Each block's shared memory is rounded up to 128 B plus 1 KB reserved: big tiles "
              "cost resident blocks. %1 per block allow %2.",
              {formatBytes(kernel.sharedPerBlockBytes),
               formatCount(r.blocksBySharedMemory, "block", "blocks")}),
         3.0, [bySmem, facts](double) {
             return Frames{{bySmem, facts}};
         }});
    story.steps.push_back(
        {"Latency needs work in flight",
         fill("Little's law: %1 of HBM latency × %2 = %3 in flight per SM. %4 × ILP %5 give "
              "%6; %7 × ILP 1 give %8.",
              {hbmLatencyText(mem.gpuLatency), formatSi(mem.bandwidthBytesPerS, "B/s", 3),
               formatBytes(mem.bytesInFlightPerSm), fewWarps, std::to_string(ilp),
               formatBytes(bytesInFlightProvided(kFewWarps, kBytesPerWarpLoad, ilp)), manyWarps,
               formatBytes(bytesInFlightProvided(kManyWarps, kBytesPerWarpLoad, 1))}),
         3.0, [hiding, little](double) {
             return Frames{{hiding, little}};
         }});
    const auto simStep = [&](std::string title, std::string narration,
                             const WarpSchedulerSim Timelines::*which, int shown) {
        const FactsFrame simulated = simFacts(*sims, shown);
        story.steps.push_back(
            {std::move(title), std::move(narration), 4.0, [sims, simulated, which](double t) {
                 return Frames{{((*sims).*which).frameAt(t), simulated}};
             }});
    };
    simStep("One warp: the schedulers starve",
            fill("With a single resident warp, each load stalls it for %1 cycles: the %2 "
                 "schedulers use %3 of their issue slots.",
                 {std::to_string(latency), std::to_string(sims->one.config().schedulers),
                  formatShare(one.steadyUtilization)}),
            &Timelines::one, 0);
    simStep(fill("%1 occupancy, ILP 1", {formatShare(kManyWarps / maxWarps)}),
            fill("%1 take turns: while some wait on memory, others issue, and %2 of the issue "
                 "slots are used.",
                 {manyWarps, formatShare(many.steadyUtilization)}),
            &Timelines::many, 1);
    const bool ilpKeepsUp = withIlp.steadyUtilization >= 0.95 * many.steadyUtilization;
    simStep(fill("%1 occupancy, ILP %2", {formatShare(kFewWarps / maxWarps), std::to_string(ilp)}),
            fill(ilpKeepsUp ? "%1, each with %2 in flight, use %3 of the issue "
                              "slots against %4 for %5: as busy with a third of the warps."
                            : "%1, each with %2 in flight, use %3 of the issue "
                              "slots against %4 for %5: too few loads in flight to keep up.",
                 {fewWarps, formatCount(ilp, "independent load", "independent loads"),
                  formatShare(withIlp.steadyUtilization), formatShare(many.steadyUtilization),
                  manyWarps}),
            &Timelines::ilp, 2);
    for (const ChartMarker& m : measured.markers)
        story.results.insert(story.results.end(),
                             {{"measured GB/s", m.at.y}, {"occupancy %", m.at.x}});
    story.steps.push_back(
        {"Bandwidth vs occupancy, per ILP",
         fill("A copy kernel at each occupancy and ILP: bandwidth rises with the loads in "
              "flight, warps × ILP, until HBM's %1 is the limit.",
              {formatSi(mem.bandwidthBytesPerS, "B/s", 3)}),
         3.0, [measured, little](double) {
             return Frames{{measured, little}};
         }});
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("Occupancy = resident warps ÷ %1. Blocks per SM is the smallest of what warps, "
              "registers, shared memory and the block limit allow: here %2 (%3), %4.",
              {formatSignificant(maxWarps, 3), formatCount(r.blocksPerSm, "block", "blocks"),
               limiterWords(r.limiter), formatShare(r.occupancy)}),
         kOccupancyRulesSource},
        {fill("Occupancy only hides latency: %1 × %2 = %3 must be in flight per SM to keep HBM "
              "busy.",
              {hbmLatencyText(mem.gpuLatency), formatSi(mem.bandwidthBytesPerS, "B/s", 3),
               formatBytes(mem.bytesInFlightPerSm)}),
         kLittlesLawSource},
        {fill("Warps × independent loads supply it: %1 × ILP %2 ≈ %3 of the issue slots, %4 × "
              "ILP 1 ≈ %5.",
              {fewWarps, std::to_string(ilp), formatShare(withIlp.steadyUtilization), manyWarps,
               formatShare(many.steadyUtilization)}),
         kSimSource},
        {"So raise occupancy until latency is hidden, then spend registers and shared memory on "
         "reuse (bigger tiles) instead of more warps.",
         kLittlesLawSource},
    };
    story.checks = {
        {fill("What is the occupancy of %1-thread blocks using %2 registers per thread and %3 "
              "of shared memory on %4? (percent)",
              {std::to_string(kernel.threadsPerBlock), std::to_string(kernel.registersPerThread),
               formatBytes(kernel.sharedPerBlockBytes), gpu.name}),
         100.0 * r.occupancy, "%", 0.02,
         fill("%1 per SM (limited by %2) × %3 = %4 of %5 warps = %6.",
              {formatCount(r.blocksPerSm, "block", "blocks"), limiterWords(r.limiter),
               formatCount(r.warpsPerBlock, "warp", "warps"), std::to_string(r.warpsPerSm),
               formatSignificant(maxWarps, 3), formatShare(r.occupancy)})},
        {fill("How many independent loads must each of %1 keep in flight to cover HBM "
              "latency on %2?",
              {fewWarps, gpu.name}),
         static_cast<double>(ilpNeed), "loads", 0.0,
         fill("%1 per SM ÷ 128 B per warp load ÷ %2, rounded up = %3.",
              {formatBytes(mem.bytesInFlightPerSm), fewWarps, std::to_string(ilpNeed)})},
    };
    addWhiteboardStep(story, fill("Occupancy is a means: %1 of in-flight bytes per SM hide "
                                  "the latency, from warps or from ILP.",
                                  {formatBytes(mem.bytesInFlightPerSm)}));
    // The user's own kernels follow the lesson, after its whiteboard answer.
    if (!in.imported.ncu.empty()) {
        std::vector<std::string> paths;
        for (const auto& n : in.imported.ncu)
            paths.push_back(n->path);
        story.provenance += importedNote(paths);
        auto imported = std::make_shared<const std::vector<ImportedOccupancy>>(
            importedOccupancy(in.imported, calc));
        const GpuSpec gpuCopy = gpu;
        story.steps.push_back(
            {"Your kernels' occupancy",
             fill("Your launches as Nsight Compute measured them: achieved occupancy (warps "
                  "actually resident) against the theoretical limit, with the calculator's "
                  "prediction for the same block size and registers on %1 beside them. Achieved "
                  "below theoretical means tail effects or imbalance, not resources.",
                  {gpu.name}),
             3.0,
             [gpuCopy, imported](double) { return importedOccupancyFrames(gpuCopy, *imported); }});
    }
    return story;
}

std::optional<std::vector<RecordingInput>>
OccupancyScenario::recordingInputs(const Trace& recording) const {
    return gpuOnlyRecordingInputs(recording);
}

} // namespace wb
