// Reading people's files for the command line: every file through importFile, a cut file
// treated as an error (the GUI keeps it with a warning instead), errors as CliError (exit 2)
// naming the file and position.
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "import/import_registry.h"

namespace wb::cli {

std::vector<std::unique_ptr<ImportResult>> importAll(const std::vector<std::string>& files) {
    std::vector<std::unique_ptr<ImportResult>> results;
    for (const auto& path : files) {
        auto imported = importFile(path);
        if (auto* err = std::get_if<ImportError>(&imported))
            throw CliError(err->describe());
        auto& result = std::get<std::unique_ptr<ImportResult>>(imported);
        if (result->endsMidLine) {
            ImportError cut;
            cut.path = path;
            cut.line = result->endLine;
            cut.byteOffset = result->endByte;
            cut.message = "the file ends in the middle of this line: it looks truncated";
            throw CliError(cut.describe());
        }
        results.push_back(std::move(result));
    }
    return results;
}

} // namespace wb::cli
