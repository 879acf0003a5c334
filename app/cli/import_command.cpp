// warpboard import FILE... --summary --json: reads people's own profiler files through the
// Qt-free importers and prints one JSON summary; for trace files (the ranks of one job) it
// adds the slowdown triage (slowdown-triage): per-rank compute, comm, wait, overlap, idle and a
// verdict.
// `--generate CASE --out DIR` writes the lesson's generated Kineto traces, one per rank, to
// try it on. No QApplication: it runs on headless boxes.
#include "cli/arguments.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "cli/ranked_traces.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "import/chrome_trace_result.h"
#include "import/import_registry.h"
#include "triage/kineto_trace_generator.h"
#include "triage/rank_analysis.h"
#include "triage/triage_json.h"
#include "triage/triage_verdict.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

namespace wb::cli {

namespace {

const char* const kImportUsage =
    "usage: warpboard import FILE|FOLDER... [--summary] [--json] [--jobs N]\n"
    "       warpboard import --generate healthy|straggler|fabric|overlap --out DIR\n"
    "                        [--ranks N] [--seed S] [--straggler-rank R]";

long integerOption(const std::string& name, const std::string& text, long min, long max) {
    const auto v = parseNumber(text);
    if (!v || *v != static_cast<double>(static_cast<long>(*v)) || *v < static_cast<double>(min) ||
        *v > static_cast<double>(max))
        throw CliError("import: " + name + " must be an integer from " + std::to_string(min) +
                       " to " + std::to_string(max) + ", got '" + text + "'");
    return static_cast<long>(*v);
}

// --generate: the lesson's traces as files, named rank-K.json.
int runGenerate(const std::vector<std::string>& words) {
    const Arguments args(words, {});
    args.requireKnown({"generate", "out", "ranks", "seed", "straggler-rank"}, "import --generate");
    if (!args.positionals().empty())
        throw CliError("import: unexpected argument '" + args.positionals().front() +
                       "' with --generate\n" + kImportUsage);
    TraceGeneratorConfig cfg;
    const std::string caseName = args.value("generate").value_or("");
    const std::string out = args.value("out").value_or("");
    if (const auto ranks = args.value("ranks"))
        cfg.ranks = static_cast<int>(integerOption("--ranks", *ranks, 1, 1024));
    if (const auto seed = args.value("seed"))
        cfg.seed = static_cast<std::uint64_t>(integerOption("--seed", *seed, 0, 1L << 40));
    long stragglerRank = -1;
    if (const auto r = args.value("straggler-rank"))
        stragglerRank = integerOption("--straggler-rank", *r, 0, 1023);
    bool known = false;
    for (const TriageCase c : allTriageCases())
        if (triageCaseName(c) == caseName) {
            cfg.triageCase = c;
            known = true;
        }
    if (!known)
        throw CliError("import: --generate takes healthy, straggler, fabric or overlap, got '" +
                       caseName + "'");
    if (out.empty())
        throw CliError(std::string("import: --generate needs --out DIR\n") + kImportUsage);
    if (stragglerRank >= cfg.ranks)
        throw CliError("import: --straggler-rank must be below --ranks");
    cfg.stragglerRank = stragglerRank >= 0 ? static_cast<int>(stragglerRank) : cfg.ranks - 1;
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    int r = 0;
    for (const auto& text : generateKinetoTraces(cfg)) {
        const auto path = std::filesystem::path(out) / ("rank-" + std::to_string(r++) + ".json");
        std::ofstream file(path, std::ios::binary);
        file << text;
        if (!file)
            throw CliError("import: cannot write " + path.string());
        std::cout << path.string() << "\n";
    }
    return 0;
}

} // namespace

int runImport(const std::vector<std::string>& words) {
    if (std::any_of(words.begin(), words.end(), [](const std::string& w) {
            return w == "--generate" || w.rfind("--generate=", 0) == 0;
        }))
        return runGenerate(words);
    std::vector<std::string> files;
    bool json = false;
    unsigned workers = 0; // one per core
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == "--jobs" || w.rfind("--jobs=", 0) == 0) {
            const bool joined = w != "--jobs";
            if (!joined && i + 1 == words.size())
                throw CliError(std::string("import: --jobs needs a value\n") + kImportUsage);
            workers = static_cast<unsigned>(
                integerOption("--jobs", joined ? w.substr(7) : words[++i], 1, 1024));
            continue;
        }
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

    // The files that read are summarised (and triaged) together; then every one that did
    // not is listed on stderr and the exit code is 2. Nothing read: stdout stays empty.
    const ImportOutcome outcome = importAll(files, workers);
    if (outcome.results.empty())
        return reportImportErrors(outcome);
    const auto& results = outcome.results;

    // Several trace files are the ranks of one job (numbered as the GUI numbers them).
    const RankedTraces ranked = rankTraces(outcome);
    std::set<long> ranks;
    for (const auto* t : ranked.traces)
        ranks.insert(*t->rank);

    nlohmann::ordered_json out;
    out["files"] = nlohmann::ordered_json::array();
    for (const auto& r : results)
        out["files"].push_back(r->summary());
    out["ranks"] = ranks.size();

    std::string verdictLine;
    if (!ranked.traces.empty()) {
        // The triage over the traces in rank order (rank_analysis.h, triage_verdict.h).
        std::vector<RankInput> inputs;
        for (const auto* t : ranked.traces)
            inputs.push_back({.store = &t->store, .rank = *t->rank});
        const long worldSize = ranked.worldSize; // the job's size when the files say it
        const std::vector<RankFigures> figures = analyseRanks(inputs);
        const TriageVerdict verdict = triageVerdict(figures, worldSize);
        putTriageJson(out, verdict, figures);
        for (std::size_t k = 0; k < figures.size(); ++k) {
            const nlohmann::ordered_json f = out["per_rank"][k]; // a copy: files[] is written next
            auto& file = out["files"][ranked.resultIndex[k]];
            for (const auto& [key, value] : f.items())
                if (key != "rank")
                    file[key] = value;
        }
        verdictLine = "verdict: " + verdict.verdict;
        if (verdict.stragglerRank)
            verdictLine.append(" (rank " + std::to_string(*verdict.stragglerRank) + ")");
        verdictLine.append(": " + verdict.evidence);
    }
    if (json) {
        std::cout << dumpSummary(out) << "\n";
        std::cout.flush();
        return reportImportErrors(outcome);
    }
    for (const auto& f : out["files"]) {
        std::cout << f["path"].get<std::string>() << ": " << f["format"].get<std::string>();
        for (const auto& [key, value] : f.items())
            if (key != "path" && key != "format")
                std::cout << ", " << key << " " << dumpSummary(value, -1);
        std::cout << "\n";
    }
    std::cout << "ranks: " << ranks.size() << "\n";
    if (!verdictLine.empty())
        std::cout << verdictLine << "\n";
    std::cout.flush(); // the summaries, then the errors
    return reportImportErrors(outcome);
}

} // namespace wb::cli
