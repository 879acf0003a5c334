#pragma once
// The importer contract: every format has a probe (how sure, from the first bytes) and a
// parse (stream → result or ImportError with byte offset / line), with progress and cancel.
// The registry (import_registry.h) lists them; `warpboard import` and the GUI use it.
#include "import/byte_source.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

namespace wb {

struct ImportControl {
    // Called now and then with bytes consumed (compressed, as on disk) and the total.
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    // Polled between chunks; true stops the import with an ImportError "cancelled".
    std::function<bool()> cancelled;
};

// What an importer produced; each format's result type derives from this so the summary and
// the views can be reached without knowing the format.
struct ImportResult {
    virtual ~ImportResult() = default;
    std::string format; // "kineto", "chrome", "ncu-csv", "nccl-log", "nccl-tests",
                        // "nccl-tests+nccl-log", "pytorch-watchdog"
    std::string path;
    // Line formats keep what they read when a file is cut; this says the file ended in the
    // middle of a line (a truncated file), which `warpboard import` reports as an error.
    bool endsMidLine = false;
    std::uint64_t endLine = 0;
    std::uint64_t endByte = 0;
    // The per-file object of `warpboard import --summary --json` (docs: issue contract).
    virtual nlohmann::ordered_json summary() const = 0;
};

struct Importer {
    std::string name; // format name as above
    // 0 = surely not this format … 1 = surely this format.
    std::function<double(std::string_view head, const std::string& path)> probe;
    std::function<std::variant<std::unique_ptr<ImportResult>, ImportError>(ByteSource&,
                                                                           const ImportControl&)>
        parse;
};

} // namespace wb
