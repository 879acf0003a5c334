#pragma once
// HTA's CUDA kernel launch statistics, correlation-matched (gpu_launches.h): for every
// kernel (compute or NCCL) whose launch is known,
//   CPU launch    the runtime call's duration (cudaLaunchKernel, hipLaunchKernel, ...)
//   GPU duration  the kernel's duration
//   launch delay  kernel start − launch start (queueing plus launch latency)
// and the outliers by HTA's three rules, with HTA's default thresholds:
//   short kernel  GPU duration < CPU launch duration: the launch costs more than the work
//   long launch   CPU launch > kLaunchRuntimeCutoffUs (50 µs)
//   long delay    launch delay > kLaunchDelayCutoffUs (100 µs)
// Kernels count when their start lies in the range (a launch is a pair, not an interval to
// clip). HTA uses whole µs; here the nanoseconds are exact.
#include "analysis/analysis_scope.h"
#include "analysis/duration_stats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

inline constexpr double kLaunchRuntimeCutoffUs = 50.0;
inline constexpr double kLaunchDelayCutoffUs = 100.0;
inline constexpr std::size_t kLaunchOutliersShown = 20;

struct KernelLaunchRow {
    std::string name;
    DurationStats cpuLaunch, gpu, delay;
};

struct LaunchOutlier {
    long rank = 0;
    std::string name;
    double startUs = 0.0; // kernel start, the trace's own clock
    double cpuLaunchUs = 0.0, gpuUs = 0.0, delayUs = 0.0;
    std::string reason; // "short kernel", "long launch", "long delay" (joined with ", ")
};

struct LaunchStats {
    std::int64_t matched = 0, unmatched = 0; // kernels with / without a known launch
    DurationStats cpuLaunch, gpu, delay;     // over every matched kernel
    std::vector<KernelLaunchRow> perKernel;  // by launches, at most kAnalysisTopKernels
    std::int64_t shortKernels = 0, longLaunches = 0, longDelays = 0;
    std::vector<LaunchOutlier> outliers; // worst first, at most kLaunchOutliersShown
};

// `launches[i]` is launchOfEvents(*ranks[i].store).
LaunchStats launchStats(const std::vector<RankInput>& ranks,
                        const std::vector<std::vector<std::uint32_t>>& launches,
                        const AnalysisRange& range);

} // namespace wb
