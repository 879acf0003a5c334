// Reading people's files for the command line: the paths expanded by the one folder rule
// (import/input_files.h), every file through importFile, a cut file treated as an error (the
// GUI keeps it with a warning instead). A file that fails does not stop the others: each
// command decides what a partial batch means.
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "import/import_registry.h"
#include "import/input_files.h"

#include <iostream>

namespace wb::cli {

ImportOutcome importAll(const std::vector<std::string>& paths) {
    ImportOutcome out;
    InputFiles inputs = expandInputs(paths);
    for (const auto& problem : inputs.problems)
        out.errors.push_back(problem.describe());
    for (const auto& path : inputs.files) {
        auto imported = importFile(path);
        if (auto* err = std::get_if<ImportError>(&imported)) {
            out.errors.push_back(err->describe());
            continue;
        }
        auto& result = std::get<std::unique_ptr<ImportResult>>(imported);
        if (result->endsMidLine) {
            ImportError cut;
            cut.path = path;
            cut.line = result->endLine;
            cut.byteOffset = result->endByte;
            cut.message = "the file ends in the middle of this line: it looks truncated";
            out.errors.push_back(cut.describe());
            continue;
        }
        out.results.push_back(std::move(result));
    }
    return out;
}

int reportImportErrors(const ImportOutcome& outcome) {
    // Each line starts with the file ("FILE: byte N: ..." or "cannot open 'FILE': ..."), as
    // scripts expect: no "warpboard:" prefix.
    for (const auto& e : outcome.errors)
        std::cerr << e << "\n";
    return outcome.errors.empty() ? 0 : kUsageExitCode;
}

} // namespace wb::cli
