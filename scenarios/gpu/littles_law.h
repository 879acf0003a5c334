#pragma once
// Little's law for GPU memory: to keep a memory system busy, the work in flight must equal
// latency × throughput (Little 1961; Volkov, "Better Performance at Lower Occupancy", GTC
// 2010). For HBM that is bytes in flight = latency × bandwidth; those bytes come from warps
// (TLP) times independent loads per warp (ILP), which is why low occupancy can still reach
// full bandwidth.
#include "catalogue/hardware_catalogue.h"
#include "gpu/hbm_latency.h"

#include <optional>
#include <string>

namespace wb {

// Where the law and its GPU reading come from, as slides cite it.
inline constexpr const char* kLittlesLawSource =
    "Little (1961); Volkov, Better Performance at Lower Occupancy (GTC 2010)";

// One warp's coalesced 4-byte load: 32 lanes × 4 B, the unit loads in flight are counted in.
inline constexpr double kBytesPerWarpLoad = 128.0;

// The law itself: items in flight = latency (s) × throughput (items/s).
double littlesLaw(double latencyS, double throughputPerS);

struct MemoryParallelism {
    std::string gpuId;
    double latencyNs = 0.0;
    HbmLatency gpuLatency;      // the GPU's own HBM latency and its published range
    double clockGHz = 0.0;      // vector (boost) clock, to express the latency in cycles
    double latencyCycles = 0.0; // latencyNs × clockGHz
    double bandwidthBytesPerS = 0.0;
    int smCount = 0;
    double bytesInFlight = 0.0;      // whole GPU
    double bytesInFlightPerSm = 0.0; // divided evenly over the SMs
    std::string latencySource;
    std::string bandwidthSource;
};

// HBM bandwidth and SM count from the catalogue; the latency is `latencyNs` when given
// (must be > 0, else std::invalid_argument), otherwise the GPU's hbmLatency().
MemoryParallelism
memoryParallelism(const GpuSpec& gpu, std::optional<double> latencyNs = {},
                  const HardwareCatalogue& catalogue = HardwareCatalogue::builtin());

// Bytes one SM keeps in flight: warps × independent loads per warp (ILP) × bytes per
// warp-wide load (32 lanes × 4 B = 128 B for a coalesced float load).
double bytesInFlightProvided(int warpsPerSm, double bytesPerWarpLoad, int ilp);

// The same demand counted in independent warp-wide loads: ⌈bytes per SM / bytes per load⌉.
int warpLoadsInFlightNeeded(double bytesInFlightPerSm, double bytesPerWarpLoad);
// Independent loads each of `warpsPerSm` warps must have outstanding: ⌈loads / warps⌉.
int ilpNeeded(double bytesInFlightPerSm, double bytesPerWarpLoad, int warpsPerSm);

// Arithmetic latency hidden the same way: independent instructions per SM in flight =
// latency (cycles) × instructions issued per cycle (4 schedulers × 1 = 4): 4 × 4 = 16 for a
// dependent FMA (FACTS.md §2.1).
double instructionsInFlightNeeded(double latencyCycles, double issuePerCycle);

} // namespace wb
