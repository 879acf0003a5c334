// warpboard analyze FILE|FOLDER... [--json] [--csv DIR] [--range START_US END_US]
// [--png DIR] [--svg DIR] [--theme light|dark]: every analysis of scenarios/analysis
// (trace_analysis.h) over the traces given, as the ranks of one job, printed as aligned
// tables, one JSON object or one CSV per table, and drawn as the Traces workspace's pictures
// (cli/analyze_pictures.h). Files are read as `import` reads them (importAll); a file that
// fails is named on stderr and the exit code is 2, the others are still analysed. Without
// --png/--svg no QApplication is made: it runs on headless boxes; with them, offscreen.
#include "analysis/trace_analysis.h"
#include "cli/analyze_pictures.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "cli/ranked_traces.h"
#include "engine/number_format.h"
#include "import/chrome_trace_result.h"
#include "import/import_registry.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace wb::cli {

namespace {

const char* const kAnalyzeUsage =
    "usage: warpboard analyze FILE|FOLDER... [--json] [--csv DIR] [--range START_US END_US]\n"
    "                         [--png DIR] [--svg DIR] [--theme light|dark]";

// A --range bound in µs of the trace's clock, to exact ns.
std::int64_t anRangeBoundNs(const std::string& text) {
    const auto v = parseNumber(text);
    if (!v || !std::isfinite(*v) || std::fabs(*v) > 9.0e12) // ±9e12 µs fits int64 ns
        throw CliError(std::string("analyze: --range takes two times in µs, got '")
                           .append(text)
                           .append("'\n")
                           .append(kAnalyzeUsage));
    return std::llround(*v * 1000.0);
}

struct AnalyzeOptions {
    std::vector<std::string> paths;
    bool json = false;
    std::string csvDir;
    AnalysisRange range;
    PictureOptions pictures;
};

AnalyzeOptions anParseOptions(const std::vector<std::string>& words) {
    AnalyzeOptions o;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == "--json") {
            o.json = true;
        } else if (w == "--csv") {
            if (i + 1 >= words.size())
                throw CliError(
                    std::string("analyze: --csv needs a folder\n").append(kAnalyzeUsage));
            o.csvDir = words[++i];
        } else if (w == "--range") {
            // Two values, either of which may be negative, so they are read here, not by
            // the shared option parser (which takes "-5" for an option).
            if (i + 2 >= words.size())
                throw CliError(
                    std::string("analyze: --range needs START_US END_US\n").append(kAnalyzeUsage));
            o.range.fromNs = anRangeBoundNs(words[i + 1]);
            o.range.toNs = anRangeBoundNs(words[i + 2]);
            i += 2;
            if (o.range.toNs <= o.range.fromNs)
                throw CliError("analyze: --range END_US must be after START_US");
        } else if (parsePictureOption(words, i, o.pictures, kAnalyzeUsage)) {
            continue;
        } else if (w.size() > 1 && w[0] == '-') {
            throw CliError(std::string("analyze: unknown option '")
                               .append(w)
                               .append("'\n")
                               .append(kAnalyzeUsage));
        } else {
            o.paths.push_back(w);
        }
    }
    if (o.paths.empty())
        throw CliError(std::string("analyze: no files given\n").append(kAnalyzeUsage));
    return o;
}

void anWriteCsv(const std::string& dir, const std::vector<AnalysisTable>& tables, bool say) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    for (const AnalysisTable& t : tables) {
        const auto path = std::filesystem::path(dir) / std::string(t.id).append(".csv");
        std::ofstream file(path, std::ios::binary);
        file << t.csv();
        if (!file)
            throw CliError(std::string("analyze: cannot write ").append(path.string()));
        if (say)
            std::cout << "wrote " << path.string() << "\n";
    }
}

} // namespace

int runAnalyze(const std::vector<std::string>& words) {
    for (const auto& w : words)
        if (w == "--help" || w == "-h") {
            std::cout << kAnalyzeUsage << "\n";
            return 0;
        }
    const AnalyzeOptions opt = anParseOptions(words);
    const ImportOutcome outcome = importAll(opt.paths);
    const RankedTraces ranked = rankTraces(outcome);
    if (ranked.traces.empty()) {
        if (!outcome.results.empty())
            std::cerr << "warpboard: analyze: none of the files read is a trace (analyze reads "
                         "PyTorch profiler / Chrome trace files)\n";
        const int code = reportImportErrors(outcome);
        return code != 0 ? code : kUsageExitCode;
    }
    std::vector<RankInput> ranks;
    for (const auto* t : ranked.traces)
        ranks.push_back({.store = &t->store, .rank = *t->rank});
    const auto shared =
        std::make_shared<const TraceAnalysis>(analyseTraces(ranks, opt.range, ranked.worldSize));
    const TraceAnalysis& analysis = *shared;
    const std::vector<AnalysisTable> tables = analysis.tables();

    if (opt.json) {
        nlohmann::ordered_json out = analysis.json();
        out["files"] = nlohmann::ordered_json::array();
        for (const auto& r : outcome.results)
            out["files"].push_back(r->summary());
        std::cout << dumpSummary(out) << "\n";
    } else {
        std::string head = "warpboard analyze: ";
        head.append(formatCount(static_cast<long long>(ranks.size()), "rank", "ranks"));
        head.append(" (");
        for (std::size_t i = 0; i < ranks.size(); ++i)
            head.append(i ? ", " : "").append(std::to_string(ranks[i].rank));
        head.append(")");
        if (opt.range.bounded())
            head.append(", range ")
                .append(formatNumber(static_cast<double>(opt.range.fromNs) / 1000.0))
                .append(" to ")
                .append(formatNumber(static_cast<double>(opt.range.toNs) / 1000.0))
                .append(" µs");
        std::cout << head << "\n";
        for (const auto& r : outcome.results)
            std::cout << "  " << r->path << "\n";
        for (const AnalysisTable& t : tables)
            std::cout << "\n" << t.text();
        std::cout << "\nStraggler candidates: ";
        if (analysis.stragglers.candidates.empty())
            std::cout << "none\n";
        else
            for (const std::string& line : analysis.stragglers.evidence)
                std::cout << "\n  " << line;
        if (!analysis.stragglers.candidates.empty())
            std::cout << "\n";
        std::cout << "Triage verdict: " << analysis.triage.verdict;
        if (analysis.triage.stragglerRank)
            std::cout << " (rank " << *analysis.triage.stragglerRank << ")";
        std::cout << ": " << analysis.triage.evidence << "\n";
    }
    if (!opt.csvDir.empty())
        anWriteCsv(opt.csvDir, tables, !opt.json);
    std::vector<PictureRank> pictureRanks;
    for (const RankInput& r : ranks)
        pictureRanks.push_back({.store = r.store, .rank = r.rank});
    for (const std::string& path : writeAnalysisPictures(opt.pictures, pictureRanks, shared))
        if (!opt.json)
            std::cout << "wrote " << path << "\n";
    std::cout.flush(); // the report, then the errors
    return reportImportErrors(outcome);
}

} // namespace wb::cli
