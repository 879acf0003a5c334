#include "gpu/silicon_mapping_scenario.h"

#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "engine/sentence.h"
#include "gpu/block_placement_recording.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/kernel_resource_params.h"
#include "gpu/thread_map.h"
#include "gpu/wave_model.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

FactsFrame mappingFacts(const GpuSpec& gpu, const OccupancyResult& occ, const WaveSummary& w,
                        const Trace& placement) {
    FactsFrame f;
    f.title = gpu.name;
    f.rows.push_back({.label = "SMs",
                      .value = formatSignificant(gpu.value("sm_count"), 4),
                      .source = HardwareCatalogue::builtin().citation(gpu, "sm_count"),
                      .emphasis = false});
    f.rows.push_back({.label = fill("blocks per SM (limit: %1)", {limiterWords(occ.limiter)}),
                      .value = std::to_string(occ.blocksPerSm),
                      .source = kOccupancyRulesSource,
                      .emphasis = true});
    f.rows.push_back(
        {.label = "warps per SM",
         .value = fill("%1 of %2", {std::to_string(occ.warpsPerSm),
                                    formatSignificant(gpu.value("max_warps_per_sm"), 3)}),
         .source = kOccupancyRulesSource,
         .emphasis = false});
    f.rows.push_back({.label = "blocks per wave = SMs × blocks per SM",
                      .value = std::to_string(w.slotsPerWave),
                      .source = "wave model",
                      .emphasis = false});
    f.rows.push_back({.label = "waves = ⌈blocks / per wave⌉",
                      .value = std::to_string(w.waves),
                      .source = "wave model",
                      .emphasis = true});
    f.rows.push_back({.label = "last wave filled",
                      .value = formatShare(w.tailUtilization),
                      .source = "wave model",
                      .emphasis = true});
    const bool modeled = placement.provenance.source == TraceSource::Modeled;
    f.rows.push_back(
        {.label = "block → SM placement",
         .value = modeled ? std::string("round-robin (model)") : std::string("recorded %smid"),
         .source = describeProvenance(placement.provenance),
         .emphasis = false});
    return f;
}

// What the launch asks for: the inputs every later number follows from.
FactsFrame launchFacts(const GpuSpec& gpu, const KernelResources& k, const OccupancyResult& occ,
                       int blocks) {
    FactsFrame f;
    f.title = fill("The launch: <<<%1, %2>>> on %3",
                   {std::to_string(blocks), std::to_string(k.threadsPerBlock), gpu.name});
    f.rows.push_back({.label = "blocks in the grid",
                      .value = std::to_string(blocks),
                      .source = "parameter",
                      .emphasis = true});
    f.rows.push_back({.label = "threads per block",
                      .value = std::to_string(k.threadsPerBlock),
                      .source = "parameter",
                      .emphasis = false});
    f.rows.push_back({.label = "warps per block = ⌈threads / 32⌉",
                      .value = std::to_string(occ.warpsPerBlock),
                      .source = "CUDA C++ Programming Guide, SIMT architecture",
                      .emphasis = false});
    f.rows.push_back({.label = "registers per thread",
                      .value = std::to_string(k.registersPerThread),
                      .source = "parameter (what the compiler allocates)",
                      .emphasis = false});
    f.rows.push_back({.label = "shared memory per block",
                      .value = formatBytes(k.sharedPerBlockBytes),
                      .source = "parameter",
                      .emphasis = false});
    f.rows.push_back({.label = "SMs",
                      .value = formatSignificant(gpu.value("sm_count"), 4),
                      .source = HardwareCatalogue::builtin().citation(gpu, "sm_count"),
                      .emphasis = false});
    return f;
}

