#pragma once
// nccl-tests `*_perf` output: one row per message size with the out-of-place and in-place
// results side by side. NCCL INFO lines in the same file (NCCL_DEBUG=INFO runs), even ones
// spliced into the middle of a row, go to an NcclLogParser and are reported too.
#include "import/nccl_log_importer.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

struct NcclTestsPlace {
    double timeUs = 0, algbw = 0, busbw = 0;
    std::optional<std::int64_t> wrong; // #wrong; nullopt for "N/A" or old builds
    std::optional<double> error;       // old builds' `error` column
};

struct NcclTestsRow {
    std::int64_t size = 0, count = 0; // bytes, elements (64-bit: sizes exceed 2^32)
    std::string type, redop;          // redop empty when the build has no such column
    std::optional<std::int64_t> root; // nullopt when the build has no root column
    NcclTestsPlace outOfPlace, inPlace;
    std::uint64_t line = 0; // where the row starts
};

struct NcclTestsResult : ImportResult {
    std::vector<NcclTestsRow> rows;
    std::optional<int> nranks;          // from "#  Rank r ..." lines (or the log's nranks)
    std::vector<std::string> rankLines; // the "#  Rank ..." lines as written
    std::string test, params, version;  // "all_reduce_perf", the "# nThread …" line
    std::optional<double> avgBusbw;     // footer
    std::optional<std::int64_t> outOfBounds;
    bool complete = false;          // footer ("# Avg bus bandwidth") seen, no cut row
    std::uint64_t skippedLines = 0; // non-row text inside the table ("...", app output)
    std::uint64_t badRows = 0;      // malformed rows skipped (only when NCCL lines interleave)
    std::optional<NcclLogData> log; // when the file also holds NCCL INFO lines
    nlohmann::ordered_json summary() const override;
};

// Shared by the nccl-tests and nccl-log importers: reads both parts of a file, and returns
// an NcclTestsResult when a table is present, an NcclLogResult otherwise.
std::variant<std::unique_ptr<ImportResult>, ImportError> parseNcclText(ByteSource& source,
                                                                       const ImportControl&);

} // namespace wb
