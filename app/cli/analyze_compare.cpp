// warpboard analyze --compare BEFORE AFTER: both sides read through importAll (a file or a
// folder of rank files each), compared by compareTraces, printed as aligned tables (the
// default), one JSON object (--json), and/or two CSV files (--csv DIR).
#include "cli/analyze_compare.h"

#include "analysis/trace_compare.h"
#include "cli/analyze_pictures.h"
#include "cli/arguments.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "engine/number_format.h"
#include "engine/prefixed.h"
#include "engine/sentence.h"
#include "import/chrome_trace_result.h"
#include "import/import_registry.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

namespace wb::cli {

namespace {

const char* const kCompareUsage =
    "usage: warpboard analyze --compare BEFORE AFTER [--json] [--csv DIR] [--top N]\n"
    "                         [--png DIR] [--svg DIR] [--theme light|dark]\n"
    "       BEFORE and AFTER: a trace file or a folder of rank files each";

constexpr int kCmpDefaultTop = 20;

// Text a reader expects: "+1.2 ms", "−1.2 ms" (a true minus sign), "0 s".
std::string cmpSigned(double value, const std::string& magnitude) {
    if (value > 0)
        return prefixed("+", magnitude);
    if (value < 0)
        return prefixed("\u2212", magnitude);
    return magnitude;
}

std::string cmpDuration(std::int64_t ns) {
    return formatSi(static_cast<double>(ns) * 1e-9, "s");
}

std::string cmpSignedDuration(std::int64_t ns) {
    return cmpSigned(static_cast<double>(ns), cmpDuration(ns < 0 ? -ns : ns));
}

std::string cmpCount(double count) {
    return formatNumber(count);
}

std::string cmpSignedCount(double delta) {
    return cmpSigned(delta, formatNumber(std::fabs(delta)));
}

// The change relative to before: "+100 %", "−50 %"; an added item has no before ("new").
std::string cmpRelative(const CompareItem& item) {
    if (item.beforeNs == 0)
        return item.afterNs == 0 ? "" : "new";
    const double pct =
        100.0 * static_cast<double>(item.deltaNs()) / static_cast<double>(item.beforeNs);
    return cmpSigned(pct, formatPercent(std::fabs(pct)));
}

// Columns are aligned by what a terminal shows: UTF-8 continuation bytes take no column.
std::size_t cmpColumns(const std::string& text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

// Rows of cells; every column but the last is right-aligned (the last, the name, is left
// free so long kernel names need no truncation).
std::string cmpAlign(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> widths;
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) {
            widths.resize(std::max(widths.size(), row.size()), 0);
            widths[i] = std::max(widths[i], cmpColumns(row[i]));
        }
    std::string out;
    for (const auto& row : rows) {
        std::string line = " ";
        for (std::size_t i = 0; i < row.size(); ++i) {
            line.append(" ");
            if (i + 1 < row.size())
                line.append(widths[i] - cmpColumns(row[i]), ' ');
            line.append(row[i]);
        }
        line.erase(line.find_last_not_of(' ') + 1); // an empty name leaves no trailing blanks
        out.append(line).append("\n");
    }
    return out;
}

} // namespace

std::size_t compareRowsShown(const CompareTable& table, int top) {
    return top > 0 ? std::min<std::size_t>(table.items.size(), static_cast<std::size_t>(top))
                   : table.items.size();
}

std::vector<std::vector<std::string>> compareTableRows(const CompareTable& table, int top) {
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"status", "count before", "count after", "Δ count", "total before",
                    "total after", "Δ total", "Δ %", "name"});
    const std::size_t shown = compareRowsShown(table, top);
    for (std::size_t i = 0; i < shown; ++i) {
        const CompareItem& item = table.items[i];
        rows.push_back({compareStatusName(item.status), cmpCount(item.beforeCount),
                        cmpCount(item.afterCount), cmpSignedCount(item.deltaCount()),
                        cmpDuration(item.beforeNs), cmpDuration(item.afterNs),
                        cmpSignedDuration(item.deltaNs()), cmpRelative(item), item.name});
    }
    CompareItem total;
    total.beforeCount = table.beforeCount;
    total.afterCount = table.afterCount;
    total.beforeNs = table.beforeNs;
    total.afterNs = table.afterNs;
    rows.push_back({"total", cmpCount(total.beforeCount), cmpCount(total.afterCount),
                    cmpSignedCount(total.deltaCount()), cmpDuration(total.beforeNs),
                    cmpDuration(total.afterNs), cmpSignedDuration(total.deltaNs()),
                    cmpRelative(total),
                    table.unchanged > 0 ? "(every item, unchanged ones included)" : ""});
    return rows;
}

