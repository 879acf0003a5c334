#include "gpu/littles_law.h"

#include "engine/sentence.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace wb {

namespace {
void requirePositive(const char* what, double v) {
    if (!(v > 0.0) || !std::isfinite(v))
        throw std::invalid_argument(fill("%1 must be > 0, got %2", {what, std::to_string(v)}));
}
} // namespace

double littlesLaw(double latencyS, double throughputPerS) {
    return latencyS * throughputPerS;
}

MemoryParallelism memoryParallelism(const GpuSpec& gpu, std::optional<double> latencyNs,
                                    const HardwareCatalogue& catalogue) {
    MemoryParallelism m;
    m.gpuId = gpu.id;
    m.clockGHz = gpu.value("vector_clock_ghz");
    m.gpuLatency = hbmLatency(gpu, catalogue);
    if (latencyNs) {
        requirePositive("latency (ns)", *latencyNs);
        m.latencyNs = *latencyNs;
        m.latencySource = "given";
    } else {
        m.latencyNs = m.gpuLatency.ns;
        m.latencySource = m.gpuLatency.source;
    }
    m.latencyCycles = m.latencyNs * m.clockGHz;
    // Catalogue bandwidth is decimal GB/s.
    m.bandwidthBytesPerS = gpu.value("memory_bandwidth_gbs") * 1e9;
    m.bandwidthSource = catalogue.citation(gpu, "memory_bandwidth_gbs");
    m.smCount = static_cast<int>(std::lround(gpu.value("sm_count")));
    m.bytesInFlight = littlesLaw(m.latencyNs * 1e-9, m.bandwidthBytesPerS);
    m.bytesInFlightPerSm = m.bytesInFlight / m.smCount;
    return m;
}

double bytesInFlightProvided(int warpsPerSm, double bytesPerWarpLoad, int ilp) {
    return static_cast<double>(warpsPerSm) * bytesPerWarpLoad * ilp;
}

int warpLoadsInFlightNeeded(double bytesInFlightPerSm, double bytesPerWarpLoad) {
    requirePositive("bytes per warp load", bytesPerWarpLoad);
    return static_cast<int>(std::ceil(bytesInFlightPerSm / bytesPerWarpLoad));
}

int ilpNeeded(double bytesInFlightPerSm, double bytesPerWarpLoad, int warpsPerSm) {
    if (warpsPerSm < 1)
        throw std::invalid_argument(
            fill("warps per SM must be ≥ 1, got %1", {std::to_string(warpsPerSm)}));
    const int loads = warpLoadsInFlightNeeded(bytesInFlightPerSm, bytesPerWarpLoad);
    return (loads + warpsPerSm - 1) / warpsPerSm;
}

double instructionsInFlightNeeded(double latencyCycles, double issuePerCycle) {
    return littlesLaw(latencyCycles, issuePerCycle);
}

} // namespace wb
