// calc occupancy, waves and littles-law: the occupancy calculator, the wave model and
// Little's law as JSON.
#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "engine/sentence.h"
#include "gpu/littles_law.h"
#include "gpu/occupancy_calculator.h"
#include "gpu/wave_model.h"

#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// Largest opt-in shared memory per block in the catalogue (227 KB on Hopper); the GPU's own
// limit is checked by the calculator.
constexpr double kMaxSmemSpec = 227 * 1024;

std::vector<ParamSpec> kernelArguments() {
    return {
        required(ParamSpec::integer("threads-per-block", "Threads per block", "", 1, 1024, 256)),
        required(ParamSpec::integer("registers-per-thread", "Registers per thread", "", 0, 255, 32,
                                    false, "0 = unknown, registers do not limit")),
        required(ParamSpec::integer("smem-per-block", "Shared memory per block", "B", 0,
                                    kMaxSmemSpec, 0, false,
                                    "static + dynamic, without the 1 KB CUDA reserves"))};
}

KernelResources kernelOf(const Params& p) {
    return {static_cast<int>(p.integer("threads-per-block")),
            static_cast<int>(p.integer("registers-per-thread")),
            static_cast<int>(p.integer("smem-per-block"))};
}

// The calculator's result, or CalcError when the GPU has no rules, the inputs exceed this
// GPU's limits, or the block does not fit on an SM at all.
OccupancyResult occupancyOf(const GpuSpec& gpu, const KernelResources& k) {
    OccupancyResult r;
    try {
        r = OccupancyCalculator(gpu).compute(k);
    } catch (const std::invalid_argument& e) {
        throw CalcError(fill("%1: %2", {gpu.id, e.what()}));
    }
    if (r.blocksPerSm == 0)
        throw CalcError(
            fill("%1: a block of %2 threads × %3 registers does not fit on an SM (%4 "
                 "warps × %5 registers per warp > the SM's register file); the launch "
                 "would fail",
                 {gpu.id, std::to_string(k.threadsPerBlock), std::to_string(k.registersPerThread),
                  std::to_string(r.warpsPerBlock), std::to_string(r.registersPerWarp)}));
    return r;
}

void putOccupancy(Json& j, const OccupancyResult& r) {
    j["threads_per_block"] = r.kernel.threadsPerBlock;
    j["registers_per_thread"] = r.kernel.registersPerThread;
    j["smem_per_block"] = r.kernel.sharedPerBlockBytes;
    j["warps_per_block"] = r.warpsPerBlock;
    j["registers_per_warp"] = r.registersPerWarp;
    j["smem_per_block_allocated"] = r.sharedPerBlockAllocated;
    j["blocks_per_sm"] = r.blocksPerSm;
    j["warps_per_sm"] = r.warpsPerSm;
    j["occupancy"] = r.occupancy;
    j["limiter"] = limiterName(r.limiter);
    Json all = Json::array();
    for (auto l : r.limiters)
        all.push_back(limiterName(l));
    j["limiters"] = all;
    j["limits"] = {{"registers", r.blocksByRegisters},
                   {"shared_memory", r.blocksBySharedMemory},
                   {"warps", r.blocksByWarps},
                   {"blocks", r.blocksByBlockLimit}};
}

Json occupancyCalc(const Params& p) {
    const GpuSpec& gpu = gpuOf(p);
    const OccupancyResult r = occupancyOf(gpu, kernelOf(p));
    Json j;
    j["model"] = "occupancy";
    j["gpu"] = gpu.id;
    j["compute_capability"] = gpu.computeCapability;
    putOccupancy(j, r);
    j["source"] = architectureRules(gpu.computeCapability)->source;
    return j;
}