// Every value the slides may quote, in the unit of its quantity.
std::vector<ResultValue> mappingResults(const GpuSpec& gpu, const OccupancyCalculator& calc,
                                        const OccupancyResult& occ, const WaveSummary& w) {
    const KernelResources& k = occ.kernel;
    const int lastWaveBlocks = w.blocks - (w.waves - 1) * w.slotsPerWave;
    return {{"SMs", gpu.value("sm_count")},
            {"memory (in the GPU's name)", gpu.value("memory_gb") * 1e9},
            {"max warps per SM", gpu.value("max_warps_per_sm")},
            {"warp size", smLimitsOf(gpu).warpSize},
            {"schedulers per SM", calc.rules().subPartitions},
            {"threads per block", k.threadsPerBlock},
            {"registers per thread", k.registersPerThread},
            {"shared memory per block", k.sharedPerBlockBytes},
            {"warps per block", occ.warpsPerBlock},
            {"idle lanes in the last warp",
             occ.warpsPerBlock * smLimitsOf(gpu).warpSize - k.threadsPerBlock},
            {"blocks per SM", occ.blocksPerSm},
            {"warps per SM", occ.warpsPerSm},
            {"blocks", w.blocks},
            {"blocks per wave", w.slotsPerWave},
            {"waves", w.waves},
            {"full waves", w.waves - 1},
            {"last wave filled", w.tailUtilization},
            {"blocks in the last wave", lastWaveBlocks},
            {"idle slots in the last wave", w.slotsPerWave - lastWaveBlocks}};
}

} // namespace

std::string SiliconMappingScenario::question() const {
    return "What does a thread block map to in hardware? What happens when you launch more "
           "blocks than fit?";
}

std::string SiliconMappingScenario::answer() const {
    return R"(**Grid → GPU, block → one SM, warp → one of the SM's four schedulers, thread → a lane.**

- A block is placed whole on one SM and stays there until it finishes; its warps are spread over the SM's
  **4 sub-partitions** (warp schedulers). Threads of a block can share shared memory and `__syncthreads()`
  because they are on the same SM.
- How many blocks fit on an SM at once is the **occupancy** question: limited by warps (64 per SM), registers
  (64K per SM), shared memory (up to 228 KB on H100) and blocks (32 per SM).
- More blocks than fit run in **waves**: waves = ⌈blocks / (SMs × blocks per SM)⌉. H100 has **132 SMs**, A100 108.
- The **tail wave** is the last, partly filled one. It takes about as long as a full wave, so its empty
  slots are paid for in time: a grid one block past a whole wave runs a second wave with a single block,
  and for that wave almost the whole GPU idles. Size grids in multiples of the wave, or use enough small
  blocks that the tail is short. The answer above works this run's numbers.
- The hardware scheduler's real placement order is not documented; the view places blocks round-robin, and the
  live issue records the real `%smid`.)";
}

std::vector<SourceRef> SiliconMappingScenario::sources() const {
    return {
        {"CUDA C++ Programming Guide: hardware implementation",
         "https://docs.nvidia.com/cuda/cuda-c-programming-guide/#hardware-implementation"},
        {"NVIDIA Hopper Tuning Guide", "https://docs.nvidia.com/cuda/hopper-tuning-guide/"},
        {"NVIDIA H100 Tensor Core GPU Architecture whitepaper",
         "https://resources.nvidia.com/en-us-tensor-core"},
    };
}

std::vector<ParamSpec> SiliconMappingScenario::parameters() const {
    auto specs = kernelResourceParams();
    specs.insert(specs.begin() + 1,
                 ParamSpec::integer("blocks", "Grid size (blocks)", "", 1, 100000, 2000, true));
    return specs;
}

