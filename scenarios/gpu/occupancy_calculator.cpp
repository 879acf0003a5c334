#include "gpu/occupancy_calculator.h"

#include "engine/sentence.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace wb {

namespace {

// FACTS.md §12. cuda_occupancy.h gives the same constants to CC 8.x and 9.x: registers per
// warp rounded up to 256 (cudaOccRegAllocationGranularity), 4 sub-partitions
// (cudaOccSubPartitionsPerMultiprocessor, the calculator's "warp allocation granularity"),
// shared memory rounded up to 128 B (cudaOccSMemAllocationGranularity) and 1 KB reserved per
// block (reservedSharedMemPerBlock; Hopper Tuning Guide: "CUDA reserves 1 KB of shared
// memory per thread block").
const std::array<ArchitectureRules, 2>& rulesTable() {
    static const std::array<ArchitectureRules, 2> table{{
        {"9.0", "sm_90", 256, 4, 4, 128, 1024,
         "cuda_occupancy.h (CC 9.0); Hopper Tuning Guide §1.4.1.1"},
        {"8.0", "sm_80", 256, 4, 4, 128, 1024, "cuda_occupancy.h (CC 8.0); Ampere Tuning Guide"},
    }};
    return table;
}

int roundUp(int value, int multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

int asInt(const GpuSpec& gpu, const std::string& field) {
    return static_cast<int>(std::lround(gpu.value(field)));
}

void requireRange(const char* what, int value, int lo, int hi, const char* unit) {
    if (value < lo || value > hi)
        throw std::invalid_argument(
            fill("%1 must be %2…%3%4, got %5",
                 {what, std::to_string(lo), std::to_string(hi), unit, std::to_string(value)}));
}

} // namespace

const ArchitectureRules* architectureRules(std::string_view computeCapability) {
    for (const auto& r : rulesTable())
        if (r.computeCapability == computeCapability)
            return &r;
    return nullptr;
}

SmLimits smLimitsOf(const GpuSpec& gpu) {
    SmLimits l;
    l.warpSize = asInt(gpu, "warp_size");
    l.maxWarpsPerSm = asInt(gpu, "max_warps_per_sm");
    l.maxBlocksPerSm = asInt(gpu, "max_blocks_per_sm");
    l.maxThreadsPerSm = asInt(gpu, "max_threads_per_sm");
    l.maxThreadsPerBlock = asInt(gpu, "max_threads_per_block");
    l.registersPerSm = asInt(gpu, "registers_per_sm");
    l.maxRegistersPerThread = asInt(gpu, "max_registers_per_thread");
    // Shared-memory "KB" in the CUDA documents is 1024 B: cudaDeviceProp reports
    // sharedMemPerMultiprocessor = 233472 = 228 × 1024 on H100.
    l.sharedPerSmBytes = asInt(gpu, "shared_carveout_max_kb") * 1024;
    l.maxSharedPerBlockBytes = asInt(gpu, "max_shared_per_block_kb") * 1024;
    return l;
}

std::string limiterWords(OccupancyLimiter l) {
    switch (l) {
    case OccupancyLimiter::Warps:
        return "warps per SM";
    case OccupancyLimiter::Registers:
        return "registers";
    case OccupancyLimiter::SharedMemory:
        return "shared memory";
    case OccupancyLimiter::Blocks:
        return "blocks per SM";
    }
    return "warps per SM";
}

std::string limiterName(OccupancyLimiter l) {
    switch (l) {
    case OccupancyLimiter::Warps:
        return "warps";
    case OccupancyLimiter::Registers:
        return "registers";
    case OccupancyLimiter::SharedMemory:
        return "shared_memory";
    case OccupancyLimiter::Blocks:
        return "blocks";
    }
    return "warps";
}

OccupancyCalculator::OccupancyCalculator(ArchitectureRules rules, SmLimits limits)
    : m_rules(std::move(rules))
    , m_limits(limits) {}

OccupancyCalculator::OccupancyCalculator(const GpuSpec& gpu)
    : m_limits(smLimitsOf(gpu)) {
    const ArchitectureRules* r = architectureRules(gpu.computeCapability);
    if (!r)
        throw std::invalid_argument(
            fill("no occupancy rules for compute capability %1 (%2); known: 9.0, 8.0",
                 {gpu.computeCapability, gpu.id}));
    m_rules = *r;
}

OccupancyResult OccupancyCalculator::compute(const KernelResources& k) const {
    const SmLimits& l = m_limits;
    requireRange("threads per block", k.threadsPerBlock, 1, l.maxThreadsPerBlock, "");
    requireRange("registers per thread", k.registersPerThread, 0, l.maxRegistersPerThread, "");
    requireRange("shared memory per block", k.sharedPerBlockBytes, 0, l.maxSharedPerBlockBytes,
                 " B");

    OccupancyResult r;
    r.kernel = k;
    // A partial warp still occupies a whole warp slot.
    r.warpsPerBlock = (k.threadsPerBlock + l.warpSize - 1) / l.warpSize;

    // Warp slots: 64 warps (= 2048 threads / 32) per SM.
    const int warpSlots = std::min(l.maxWarpsPerSm, l.maxThreadsPerSm / l.warpSize);
    r.blocksByWarps = warpSlots / r.warpsPerBlock;

    // Registers (FACTS.md §12 steps 1–3): each warp gets regs × 32 rounded up to 256; warps
    // that fit are rounded down to the warp allocation granularity (4), which is the same as
    // giving each of the 4 sub-partitions a quarter of the register file:
    // floor(floor(65536 / rpw) / 4) × 4 = floor(16384 / rpw) × 4.
    if (k.registersPerThread == 0) {
        r.blocksByRegisters = l.maxBlocksPerSm; // unknown register use: not a limit
    } else {
        r.registersPerWarp =
            roundUp(k.registersPerThread * l.warpSize, m_rules.registerAllocationUnit);
        const int warpsByRegisters = l.registersPerSm / r.registersPerWarp /
                                     m_rules.warpAllocationGranularity *
                                     m_rules.warpAllocationGranularity;
        r.blocksByRegisters = warpsByRegisters / r.warpsPerBlock;
    }

    // Shared memory (step 4): the block's bytes plus the 1 KB reservation, rounded up to
    // 128 B, out of the largest carveout. Never zero because of the reservation.
    r.sharedPerBlockAllocated = roundUp(k.sharedPerBlockBytes + m_rules.reservedSharedPerBlock,
                                        m_rules.sharedAllocationGranularity);
    r.blocksBySharedMemory = l.sharedPerSmBytes / r.sharedPerBlockAllocated;

    r.blocksByBlockLimit = l.maxBlocksPerSm;

    r.blocksPerSm = std::min(
        {r.blocksByWarps, r.blocksByRegisters, r.blocksBySharedMemory, r.blocksByBlockLimit});
    r.warpsPerSm = r.blocksPerSm * r.warpsPerBlock;
    r.occupancy = static_cast<double>(r.warpsPerSm) / l.maxWarpsPerSm;

    // Ties are common (32 registers at 256 threads: warps and registers both allow 8); the
    // first in this order is named the limiter, all of them are listed.
    const std::array<std::pair<OccupancyLimiter, int>, 4> byResource{{
        {OccupancyLimiter::Warps, r.blocksByWarps},
        {OccupancyLimiter::Registers, r.blocksByRegisters},
        {OccupancyLimiter::SharedMemory, r.blocksBySharedMemory},
        {OccupancyLimiter::Blocks, r.blocksByBlockLimit},
    }};
    for (const auto& [limiter, blocks] : byResource)
        if (blocks == r.blocksPerSm)
            r.limiters.push_back(limiter);
    r.limiter = r.limiters.front();
    return r;
}

OccupancyPoint OccupancyCalculator::point(int x, const KernelResources& k) const {
    const OccupancyResult r = compute(k);
    return {x, r.blocksPerSm, r.warpsPerSm, r.occupancy};
}

std::vector<OccupancyPoint> OccupancyCalculator::sweepRegisters(const KernelResources& base) const {
    std::vector<OccupancyPoint> points;
    KernelResources k = base;
    for (int regs = 0; regs <= m_limits.maxRegistersPerThread; ++regs) {
        k.registersPerThread = regs;
        points.push_back(point(regs, k));
    }
    return points;
}

std::vector<OccupancyPoint>
OccupancyCalculator::sweepThreadsPerBlock(const KernelResources& base) const {
    std::vector<OccupancyPoint> points;
    KernelResources k = base;
    for (int threads = m_limits.warpSize; threads <= m_limits.maxThreadsPerBlock;
         threads += m_limits.warpSize) {
        k.threadsPerBlock = threads;
        points.push_back(point(threads, k));
    }
    return points;
}

std::vector<OccupancyPoint> OccupancyCalculator::sweepSharedMemory(const KernelResources& base,
                                                                   int stepBytes) const {
    if (stepBytes <= 0)
        throw std::invalid_argument("shared-memory sweep step must be > 0 B, got " +
                                    std::to_string(stepBytes));
    std::vector<OccupancyPoint> points;
    KernelResources k = base;
    const int maxBytes = m_limits.maxSharedPerBlockBytes;
    for (int bytes = 0;; bytes = std::min(bytes + stepBytes, maxBytes)) {
        k.sharedPerBlockBytes = bytes;
        points.push_back(point(bytes, k));
        if (bytes == maxBytes)
            break;
    }
    return points;
}

} // namespace wb
