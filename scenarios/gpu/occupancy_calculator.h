#pragma once
// The CUDA occupancy calculator for compute capability 8.0 and 9.0: how many blocks of a
// kernel fit on one SM given its threads per block, registers per thread and shared memory
// per block, and which resource runs out first. The allocation rules (granularities,
// reservations) are per architecture and come from FACTS.md §12 (cuda_occupancy.h, the
// tuning guides); the per-SM limits come from the hardware catalogue.
#include "catalogue/hardware_catalogue.h"

#include <string>
#include <string_view>
#include <vector>

namespace wb {

// Where the occupancy rules come from, as slides cite them.
inline constexpr const char* kOccupancyRulesSource =
    "CUDA Occupancy Calculator rules (cuda_occupancy.h; Hopper Tuning Guide)";

// Allocation rules of one compute capability, as the CUDA occupancy calculator applies them.
struct ArchitectureRules {
    std::string computeCapability;         // "9.0"
    std::string smName;                    // "sm_90"
    int registerAllocationUnit = 256;      // registers per warp are rounded up to this
    int warpAllocationGranularity = 4;     // warps by registers are rounded down to this
    int subPartitions = 4;                 // warp schedulers, each with a quarter of the RF
    int sharedAllocationGranularity = 128; // bytes per block are rounded up to this
    int reservedSharedPerBlock = 1024;     // bytes CUDA keeps per block for system use
    std::string source;
};

// The rules for "9.0" or "8.0"; nullptr for a compute capability the table lacks.
const ArchitectureRules* architectureRules(std::string_view computeCapability);

// Per-SM and per-block hardware limits (FACTS.md §1.1), read from the catalogue.
struct SmLimits {
    int warpSize = 32;
    int maxWarpsPerSm = 64;
    int maxBlocksPerSm = 32;
    int maxThreadsPerSm = 2048;
    int maxThreadsPerBlock = 1024;
    int registersPerSm = 65536;
    int maxRegistersPerThread = 255;
    int sharedPerSmBytes = 228 * 1024;       // the largest carveout, the calculator's default
    int maxSharedPerBlockBytes = 227 * 1024; // opt-in maximum of one block
};
// Throws std::out_of_range (from GpuSpec::field) when the GPU lacks a limit.
SmLimits smLimitsOf(const GpuSpec& gpu);

struct KernelResources {
    int threadsPerBlock = 256;
    int registersPerThread = 32;
    int sharedPerBlockBytes = 0; // static + dynamic, without the 1 KB reservation
};

enum class OccupancyLimiter { Warps, Registers, SharedMemory, Blocks };
std::string limiterName(OccupancyLimiter l); // "warps", "registers", "shared_memory", "blocks"
// The limiter as a slide says it: "warps per SM", "registers", "shared memory", "blocks per SM".
std::string limiterWords(OccupancyLimiter l);

struct OccupancyResult {
    KernelResources kernel;
    int warpsPerBlock = 0;
    int registersPerWarp = 0;        // after rounding to the allocation unit
    int sharedPerBlockAllocated = 0; // bytes, with the reservation and rounding
    // Blocks per SM each resource allows on its own.
    int blocksByWarps = 0;
    int blocksByRegisters = 0;
    int blocksBySharedMemory = 0;
    int blocksByBlockLimit = 0;
    int blocksPerSm = 0; // the minimum; 0 = the block does not fit (too many registers)
    int warpsPerSm = 0;
    double occupancy = 0.0; // warpsPerSm / maxWarpsPerSm, 0–1
    OccupancyLimiter limiter = OccupancyLimiter::Warps;
    std::vector<OccupancyLimiter> limiters; // every resource that allows only blocksPerSm
};

// One point of an occupancy chart: x is the swept input.
struct OccupancyPoint {
    int x = 0;
    int blocksPerSm = 0;
    int warpsPerSm = 0;
    double occupancy = 0.0;
    bool operator==(const OccupancyPoint&) const = default;
};

class OccupancyCalculator {
public:
    OccupancyCalculator(ArchitectureRules rules, SmLimits limits);
    // Throws std::invalid_argument when the catalogue has no rules for the GPU's
    // compute capability.
    explicit OccupancyCalculator(const GpuSpec& gpu);

    const ArchitectureRules& rules() const { return m_rules; }
    const SmLimits& limits() const { return m_limits; }

    // Throws std::invalid_argument naming the allowed range when threads per block are
    // outside 1…1024, registers outside 0…255 or shared memory outside 0…the per-block max.
    // Registers 0 means "not known", as in the calculator: registers then do not limit.
    OccupancyResult compute(const KernelResources& kernel) const;

    // The three charts of the CUDA occupancy calculator, the other inputs held at `base`.
    std::vector<OccupancyPoint> sweepRegisters(const KernelResources& base) const;       // 0…255
    std::vector<OccupancyPoint> sweepThreadsPerBlock(const KernelResources& base) const; // 32…1024
    // 0…the per-block maximum in steps of stepBytes (> 0), the maximum always included.
    std::vector<OccupancyPoint> sweepSharedMemory(const KernelResources& base,
                                                  int stepBytes = 1024) const;

private:
    OccupancyPoint point(int x, const KernelResources& k) const;

    ArchitectureRules m_rules;
    SmLimits m_limits;
};

} // namespace wb
