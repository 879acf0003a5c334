#pragma once
// warpboard analyze --compare BEFORE AFTER [--json] [--csv DIR] [--top N]: the per-kernel and
// per-operator differences between two runs (scenarios/analysis/trace_compare.h says how
// items are matched and counted). No QApplication: it runs on headless boxes.
#include <string>
#include <vector>

namespace wb::cli {

// `words`: what follows "analyze". Returns the exit code; mistakes throw CliError.
int runAnalyzeCompare(const std::vector<std::string>& words);

} // namespace wb::cli
