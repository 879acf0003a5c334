#pragma once
// The active mask at each branch point as a trace (kind "branch-masks", docs/RECORDINGS.md):
// what __activemask() reports in the divergence kernel on a GPU, or what the per-lane SIMT
// interpreter predicts in the same schema, so the warp-divergence scenario compares both
// with the interpreter through one path.
#include "gpu/simt_interpreter.h"
#include "trace/trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wb {

inline constexpr const char* kBranchMasksKind = "branch-masks";

// Branch points in program order: before, then, inner-then, inner-else, else, after.
const std::vector<std::string>& branchMaskPoints();

// The interpreter's active mask at each point the warp reaches (a point no lane reaches is
// absent, as the kernel records nothing there): the mask of the first instruction issued at
// the point, located through the program's branch targets and reconvergence pc.
std::map<std::string, std::uint32_t> predictedBranchMasks(const SimtConfig& config);

// Every fixed branch kind (not custom) on every warp of one block of `blockDim` threads,
// masks from predictedBranchMasks(); startNs stays 0 (the interpreter keeps no clock).
// Provenance "modeled", never "measured".
Trace modeledBranchMasks(int blockIdx, double p, std::uint64_t seed, int blockDim = 64);

// One event of a branch-masks trace, as recorded.
struct BranchMaskRecord {
    std::string kind;  // odd-even, …, nested
    std::string point; // before, then, …
    int warp = 0;
    int block = 0;
    std::uint32_t mask = 0;
    bool operator==(const BranchMaskRecord&) const = default;
};

// The trace's events that carry a mask, in recorded order.
std::vector<BranchMaskRecord> branchMaskRecords(const Trace& trace);

} // namespace wb