Story SiliconMappingScenario::build(const Params& p, const ScenarioInputs& in) const {
    const GpuSpec& gpu = gpuParamOf(p);
    const OccupancyCalculator calc(gpu);
    const OccupancyResult occ = calc.compute(kernelResourcesOf(p));
    if (occ.blocksPerSm == 0)
        throw std::invalid_argument(
            fill("this block does not fit on one SM of %1 (registers × threads exceed the "
                 "register file)",
                 {gpu.name}));
    const int sms = static_cast<int>(gpu.value("sm_count"));
    const int maxWarps = static_cast<int>(gpu.value("max_warps_per_sm"));
    // Placement replays a recording measured at these parameters, else the wave model's, in
    // one schema. A recording also fixes the blocks per SM, which the compiler's registers
    // decided there: it replays only where these parameters fit as many.
    RecordingChoice choice = chooseRecording(*this, kBlockPlacementKind, p, in);
    if (choice.trace) {
        const auto perSm = choice.trace->metadata.find("blocks_per_sm");
        const std::string fits = std::to_string(occ.blocksPerSm);
        if (perSm == choice.trace->metadata.end() || perSm->second != fits) {
            const std::string ran = perSm == choice.trace->metadata.end() ? "?" : perSm->second;
            choice = {.trace = std::nullopt,
                      .note =
                          fill("a recording from %1 ran %2 blocks per SM; these parameters fit %3",
                               {choice.trace->provenance.device, ran, fits})};
        }
    }
    const Trace placement =
        choice.trace
            ? std::move(*choice.trace)
            : modeledBlockPlacement(WaveModel(static_cast<int>(p.integer("blocks")), sms,
                                              occ.blocksPerSm, occ.warpsPerBlock, maxWarps),
                                    kernelResourcesOf(p), occ.warpsPerBlock, gpu.id, gpu.name);
    auto waves = std::make_shared<const BlockPlacementReplay>(placement, maxWarps);
    const WaveSummary summary = waves->summary();
    const FactsFrame facts = mappingFacts(gpu, occ, summary, placement);
    const KernelResources kernel = kernelResourcesOf(p);
    const FactsFrame launch = launchFacts(gpu, kernel, occ, summary.blocks);
    const int sub = calc.rules().subPartitions;
    // Block 0 is the first block on SM 0, so its warps are that SM's first warp slots.
    const ThreadMapFrame threads =
        threadMapFrame(0, kernel.threadsPerBlock, smLimitsOf(gpu).warpSize, sub);
    const int lastBlocks = summary.blocks - (summary.waves - 1) * summary.slotsPerWave;
    const std::string blocksPerSm = formatCount(occ.blocksPerSm, "block", "blocks");

    Story story;
    story.provenance = withReplayNote(
        replayProvenance(placement, "occupancy calculator and round-robin block placement"),
        choice);
    story.results = mappingResults(gpu, calc, occ, summary);
    // The grid's title names the blocks of the wave it shows (the first, the last full one and
    // the tail): their first and last block ids are results too.
    for (const int wave : {1, std::max(1, summary.waves - 1), summary.waves}) {
        story.results.push_back({"wave shown", wave});
        story.results.push_back({"first block of the wave", (wave - 1) * summary.slotsPerWave});
        story.results.push_back(
            {"last block of the wave", std::min(wave * summary.slotsPerWave, summary.blocks) - 1});
    }
    story.steps.push_back(
        {fill("The launch: %1 on %2 SMs",
              {formatCount(summary.blocks, "block", "blocks"), std::to_string(sms)}),
         fill("A grid of %1 of %2 threads, %3 registers per thread and %4 of shared memory per "
              "block. Each SM has %5 warp schedulers; nothing runs yet.",
              {formatCount(summary.blocks, "block", "blocks"),
               std::to_string(kernel.threadsPerBlock), std::to_string(kernel.registersPerThread),
               formatBytes(kernel.sharedPerBlockBytes), std::to_string(sub)}),
         2.0, [waves, launch](double) {
             return Frames{{waves->waveFrame(0), launch}};
         }});
    story.steps.push_back(
        {"A block lands on one SM",
         fill("The block scheduler places whole blocks on SMs, and a block's %1 spread over that "
              "SM's %2 schedulers (thread t is lane t mod 32 of warp ⌊t/32⌋). %3 %4 per SM, "
              "limited by %5.",
              {formatCount(occ.warpsPerBlock, "warp", "warps"), std::to_string(sub), blocksPerSm,
               occ.blocksPerSm == 1 ? "fits" : "fit", limiterWords(occ.limiter)}),
         3.0, [waves, threads](double) {
             return Frames{{waves->waveFrame(1), threads}};
         }});
    // The waves step rests on the last full wave, so the tail wave after it is a new picture.
    const int restWave = std::max(1, summary.waves - 1);
    story.steps.push_back(
        {"Waves",
         summary.waves == 1
             ? fill("All %1 fit at once: %2 per SM × %3 SMs = %4 slots, so the grid runs in a "
                    "single wave.",
                    {formatCount(summary.blocks, "block", "blocks"), blocksPerSm,
                     std::to_string(sms), std::to_string(summary.slotsPerWave)})
             : fill("More blocks than fit wait for a free slot: %1 per SM × %2 SMs = %3 blocks "
                    "per wave, so %4 run in %5.",
                    {blocksPerSm, std::to_string(sms), std::to_string(summary.slotsPerWave),
                     formatCount(summary.blocks, "block", "blocks"),
                     formatCount(summary.waves, "wave", "waves")}),
         std::max(3.0, summary.waves * 1.0), [waves, facts, restWave](double t) {
             return Frames{{t >= 1.0 ? waves->waveFrame(restWave) : waves->frameAt(t), facts}};
         }});
    story.steps.push_back(
        {"The tail wave",
         summary.tailUtilization >= 1.0
             ? fill("The grid is a whole number of waves: the last one is as full as the rest "
                    "(%1 blocks), so no SM waits on a tail.",
                    {std::to_string(summary.slotsPerWave)})
             : fill("The last wave holds %1 of %2 slots (%3 full), yet it takes about as long as "
                    "a full wave: %4 slots idle until it ends.",
                    {formatCount(lastBlocks, "block", "blocks"),
                     std::to_string(summary.slotsPerWave), formatShare(summary.tailUtilization),
                     std::to_string(summary.slotsPerWave - lastBlocks)}),
         3.0, [waves, facts, n = summary.waves](double) {
             return Frames{{waves->waveFrame(n), facts}};
         }});

    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("A block runs whole on one SM and stays there; its %1 spread over the SM's %2 "
              "warp schedulers, and thread t is lane t mod 32 of warp ⌊t/32⌋.",
              {formatCount(occ.warpsPerBlock, "warp", "warps"), std::to_string(sub)}),
         "CUDA C++ Programming Guide, Hardware Implementation (SIMT architecture)"},
        {fill("%1 of %2 threads %7 per SM on %3, limited by %4: %5 of %6 warps resident.",
              {blocksPerSm, std::to_string(kernel.threadsPerBlock), gpu.name,
               limiterWords(occ.limiter), std::to_string(occ.warpsPerSm),
               formatSignificant(gpu.value("max_warps_per_sm"), 3),
               occ.blocksPerSm == 1 ? "fits" : "fit"}),
         kOccupancyRulesSource},
        {fill("A wave is SMs × blocks per SM = %1 × %2 = %3 blocks; %4 %6 ⌈%4 / %3⌉ = %5.",
              {std::to_string(sms), std::to_string(occ.blocksPerSm),
               std::to_string(summary.slotsPerWave), std::to_string(summary.blocks),
               formatCount(summary.waves, "wave", "waves"),
               summary.blocks == 1 ? "block needs" : "blocks need"}),
         "CUDA C++ Best Practices Guide, occupancy"},
        {summary.tailUtilization >= 1.0
             ? fill("No tail here: %1 blocks fill every wave exactly. Size grids in multiples of "
                    "%2 blocks, or use enough small blocks that a tail is short.",
                    {std::to_string(summary.blocks), std::to_string(summary.slotsPerWave)})
             : fill("The tail wave is %1 full but costs about a whole wave of time: %2 of %3 "
                    "slots idle. Size grids in multiples of %3 blocks, or use enough small blocks "
                    "that a tail is short.",
                    {formatShare(summary.tailUtilization),
                     std::to_string(summary.slotsPerWave - lastBlocks),
                     std::to_string(summary.slotsPerWave)}),
         ""},
    };
    story.checks = {
        {fill("How many blocks of %1 threads fit on one SM at once?",
              {std::to_string(kernel.threadsPerBlock)}),
         static_cast<double>(occ.blocksPerSm), "blocks", 0.0,
         fill("The tightest of the SM's limits (%1) allows %2.",
              {limiterWords(occ.limiter), blocksPerSm})},
        {fill("In how many waves does a grid of %1 run?",
              {formatCount(summary.blocks, "block", "blocks")}),
         static_cast<double>(summary.waves), "waves", 0.0,
         fill("⌈%1 / (%2 SMs × %3 per SM)⌉ = ⌈%1 / %4⌉ = %5.",
              {std::to_string(summary.blocks), std::to_string(sms), std::to_string(occ.blocksPerSm),
               std::to_string(summary.slotsPerWave), std::to_string(summary.waves)})},
    };
    addWhiteboardStep(story, fill("Grid → waves of %1 blocks → one SM per block → %2 "
                                  "schedulers per SM → 32 lanes per warp.",
                                  {std::to_string(summary.slotsPerWave), std::to_string(sub)}));
    return story;
}

std::optional<std::vector<RecordingInput>>
SiliconMappingScenario::recordingInputs(const Trace& recording) const {
    const auto gpu = gpuRecordingInput(recording);
    const auto blocks = recording.metadata.find("blocks");
    const auto threads = recording.metadata.find("threads_per_block");
    if (!gpu || blocks == recording.metadata.end() || threads == recording.metadata.end())
        return std::nullopt;
    return std::vector<RecordingInput>{
        *gpu, {"blocks", blocks->second}, {"threads-per-block", threads->second}};
}

} // namespace wb
