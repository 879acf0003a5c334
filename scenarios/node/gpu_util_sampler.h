#pragma once
// What nvidia-smi's "GPU-Util" measures vs what the SMs do (nccl-topology; NVML nvmlUtilization_t).
// NVML's utilization.gpu is the percent of the sample period during which one or more kernels was
// executing; it does not look at how many SMs the kernels keep busy. SM activity here is the
// time-average fraction of SMs with work (what DCGM's SM-activity counter reports), so a
// communication kernel that parks a few SMs on a flag reads 100 % on the first and a few
// percent on the second.
#include <vector>

namespace wb {

// The one citation for GPU-Util that every lesson and calc model quoting it gives.
inline constexpr const char* kNvmlGpuUtilSource = "NVML API Reference, nvmlUtilization_t";
inline constexpr const char* kNvmlGpuUtilDefinition =
    "NVML API Reference, nvmlUtilization_t: percent of the sample period in which one or more "
    "kernels was executing";

struct KernelSpan {
    double startS = 0;
    double endS = 0;
    double smFraction = 1.0; // share of the GPU's SMs busy while it runs, 0…1
};

struct UtilisationSample {
    double startS = 0;
    double endS = 0;
    double gpuUtilPercent = 0;    // NVML: any kernel running, as a share of the period
    double smActivityPercent = 0; // mean share of SMs busy (concurrent kernels add, up to 100 %)
};

// Samples [0, endS) in periods of periodS (NVML: between 1/6 s and 1 s by product). Kernels
// may overlap (several streams). Throws std::invalid_argument for a period ≤ 0, a non-finite
// value or a kernel that ends before it starts.
std::vector<UtilisationSample> sampleUtilisation(const std::vector<KernelSpan>& kernels,
                                                 double periodS, double endS);

// Both measures over one window [fromS, toS).
UtilisationSample utilisationOver(const std::vector<KernelSpan>& kernels, double fromS, double toS);

} // namespace wb
