#pragma once
// A job summary (`*.wbsum.json`): what warpboard-summarize writes after reading every rank's
// trace where it lives, and what the app opens instead of the traces. Per rank: the triage's
// figures over the whole trace and per ProfilerStep (a trace without steps is one step,
// number -1; each step one row of "step_columns"), its straggler row and top kernels, and the file
// to open for its timeline; for the job: the verdict, `import --summary --json`'s keys (verdict,
// straggler_rank, evidence, per_rank: the same writer, triage_json.h) and the straggler candidates.
// Everything that differs between two runs over the same files (date, process count, hosts,
// timings, which process read which file, the output path) is under "provenance" and
// "processes" only, so summaries made with 1 and with 64 processes are otherwise equal.
// Qt-free: the writer and the reader live here together so the format has one definition.
#include "import/input_files.h"
#include "triage/rank_analysis.h"

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

inline constexpr const char* kJobSummaryFormat = "warpboard-job-summary";
inline constexpr int kJobSummaryVersion = 1;
// The name a summary goes by, so the app opens it as a summary rather than as a trace.
inline bool isJobSummaryPath(std::string_view path) {
    return path.ends_with(kJobSummarySuffix);
}
// Top kernels kept per rank: enough to name what a rank spends its time on, few enough that
// 16,384 ranks stay a summary that opens in about a second.
inline constexpr std::size_t kJobSummaryTopKernels = 5;

// A step is a row of these values (the summary's "step_columns"), not an object with keys.
inline constexpr std::array<const char*, 11> kJobSummaryStepColumns = {
    "step",        "step_us", "window_us", "compute_us", "comm_us",    "exposed_comm_us",
    "overlap_pct", "idle_us", "wait_us",   "overlap_us", "collectives"};

struct JobSummaryStep {
    long number = -1; // N of ProfilerStep#N; -1 for a trace without steps (its whole span)
    double stepUs = 0.0;
    RankFigures figures; // figures.rank is the rank's
    bool operator==(const JobSummaryStep&) const = default;
};

struct JobSummaryKernel {
    std::string name;
    std::string type; // "computation", "communication", "memory"
    std::int64_t count = 0;
    double totalUs = 0.0, sharePct = 0.0, meanUs = 0.0, p50Us = 0.0, p99Us = 0.0;
    bool operator==(const JobSummaryKernel&) const = default;
};

struct JobSummaryRank {
    RankFigures whole;            // over the whole trace (per_rank)
    std::string file;             // the trace to open for this rank's timeline
    std::string rankSource;       // "distributedInfo", "file name", "order given"
    double medianComputeUs = 0.0; // per step (straggler_candidates.h); 0 with fewer than 2 ranks
    double robustZ = 0.0;
    bool candidate = false;
    std::vector<JobSummaryStep> steps; // by start
    std::vector<JobSummaryKernel> topKernels;
    bool operator==(const JobSummaryRank&) const = default;
};

struct JobSummaryFailure {
    std::string path;
    std::string reason;
    bool operator==(const JobSummaryFailure&) const = default;
};

struct JobSummary {
    long worldSize = 0; // the largest distributedInfo.world_size, 0 when no file says it
    std::string verdict = "none";
    std::optional<long> stragglerRank;
    std::string evidence;
    double stragglerMedianComputeUs = 0.0;
    double stragglerThresholdUs = 0.0;
    std::vector<long> stragglerCandidates;
    std::vector<std::string> stragglerEvidence;
    std::vector<JobSummaryRank> ranks; // in rank order
    std::vector<JobSummaryFailure> failed;
    int processes = 1;
    nlohmann::ordered_json provenance = nlohmann::ordered_json::object();
    bool operator==(const JobSummary&) const = default;
};

nlohmann::ordered_json jobSummaryJson(const JobSummary& summary);

// A summary that cannot be read: the message names the file, then the line and column of bad
// JSON or the JSON path of a missing or mistyped value.
struct JobSummaryError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

JobSummary parseJobSummary(std::string_view text, const std::string& name = "summary");
JobSummary readJobSummary(const std::string& path);

} // namespace wb
