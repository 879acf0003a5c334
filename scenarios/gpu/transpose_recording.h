#pragma once
// The transpose kernels' timings as a trace (kind "transpose-timing", docs/RECORDINGS.md):
// what the timed kernels record on a GPU, or what the transpose model predicts in the same
// schema, so the scenario's bill draws both through one path.
#include "catalogue/hardware_catalogue.h"
#include "gpu/transpose_model.h"
#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

inline constexpr const char* kTransposeTimingKind = "transpose-timing";

// Effective bandwidth (decimal GB/s) of a copy or transpose of an n × n matrix: it reads and
// writes every element once, 2·n²·elem bytes in `seconds`.
double transposeEffectiveGBs(int n, int elementBytes, double seconds);

// What a real copy reaches of peak HBM bandwidth: BabelStream's Triad measured 1,774 of the
// A100 SXM4 80 GB's 2,039 GB/s (87 %). Measured on that A100 only; an assumption for the
// other GPUs, and said so wherever it is shown.
struct AchievableCopy {
    static constexpr double kMeasuredGBs = 1774.0;
    static constexpr double kMeasuredPeakGBs = 2039.0;
    static constexpr const char* kMeasuredOn = "a100-sxm-80gb"; // catalogue id
    static constexpr const char* kSource =
        "BabelStream (Deakin et al.), Triad on A100 SXM4 80 GB: 1,774 of 2,039 GB/s";
    double peakGBs = 0.0; // the catalogue's HBM bandwidth
    double share = kMeasuredGBs / kMeasuredPeakGBs;
    double gbs = 0.0;      // peak × share
    bool measured = false; // this GPU is the one BabelStream measured
};
AchievableCopy achievableCopy(const GpuSpec& gpu);

// The model's timings: the copy runs at the achievable bandwidth above, each variant takes
// the model's relative time × the copy's time. Provenance "modeled", never "measured".
Trace modeledTransposeTiming(const TransposeConfig& base, const GpuSpec& gpu);

// One event of a transpose-timing trace, as recorded.
struct TransposeTiming {
    std::string variant; // copy, naive, tiled, padded
    std::int64_t durationNs = 0;
    double gbs = 0.0;
    double pctOfCopy = 0.0;
    bool referenceOk = false;
    bool operator==(const TransposeTiming&) const = default;
};

// The trace's timing events in recorded order (events missing `gbs` are skipped).
std::vector<TransposeTiming> transposeTimings(const Trace& trace);

} // namespace wb
