#pragma once
// One rank file in warpboard-summarize, on the process that reads it: imported with the same
// importer as everywhere (importCompleteFile), then the per-rank half of the analyses
// (measureRankSteps, step_breakdown.h; the top kernels, kernel_breakdown.h) while the trace
// is in memory. The trace is dropped as soon as it is measured, so a process holds one trace
// at a time. What travels between processes (summary_wire.h) is RankFileInfo and, once the
// job's shortest calls are known, the rank's figures: never a trace.
#include "analysis/step_breakdown.h"
#include "summary/job_summary.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct RankFileInfo {
    std::size_t index = 0; // in the job's file list
    std::string error;     // why the file gave no rank; empty when it did
    std::optional<long>
        givenRank; // distributedInfo or the file name (assignRanks numbers the rest)
    std::string rankSource;
    std::optional<long> worldSize;
    std::uint64_t bytes = 0;
    std::string hash;     // fileFnv1a64
    double seconds = 0.0; // reading and measuring
    std::vector<JobSummaryKernel> topKernels;
    bool operator==(const RankFileInfo&) const = default;
};

struct RankFileRead {
    RankFileInfo info;
    RankStepMeasures measures; // with the NCCL call durations the cross-rank wait needs
};

struct RankFileResult {
    RankFileInfo info;
    RankBreakdown breakdown; // rank numbers are set by the root, which numbers the ranks
};

// Never throws for a bad file: the reason lands in info.error.
RankFileRead readRankFile(const std::string& path, std::size_t index);

} // namespace wb
