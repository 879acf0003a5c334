#pragma once
// The errors about a file as a whole, worded once for `warpboard import`, `warpboard FILE`,
// `export --import` and the window: a path that cannot be opened, an empty file, an empty
// gzip, a folder without profiler files. Each message names the path itself, so
// ImportError::describe() prints it as it is, with no byte position.
#include "import/byte_source.h"

#include <string>

namespace wb {

// "cannot open 'PATH': no such file" (or "permission denied", "it is a folder", or the
// system's words for other errno values).
ImportError cannotOpenError(const std::string& path, int errorNumber);

// A file with nothing to read: "'x.json' is empty (0 bytes)", "'x.json.gz' is empty (0
// bytes, not even a gzip header)" for a zero-byte .gz, and "'x.json.gz' is an empty gzip
// file: it decompresses to nothing" when `gzipped` (a valid gzip stream with no content).
ImportError emptyFileError(const std::string& path, bool gzipped);

// "no profiler files in 'DIR'" (see input_files.h for what a profiler file is).
ImportError noProfilerFilesError(const std::string& folder);

} // namespace wb
