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

// The model's timings: the copy runs at the catalogue's HBM bandwidth (an upper bound a real
// copy approaches, ~90 %), each variant takes the model's relative time × the copy's time.
// Provenance "modeled", never "measured".
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