namespace {

std::string cmpTableText(const std::string& title, const CompareTable& table, int top) {
    std::ostringstream out;
    out << title << ": " << table.changed << " changed, " << table.added << " added, "
        << table.removed << " removed, " << table.unchanged << " unchanged\n";
    if (table.items.empty() && table.unchanged == 0) {
        out << "  (none on either side)\n";
        return out.str();
    }
    out << cmpAlign(compareTableRows(table, top));
    const std::size_t shown = compareRowsShown(table, top);
    if (shown < table.items.size())
        out << "  … " << table.items.size() - shown << " more (--top 0 lists all)\n";
    return out.str();
}

} // namespace

std::string compareSideText(const CompareSide& side) {
    std::string files;
    const std::size_t n = side.files.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (n > 4 && i >= 2 && i + 1 < n) {
            if (i == 2)
                files.append(", …");
            continue;
        }
        files.append(files.empty() ? "" : ", ").append(side.files[i]);
    }
    return formatCount(side.ranks, "rank", "ranks") + " (" + files + ")";
}

std::string compareBasisText(const TraceComparison& c) {
    if (c.perRankAverage)
        return fill("per-rank averages (%1 ranks before, %2 after)",
                    {std::to_string(c.before.ranks), std::to_string(c.after.ranks)});
    return fill("sums over %1", {formatCount(c.before.ranks, "rank", "ranks")});
}

namespace {

std::string cmpText(const TraceComparison& c, int top) {
    std::ostringstream out;
    out << "before: " << compareSideText(c.before) << "\n";
    out << "after:  " << compareSideText(c.after) << "\n";
    out << "Figures are " << compareBasisText(c)
        << "; names match exactly; operator times are inclusive (nested ops count in their "
           "callers); by |Δ total|, largest first.\n\n";
    out << cmpTableText("Kernels", c.kernels, top) << "\n";
    out << cmpTableText("Operators", c.operators, top);
    return out.str();
}

// A count as JSON: an integer when it is whole (sums always are), else the average.
nlohmann::ordered_json cmpCountJson(double count) {
    if (count == std::floor(count) && std::fabs(count) < 9e15)
        return static_cast<std::int64_t>(count);
    return count;
}

double cmpMicros(std::int64_t ns) {
    return static_cast<double>(ns) / 1000.0;
}

nlohmann::ordered_json cmpItemJson(const CompareItem& item) {
    nlohmann::ordered_json o;
    o["name"] = item.name;
    o["status"] = compareStatusName(item.status);
    o["before_count"] = cmpCountJson(item.beforeCount);
    o["after_count"] = cmpCountJson(item.afterCount);
    o["delta_count"] = cmpCountJson(item.deltaCount());
    o["before_us"] = cmpMicros(item.beforeNs);
    o["after_us"] = cmpMicros(item.afterNs);
    o["delta_us"] = cmpMicros(item.deltaNs());
    return o;
}

nlohmann::ordered_json cmpTotalsJson(const CompareTable& t) {
    nlohmann::ordered_json o;
    o["added"] = t.added;
    o["removed"] = t.removed;
    o["changed"] = t.changed;
    o["unchanged"] = t.unchanged;
    o["before_count"] = cmpCountJson(t.beforeCount);
    o["after_count"] = cmpCountJson(t.afterCount);
    o["before_us"] = cmpMicros(t.beforeNs);
    o["after_us"] = cmpMicros(t.afterNs);
    o["delta_us"] = cmpMicros(t.afterNs - t.beforeNs);
    return o;
}

nlohmann::ordered_json cmpJson(const TraceComparison& c) {
    nlohmann::ordered_json out;
    for (const auto* side : {&c.before, &c.after}) {
        nlohmann::ordered_json s;
        s["files"] = side->files;
        s["ranks"] = side->ranks;
        out[side == &c.before ? "before" : "after"] = s;
    }
    out["basis"] = c.perRankAverage ? "per-rank average" : "sum";
    for (const auto& [key, table] :
         {std::pair<const char*, const CompareTable*>{"kernels", &c.kernels},
          std::pair<const char*, const CompareTable*>{"operators", &c.operators}}) {
        out[key] = nlohmann::ordered_json::array();
        for (const auto& item : table->items)
            out[key].push_back(cmpItemJson(item));
    }
    out["totals"]["kernels"] = cmpTotalsJson(c.kernels);
    out["totals"]["operators"] = cmpTotalsJson(c.operators);
    return out;
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. Kernel
// names carry commas ("gemm<128, 64>").
std::string cmpCsvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    return out.append("\"");
}

void cmpWriteCsv(const std::filesystem::path& path, const CompareTable& table) {
    std::ofstream file(path, std::ios::binary);
    file << "name,status,before_count,after_count,delta_count,before_us,after_us,delta_us\n";
    for (const auto& item : table.items) {
        const nlohmann::ordered_json o = cmpItemJson(item);
        file << cmpCsvField(item.name) << "," << compareStatusName(item.status);
        for (const char* key :
             {"before_count", "after_count", "delta_count", "before_us", "after_us", "delta_us"})
            file << "," << o[key].dump();
        file << "\n";
    }
    if (!file)
        throw CliError(prefixed("analyze: cannot write ", path.string()));
}

// One side's traces, every file read or none: a comparison over part of a run would say
// kernels vanished that were only in the file that failed.
struct CmpSideImport {
    ImportOutcome outcome;
    std::vector<CompareInput> inputs;
};

CmpSideImport cmpImportSide(const std::string& path) {
    CmpSideImport side;
    side.outcome = importAll({path});
    for (const auto& result : side.outcome.results) {
        const auto* trace = dynamic_cast<const ChromeTraceResult*>(result.get());
        if (!trace) {
            side.outcome.errors.push_back(result->path + ": a " + result->format +
                                          " file, not a trace: --compare reads traces");
            continue;
        }
        side.inputs.push_back({trace->path, &trace->store});
    }
    return side;
}

int cmpTop(const Arguments& args) {
    const auto text = args.value("top");
    if (!text)
        return kCmpDefaultTop;
    const auto v = parseNumber(*text);
    if (!v || *v < 0 || *v > 1e6 || *v != std::floor(*v))
        throw CliError("analyze: --top must be a whole number from 0 (all) to 1000000, got '" +
                       *text + "'");
    return static_cast<int>(*v);
}

} // namespace

