#pragma once
// What the paths a person gives stand for, one rule for every way of giving them (`warpboard
// import`, `warpboard FILE...`, `export --import`, File → Open, File → Open folder, a drop on
// the window): a file is itself, whatever its name (the importers recognise formats by
// content); a folder stands for the profiler files directly inside it (subfolders are not
// searched), sorted by name so the ranks of a job come in a stable order; a path that does
// not exist, or a folder without profiler files, is a problem to report, not the end of the
// batch.
#include "import/byte_source.h"

#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct InputFiles {
    std::vector<std::string> files;    // to import, in the order given
    std::vector<ImportError> problems; // paths that gave nothing to import, in the order given
};

InputFiles expandInputs(const std::vector<std::string>& paths);

// The name ending of a job summary (warpboard-summarize's output, scenarios/summary): JSON, but
// not a profiler file, so a folder's expansion leaves it out (a summary written beside the
// rank traces would otherwise be read as one more rank, and fail).
inline constexpr std::string_view kJobSummarySuffix = ".wbsum.json";

// The one definition of a profiler file's name: what the importers read (traces .json,
// Nsight Compute .csv, NCCL logs .log/.txt, nccl-tests output .txt/.out), each also gzipped
// (.json.gz, ...), job summaries excepted. Case does not matter.
bool isProfilerFileName(const std::string& name);

// The same names as patterns ("*.json", "*.json.gz", ...), for a file dialog's filter.
std::vector<std::string> profilerFilePatterns();

// True when `name` ends in ".gz", in any case.
bool hasGzipSuffix(const std::string& name);

} // namespace wb
