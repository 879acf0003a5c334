#pragma once
// HTA's kernel breakdown over every rank given: GPU time by type and the kernels that took
// the most of it. Types: communication (NCCL/RCCL kernels, by name: nccl_kernel_name.h),
// memory (memcpy and memset), computation (every other kernel). Times are sums of the
// events' durations (clipped to the range), not unions: two kernels running at once both
// count, as in HTA. HTA splits by rank and keeps whole µs; here the ranks are pooled (the
// per-rank split is the temporal breakdown) and the nanoseconds are exact.
#include "analysis/analysis_scope.h"
#include "analysis/duration_stats.h"

#include <string>
#include <vector>

namespace wb {

inline constexpr std::size_t kAnalysisTopKernels = 15;

struct KernelTypeTime {
    std::string type; // "computation", "communication", "memory"
    std::int64_t count = 0;
    double totalUs = 0.0;
    double pct = 0.0; // of all GPU time summed
};

struct KernelTime {
    std::string name;
    std::string type;
    DurationStats stats; // over every launch on every rank
    double pct = 0.0;    // of all GPU time summed
};

struct KernelBreakdown {
    std::vector<KernelTypeTime> byType; // the three types, always in that order
    std::vector<KernelTime> top;        // by total time, at most kAnalysisTopKernels
    std::int64_t distinctKernels = 0;
};

const char* gpuActivityType(EventKind kind); // "computation", "communication", "memory"

KernelBreakdown kernelBreakdown(const std::vector<RankInput>& ranks, const AnalysisRange& range);

} // namespace wb