int runAnalyzeCompare(const std::vector<std::string>& words) {
    if (std::find(words.begin(), words.end(), "--help") != words.end() ||
        std::find(words.begin(), words.end(), "-h") != words.end()) {
        std::cout << kCompareUsage << "\n";
        return 0;
    }
    // --compare takes two values; Arguments takes one, so BEFORE is its value and AFTER the
    // one positional left.
    const Arguments args(words, {"json"});
    args.requireKnown({"compare", "json", "csv", "top", "png", "svg", "theme"},
                      "analyze --compare");
    PictureOptions pictures;
    pictures.pngDir = args.value("png").value_or("");
    pictures.svgDir = args.value("svg").value_or("");
    pictures.theme = args.value("theme").value_or("light");
    if (pictures.theme != "light" && pictures.theme != "dark")
        throw CliError("analyze: --theme '" + pictures.theme +
                       "' is not allowed; allowed: light|dark");
    const auto before = args.value("compare");
    if (!before || args.positionals().size() != 1)
        throw CliError(std::string("analyze: --compare needs two paths, BEFORE and AFTER\n") +
                       kCompareUsage);
    const std::string after = args.positionals().front();
    const int top = cmpTop(args);

    const CmpSideImport b = cmpImportSide(*before);
    const CmpSideImport a = cmpImportSide(after);
    if (!b.outcome.errors.empty() || !a.outcome.errors.empty()) {
        reportImportErrors(b.outcome);
        reportImportErrors(a.outcome);
        return kUsageExitCode;
    }
    const auto shared = std::make_shared<const TraceComparison>(compareTraces(b.inputs, a.inputs));
    const TraceComparison& c = *shared;
    if (const auto dir = args.value("csv")) {
        std::error_code ec;
        std::filesystem::create_directories(*dir, ec);
        cmpWriteCsv(std::filesystem::path(*dir) / "kernels.csv", c.kernels);
        cmpWriteCsv(std::filesystem::path(*dir) / "operators.csv", c.operators);
    }
    if (args.flag("json"))
        std::cout << dumpSummary(cmpJson(c)) << "\n";
    else
        std::cout << cmpText(c, top);
    // Like --csv's files, the pictures are named unless stdout is JSON.
    for (const std::string& path : writeComparePictures(pictures, shared))
        if (!args.flag("json"))
            std::cout << "wrote " << path << "\n";
    return 0;
}

} // namespace wb::cli