Json wavesCalc(const Params& p) {
    const GpuSpec& gpu = gpuOf(p);
    const OccupancyResult r = occupancyOf(gpu, kernelOf(p));
    const int sms = static_cast<int>(gpu.value("sm_count"));
    const WaveSummary w = waveSummary(static_cast<int>(p.integer("blocks")), sms, r.blocksPerSm);
    Json j;
    j["model"] = "waves";
    j["gpu"] = gpu.id;
    j["blocks"] = w.blocks;
    putOccupancy(j, r);
    j["sm_count"] = w.smCount;
    j["blocks_per_wave"] = w.slotsPerWave;
    j["waves"] = w.waves;
    j["tail_utilization"] = w.tailUtilization;
    j["source"] = "waves = ceil(blocks / (SMs × blocks per SM)); blocks per SM from the "
                  "occupancy calculator (CUDA C++ Programming Guide, Table 27; cuda_occupancy.h)";
    return j;
}

Json littlesLawCalc(const Params& p) {
    const GpuSpec& gpu = gpuOf(p);
    std::optional<double> latency;
    if (p.isSet("latency-ns"))
        latency = p.number("latency-ns");
    const MemoryParallelism m = memoryParallelism(gpu, latency);
    const double bytesPerLoad = p.number("bytes-per-load");
    Json j;
    j["model"] = "littles-law";
    j["gpu"] = gpu.id;
    j["latency_ns"] = m.latencyNs;
    j["latency_range_ns"] = Json::array({m.gpuLatency.lowNs, m.gpuLatency.highNs});
    j["latency_range_source"] = m.gpuLatency.source;
    j["latency_assumed"] = m.gpuLatency.assumed;
    j["latency_cycles"] = m.latencyCycles;
    j["clock_ghz"] = m.clockGHz;
    j["bandwidth_gbs"] = m.bandwidthBytesPerS / 1e9;
    j["sm_count"] = m.smCount;
    j["bytes_in_flight"] = m.bytesInFlight;
    j["bytes_in_flight_per_sm"] = m.bytesInFlightPerSm;
    j["bytes_per_load"] = bytesPerLoad;
    j["warp_loads_in_flight_per_sm"] = warpLoadsInFlightNeeded(m.bytesInFlightPerSm, bytesPerLoad);
    if (p.isSet("warps-per-sm")) {
        const int warps = static_cast<int>(p.integer("warps-per-sm"));
        j["warps_per_sm"] = warps;
        j["ilp_needed"] = ilpNeeded(m.bytesInFlightPerSm, bytesPerLoad, warps);
    }
    j["latency_source"] = m.latencySource;
    j["bandwidth_source"] = m.bandwidthSource;
    j["source"] = "Little's law: bytes in flight = latency × bandwidth (Volkov, GTC 2010)";
    return j;
}

} // namespace

void appendOccupancyCalcModels(std::vector<CalcModel>& models) {
    std::vector<ParamSpec> occupancyArgs{gpuArgument()};
    for (auto& s : kernelArguments())
        occupancyArgs.push_back(s);
    models.push_back({"occupancy",
                      "resident blocks and warps per SM, occupancy and its limiting resource",
                      occupancyArgs, occupancyCalc});

    std::vector<ParamSpec> wavesArgs = occupancyArgs;
    wavesArgs.insert(wavesArgs.begin() + 1,
                     required(ParamSpec::integer("blocks", "Blocks in the grid", "", 1,
                                                 std::numeric_limits<int>::max(), 1024, true)));
    models.push_back({"waves", "waves of blocks over the SMs and the fill of the last wave",
                      wavesArgs, wavesCalc});

    models.push_back(
        {"littles-law",
         "HBM bytes in flight needed to sustain full bandwidth (latency × bandwidth)",
         {gpuArgument(),
          ParamSpec::real("latency-ns", "Memory latency", "ns", 1, 1e5,
                          hbmLatency(*HardwareCatalogue::builtin().find("h100-sxm")).ns, false,
                          "default: the GPU's HBM latency (see latency_source)"),
          ParamSpec::real("bytes-per-load", "Bytes per warp-wide load", "B", 1, 4096, 128, false,
                          "32 lanes × 4 B"),
          ParamSpec::integer("warps-per-sm", "Resident warps per SM", "", 1, 64, 16)},
         littlesLawCalc});
}

} // namespace wb
