#include "import/import_registry.h"

#include "import/file_errors.h"
#include "import/importers.h"

#include <algorithm>

namespace wb {

const std::vector<Importer>& importers() {
    // One line per importer; order breaks probe ties.
    static const std::vector<Importer> list = [] {
        std::vector<Importer> v;
        v.push_back(chromeTraceImporter());
        v.push_back(ncuCsvImporter());
        v.push_back(ncclLogImporter());
        v.push_back(ncclTestsImporter());
        v.push_back(pytorchWatchdogImporter());
        return v;
    }();
    return list;
}

std::variant<std::unique_ptr<ImportResult>, ImportError> importFile(const std::string& path,
                                                                    const ImportControl& control) {
    auto opened = ByteSource::open(path);
    if (auto* err = std::get_if<ImportError>(&opened))
        return *err;
    ByteSource& source = *std::get<std::unique_ptr<ByteSource>>(opened);
    const std::string_view head = source.head(64 * 1024);
    if (head.empty()) {
        // Nothing to probe. A read error (a cut gzip stream) says so; otherwise the file or
        // its gzip content is empty, which is worth its own words, not "not a format".
        auto first = source.read(1);
        if (auto* err = std::get_if<ImportError>(&first))
            return *err;
        return emptyFileError(path, source.gzipped());
    }
    const Importer* best = nullptr;
    double bestScore = 0.0;
    for (const auto& imp : importers()) {
        const double score = imp.probe(head, path);
        if (score > bestScore) {
            best = &imp;
            bestScore = score;
        }
    }
    if (!best || bestScore < 0.2) {
        std::string names;
        for (const auto& imp : importers())
            names += (names.empty() ? "" : ", ") + imp.name;
        ImportError e;
        e.path = path;
        e.message = "not a format Warpboard reads (tried " + names + ")";
        return e;
    }
    auto result = best->parse(source, control);
    if (auto* err = std::get_if<ImportError>(&result))
        err->path = path;
    else
        std::get<std::unique_ptr<ImportResult>>(result)->path = path;
    return result;
}

std::string dumpSummary(const nlohmann::ordered_json& summary, int indent) {
    return summary.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::variant<std::unique_ptr<ImportResult>, ImportError>
importCompleteFile(const std::string& path, const ImportControl& control) {
    auto imported = importFile(path, control);
    auto* result = std::get_if<std::unique_ptr<ImportResult>>(&imported);
    if (!result || !(*result)->endsMidLine)
        return imported;
    ImportError cut;
    cut.path = path;
    cut.line = (*result)->endLine;
    cut.byteOffset = (*result)->endByte;
    cut.message = "the file ends in the middle of this line: it looks truncated";
    return cut;
}

} // namespace wb
