#pragma once
// warpboard analyze --compare BEFORE AFTER [--json] [--csv DIR] [--top N]: the per-kernel and
// per-operator differences between two runs (scenarios/analysis/trace_compare.h says how
// items are matched and counted). No QApplication: it runs on headless boxes.
#include <cstddef>
#include <string>
#include <vector>

namespace wb {
struct CompareTable;
struct CompareSide;
struct TraceComparison;
} // namespace wb

namespace wb::cli {

// The rows of one comparison table as the text report prints them, shared with the Traces
// workspace's comparison panel: a header row (status, counts, totals, Δ, Δ %, name), the
// first `top` items by impact (0: all) and a total row.
std::vector<std::vector<std::string>> compareTableRows(const CompareTable& table, int top);
// How many items compareTableRows lists for `top`.
std::size_t compareRowsShown(const CompareTable& table, int top);
// "2 ranks (a.json, b.json)": one side; a long list keeps its first two and its last.
std::string compareSideText(const CompareSide& side);
// "sums over 2 ranks" or "per-rank averages (4 ranks before, 8 after)".
std::string compareBasisText(const TraceComparison& c);

// `words`: what follows "analyze". Returns the exit code; mistakes throw CliError.
int runAnalyzeCompare(const std::vector<std::string>& words);

} // namespace wb::cli
