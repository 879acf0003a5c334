#pragma once
// Multi-rank jobs write one trace per rank and put the rank in the file name:
// rank-3.pt.trace.json.gz, sampled_rank-1.json.gz, rank_1.json, worker2.1700000000.pt.trace.json.
#include <optional>
#include <string_view>

namespace wb {

// The rank a file name states (the last "rank-N", "rank_N", "rankN" or "workerN" in the
// base name), or nullopt.
std::optional<long> rankFromPath(std::string_view path);

} // namespace wb
