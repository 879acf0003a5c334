#pragma once
// Nsight Compute launches as the lessons draw them: the roofline point of each launch that
// has FLOPs, DRAM bytes and a duration (and why the others are left out), and the launch
// resources the occupancy calculator needs. Nothing is estimated: a missing metric stays
// missing and is reported.
#include "import/ncu_csv_importer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// One launch placed on the roofline: x = flops / dramBytes, y = flops / duration.
struct NcuRooflinePoint {
    std::int64_t id = 0;
    std::string name;      // as the CSV writes it
    std::string shortName; // without namespace, return type and parameters
    std::string file;      // file name (no directory)
    double flops = 0.0;
    double dramBytes = 0.0;
    double durationNs = 0.0;
    double intensity = 0.0; // FLOP/B
    double flopPerS = 0.0;  // achieved FLOP/s
    int launches = 1;       // launches summed into this point (ncuPointsByKernel)
};

struct NcuSkippedLaunch {
    std::int64_t id = 0;
    std::string shortName;
    std::string file;
    std::string reason; // "no FLOP counts (smsp__sass_thread_inst_executed_op_*)", ...
};

struct NcuRooflineSet {
    std::vector<NcuRooflinePoint> points;
    std::vector<NcuSkippedLaunch> skipped;
};

NcuRooflineSet ncuRooflinePoints(const NcuCsvResult& result);

// One point per kernel (same file and full name), in order of first launch: FLOPs, DRAM bytes
// and durations summed over its launches, so x = ΣFLOPs ÷ Σbytes and y = ΣFLOPs ÷ Σtime (the
// kernel's aggregate, not an average of ratios). `id` is the first launch's.
std::vector<NcuRooflinePoint> ncuPointsByKernel(const std::vector<NcuRooflinePoint>& points);

// "gemm_tiled_kernel<32>" for "void unnamed>::gemm_tiled_kernel<32>(const float *, ...)".
std::string shortKernelName(const std::string& name);
// The last path component.
std::string fileNameOf(const std::string& path);
// What the CSV says about its device: "device 0, compute capability 12.0", or that it does
// not say (older CSVs have no Device/CC columns).
std::string ncuDeviceText(const NcuCsvResult& result);

// Threads per block (x·y·z) when the CSV has the block size.
std::optional<int> ncuThreadsPerBlock(const NcuLaunch& launch);
// Registers per thread (launch__registers_per_thread / "Registers Per Thread").
std::optional<int> ncuRegistersPerThread(const NcuLaunch& launch);
// Static + dynamic shared memory per block in bytes, when both or the total are present.
std::optional<double> ncuSharedPerBlockBytes(const NcuLaunch& launch);

} // namespace wb
