#pragma once
// Plain C++ entry points of the CUDA kernel families (one .cu per family). No CUDA types
// appear here, so the recorder and the tests include it in every build; the functions are
// defined only when WARPBOARD_CUDA=1, and callers guard their calls with that macro.
// Every function selects the device, checks sizes against free memory, bounds its loops and
// returns a RunError (never exits) when anything fails.
#include "cuda/gpu_runner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

// --- block_placement.cu --------------------------------------------------------------------
struct BlockRecord {
    int block = 0;
    int smid = 0;   // %smid of the SM that ran the block
    int warpid = 0; // %warpid of the block's first warp: a hardware slot, for display only
    int warps = 0;
    std::uint64_t startNs = 0; // %globaltimer
    std::uint64_t endNs = 0;
};
struct BlockPlacementResult {
    int blocks = 0;
    int threadsPerBlock = 0;
    int registersPerThread = 0;
    int smemPerBlock = 0;
    int smCount = 0;
    int blocksPerSm = 0; // occupancy API
    std::vector<BlockRecord> records;
};
// Launches about two and a half waves of blocks that each spin spinCycles (clock64) so
// placement and waves show; spinCycles is clamped to kMaxKernelIterations.
RunResult<BlockPlacementResult> runBlockPlacement(int device, long spinCycles);

// --- divergence.cu -------------------------------------------------------------------------
struct DivergenceRecord {
    std::string kind;  // odd-even, half-warp, ...
    std::string point; // before, then, else, inner-then, inner-else, after
    int block = 0;
    int warp = 0; // within the block
    std::uint32_t mask = 0;
    std::int64_t cycles = 0; // clock64() since the warp's first point
};
struct DivergenceResult {
    int blockDim = 64;
    int blocks = 2;
    std::uint64_t seed = 0;
    double p = 0.5;
    std::vector<DivergenceRecord> records;
};
RunResult<DivergenceResult> runDivergence(int device, std::uint64_t seed, double p);

// --- pointer_chase.cu ----------------------------------------------------------------------
struct LatencyPoint {
    double workingSetBytes = 0;
    double cyclesPerLoad = 0;
};
struct BandwidthPoint {
    double bytes = 0; // buffer size
    double gbs = 0;   // decimal GB/s of bytes moved (copy counts read + write)
};
enum class StreamKind { Read, Write, Copy };
struct MemoryHierarchyResult {
    std::vector<LatencyPoint> latency;
    std::vector<BandwidthPoint> read, write, copy;
};
// Working sets from 4 KiB to at least 4 x L2 (doubling); hops per set are fixed so the
// chase dominates launch overhead and the run time stays bounded.
RunResult<MemoryHierarchyResult> runMemoryHierarchy(int device, long hopsPerSet);
// One streaming probe over a buffer of `bytes`: mean GB/s over `repetitions` after warm-up.
RunResult<double> runStreamBandwidth(int device, StreamKind kind, std::size_t bytes,
                                     int repetitions);
// Latency of one working set (exposed so tests can check a single point).
RunResult<double> runPointerChase(int device, std::size_t workingSetBytes, long hops);

// --- transpose.cu --------------------------------------------------------------------------
struct TransposeVariant {
    std::string name; // copy, naive, tiled, padded
    double meanMs = 0;
    double gbs = 0;
    double pctOfCopy = 0;
    bool referenceOk = false;
};
struct TransposeResult {
    int n = 0;
    int elemBytes = 4;
    int tile = 32;
    int blockRows = 8;
    int repetitions = 0;
    std::vector<TransposeVariant> variants;
};
RunResult<TransposeResult> runTranspose(int device, int n, int repetitions);

// --- occupancy_ilp.cu ----------------------------------------------------------------------
struct IlpPoint {
    int ilp = 1;
    int blocksPerSm = 0;
    int warpsPerSm = 0;
    double occupancyTheoretical = 0; // occupancy API: active warps / max warps per SM
    double meanMs = 0;
    double gbs = 0;
};
struct IlpOccupancyResult {
    int threadsPerBlock = 256;
    std::size_t bytes = 0;
    std::vector<IlpPoint> points;
};
RunResult<IlpOccupancyResult> runIlpOccupancy(int device, std::size_t bytes, int repetitions);

// --- roofline_probes.cu --------------------------------------------------------------------
struct RooflineResult {
    double fp32Tflops = 0;
    bool bf16Supported = false;
    double bf16Tflops = 0;
    double hbmGbs = 0;
    double fp32Ms = 0, bf16Ms = 0, hbmMs = 0;
};
RunResult<RooflineResult> runRooflineProbes(int device, long iterations);

} // namespace wb
