#pragma once
// The static list of importers and file-level import: probe every importer on the file's
// first bytes, parse with the most confident one.
#include "import/importer.h"

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace wb {

const std::vector<Importer>& importers();

// Opens, probes and parses one file. An ImportError names the file, the position and what
// was expected; a file no importer recognises is an error listing the formats.
std::variant<std::unique_ptr<ImportResult>, ImportError>
importFile(const std::string& path, const ImportControl& control = {});

// importFile for the command line and warpboard-summarize: a line-oriented file that ends in
// the middle of a line is an error (it looks cut), where the GUI keeps it with a warning.
std::variant<std::unique_ptr<ImportResult>, ImportError>
importCompleteFile(const std::string& path, const ImportControl& control = {});

// JSON text of a summary as `warpboard import` prints it. Strings come from people's files,
// so invalid UTF-8 becomes U+FFFD instead of an exception (found by fuzzing).
std::string dumpSummary(const nlohmann::ordered_json& summary, int indent = 2);

} // namespace wb
