#pragma once
// What warpboard-summarize's processes send each other, as MessagePack (nlohmann's
// to_msgpack): doubles travel as their 64 bits, so the root computes from exactly the values
// the readers measured, and one process or many give the same summary. Every message is
// produced and consumed by the same build, so there is no versioning; a message that does
// not decode is a ProcessGroupError.
#include "analysis/step_breakdown.h"
#include "summary/rank_summary.h"

#include <string>
#include <vector>

namespace wb {

// The root's plan: every file in the job's order, the process that reads it, and the paths
// that gave no file (a missing path, a folder without profiler files).
struct SummaryPlan {
    std::vector<std::string> files;
    std::vector<std::uint64_t> bytes;
    std::vector<int> reader;               // process index per file
    std::vector<std::string> problemPaths; // the paths that gave no file...
    std::vector<std::string> problems;     // ...and why
    bool operator==(const SummaryPlan&) const = default;
};

// What one process sends the root at the end: its host and its files' results.
struct ProcessResults {
    std::string host;
    double seconds = 0.0;
    std::vector<RankFileResult> files;
};

std::string encodePlan(const SummaryPlan& plan);
SummaryPlan decodePlan(const std::string& bytes);
std::string encodeShortestCalls(const JobShortestCalls& calls);
JobShortestCalls decodeShortestCalls(const std::string& bytes);
std::string encodeProcessResults(const ProcessResults& results);
ProcessResults decodeProcessResults(const std::string& bytes);

} // namespace wb
