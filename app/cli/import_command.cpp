// warpboard import FILE... --summary --json: reads people's own profiler files through the
// Qt-free importers and prints one JSON summary. No QApplication: it runs on headless boxes.
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "engine/imported_set.h"
#include "import/chrome_trace_result.h"
#include "import/import_registry.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

namespace wb::cli {

namespace {

const char* const kImportUsage = "usage: warpboard import FILE... [--summary] [--json]";

} // namespace

int runImport(const std::vector<std::string>& words) {
    std::vector<std::string> files;
    bool json = false;
    for (const auto& w : words) {
        if (w == "--help" || w == "-h") {
            std::cout << kImportUsage << "\n";
            return 0;
        }
        if (w == "--json")
            json = true;
        else if (w == "--summary")
            continue; // the summary is what import prints; the flag documents the intent
        else if (w.size() > 1 && w[0] == '-')
            throw CliError("import: unknown option '" + w + "'\n" + kImportUsage);
        else
            files.push_back(w);
    }
    if (files.empty())
        throw CliError(std::string("import: no files given\n") + kImportUsage);

    std::vector<std::unique_ptr<ImportResult>> results;
    for (const auto& path : files) {
        auto imported = importFile(path);
        if (auto* err = std::get_if<ImportError>(&imported)) {
            std::cerr << err->describe() << "\n";
            return kUsageExitCode;
        }
        auto& result = std::get<std::unique_ptr<ImportResult>>(imported);
        if (result->endsMidLine) {
            // A cut file is an error here, not a smaller success (the GUI may still show
            // what was read, with a warning).
            ImportError cut;
            cut.path = path;
            cut.line = result->endLine;
            cut.byteOffset = result->endByte;
            cut.message = "the file ends in the middle of this line: it looks truncated";
            std::cerr << cut.describe() << "\n";
            return kUsageExitCode;
        }
        results.push_back(std::move(result));
    }

    // Several trace files are the ranks of one job (numbered as the GUI numbers them).
    std::vector<ChromeTraceResult*> traces;
    for (const auto& r : results)
        if (auto* trace = dynamic_cast<ChromeTraceResult*>(r.get()))
            traces.push_back(trace);
    assignRanks(traces);
    std::set<long> ranks;
    for (const auto* t : traces)
        ranks.insert(*t->rank);

    nlohmann::ordered_json out;
    out["files"] = nlohmann::ordered_json::array();
    for (const auto& r : results)
        out["files"].push_back(r->summary());
    out["ranks"] = ranks.size();
    if (json) {
        std::cout << dumpSummary(out) << "\n";
        return 0;
    }
    for (const auto& f : out["files"]) {
        std::cout << f["path"].get<std::string>() << ": " << f["format"].get<std::string>();
        for (const auto& [key, value] : f.items())
            if (key != "path" && key != "format")
                std::cout << ", " << key << " " << dumpSummary(value, -1);
        std::cout << "\n";
    }
    std::cout << "ranks: " << ranks.size() << "\n";
    return 0;
}

} // namespace wb::cli
