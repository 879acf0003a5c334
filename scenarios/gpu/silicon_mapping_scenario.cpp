#include "gpu/silicon_mapping_scenario.h"

#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "gpu/block_placement_recording.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/kernel_resource_params.h"
#include "gpu/wave_model.h"

#include <memory>
#include <stdexcept>

namespace wb {

namespace {

FactsFrame mappingFacts(const GpuSpec& gpu, const OccupancyResult& occ, const WaveSummary& w,
                        const Trace& placement) {
    FactsFrame f;
    f.title = gpu.name;
    f.rows.push_back({"SMs", formatSignificant(gpu.value("sm_count"), 4),
                      HardwareCatalogue::builtin().citation(gpu, "sm_count"), false});
    f.rows.push_back({"blocks per SM (limit: " + limiterName(occ.limiter) + ")",
                      std::to_string(occ.blocksPerSm), kOccupancyRulesSource, true});
    f.rows.push_back({"warps per SM",
                      std::to_string(occ.warpsPerSm) + " of " +
                          formatSignificant(gpu.value("max_warps_per_sm"), 3),
                      kOccupancyRulesSource, false});
    f.rows.push_back({"blocks per wave = SMs × blocks per SM", std::to_string(w.slotsPerWave),
                      "wave model", false});
    f.rows.push_back({"waves = ⌈blocks / per wave⌉", std::to_string(w.waves), "wave model", true});
    f.rows.push_back({"last wave filled", formatSignificant(100.0 * w.tailUtilization, 3) + " %",
                      "wave model", true});
    const bool modeled = placement.provenance.source == TraceSource::Modeled;
    f.rows.push_back({"block → SM placement",
                      modeled ? std::string("round-robin (model)") : std::string("recorded %smid"),
                      describeProvenance(placement.provenance), false});
    return f;
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
- The **tail wave** is the last, partly filled one: with 2,000 blocks of 256 threads at 8 blocks/SM on an H100,
  1,056 fit per wave, so the second wave is only 89 % full; a grid of 1,057 blocks would run a second wave with one
  block — nearly half the GPU idle for a whole wave. Size grids in multiples of the wave, or make blocks small enough
  that the tail is short.
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

Story SiliconMappingScenario::build(const Params& p) const {
    const GpuSpec& gpu = gpuParamOf(p);
    const OccupancyCalculator calc(gpu);
    const OccupancyResult occ = calc.compute(kernelResourcesOf(p));
    if (occ.blocksPerSm == 0)
        throw std::invalid_argument("this block does not fit on one SM of " + gpu.name +
                                    " (registers × threads exceed the register file)");
    const int sms = static_cast<int>(gpu.value("sm_count"));
    const int maxWarps = static_cast<int>(gpu.value("max_warps_per_sm"));
    // Placement replays a recording measured at these parameters, else the wave model's, in
    // one schema. A recording also fixes the blocks per SM, which the compiler's registers
    // decided there: it replays only where these parameters fit as many.
    RecordingChoice choice = chooseRecording(*this, kBlockPlacementKind, p);
    if (choice.trace) {
        const auto perSm = choice.trace->metadata.find("blocks_per_sm");
        const std::string fits = std::to_string(occ.blocksPerSm);
        if (perSm == choice.trace->metadata.end() || perSm->second != fits) {
            const std::string ran = perSm == choice.trace->metadata.end() ? "?" : perSm->second;
            choice = {std::nullopt, "a recording from " + choice.trace->provenance.device +
                                        " ran " + ran + " blocks per SM; these parameters fit " +
                                        fits};
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

    Story story;
    story.provenance = withReplayNote(
        replayProvenance(placement, "occupancy calculator and round-robin block placement"),
        choice);
    story.steps.push_back({"The GPU: " + std::to_string(sms) + " SMs",
                           "Each SM has four warp schedulers (sub-partitions). Nothing runs yet.",
                           2.0, [waves, facts](double) {
                               return Frames{{waves->waveFrame(0), facts}};
                           }});
    story.steps.push_back(
        {"A block lands on one SM",
         "The block scheduler places whole blocks on SMs; a block's warps spread over that "
         "SM's four schedulers. " +
             std::to_string(occ.blocksPerSm) + " blocks fit per SM (" + limiterName(occ.limiter) +
             " limit).",
         3.0, [waves, facts](double) {
             return Frames{{waves->waveFrame(1), facts}};
         }});
    story.steps.push_back({"Waves",
                           "More blocks than fit wait for a free slot: the grid runs in " +
                               std::to_string(summary.waves) + " wave(s) of up to " +
                               std::to_string(summary.slotsPerWave) + " blocks.",
                           std::max(3.0, summary.waves * 1.0), [waves, facts](double t) {
                               return Frames{{waves->frameAt(t), facts}};
                           }});
    story.steps.push_back({"The tail wave",
                           "The last wave is only " +
                               formatSignificant(100.0 * summary.tailUtilization, 3) +
                               " % full: the rest of the GPU idles until it ends.",
                           3.0, [waves, facts, n = summary.waves](double) {
                               return Frames{{waves->waveFrame(n), facts}};
                           }});
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
