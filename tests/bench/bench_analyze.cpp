// `warpboard analyze` against `warpboard import --summary` on one large generated Kineto trace
// (WB_ANALYZE_BENCH_MB, default 200; 0 skips): both commands run whole, as a user runs them,
// from reading the file to the JSON they print (sent to a null stream here), so the ratio is
// what the analyses add to the import. --benchmark_filter=AnalyzeVsSummary. Counter:
//   x_summary  analyze's time ÷ import --summary's time on the same file; target ≤ 1.5
// The summary runs first (its time is the reference). The file is written once to a
// temporary folder and deleted at exit.
#include "cli/commands.h"
#include "kineto_generator.h"

#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <streambuf>
#include <string>
#include <system_error>

namespace {

struct AnalyzeBenchFile {
    std::filesystem::path dir, path;
    double bytes = 0.0;

    AnalyzeBenchFile() {
        const char* text = std::getenv("WB_ANALYZE_BENCH_MB");
        const double mb = text && *text ? std::atof(text) : 200.0;
        if (mb <= 0)
            return;
        dir = std::filesystem::temp_directory_path() / "warpboard-bench-analyze";
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        std::filesystem::create_directories(dir, ec);
        path = dir / "rank-0.json";
        wb::bench::writeKinetoTrace(path.string(), mb, 11);
        bytes = static_cast<double>(std::filesystem::file_size(path, ec));
    }
    ~AnalyzeBenchFile() {
        std::error_code ec;
        if (!dir.empty())
            std::filesystem::remove_all(dir, ec);
    }
    AnalyzeBenchFile(const AnalyzeBenchFile&) = delete;
    AnalyzeBenchFile& operator=(const AnalyzeBenchFile&) = delete;
};

const AnalyzeBenchFile& analyzeBenchFile() {
    static const AnalyzeBenchFile file;
    return file;
}

// A stream buffer that drops what it is given: the commands' JSON is not the measure.
class DiscardBuffer : public std::streambuf {
protected:
    int_type overflow(int_type c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

double g_summarySeconds = 0.0;

void runCommandBenchmark(benchmark::State& state, bool analyze) {
    const AnalyzeBenchFile& file = analyzeBenchFile();
    if (file.path.empty()) {
        state.SkipWithError("WB_ANALYZE_BENCH_MB=0");
        return;
    }
    const std::vector<std::string> words =
        analyze ? std::vector<std::string>{file.path.string(), "--json"}
                : std::vector<std::string>{file.path.string(), "--summary", "--json"};
    DiscardBuffer discard;
    double best = 0.0;
    int code = 0;
    for (auto _ : state) {
        std::streambuf* const out = std::cout.rdbuf(&discard);
        const auto t0 = std::chrono::steady_clock::now();
        code = analyze ? wb::cli::runAnalyze(words) : wb::cli::runImport(words);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cout.rdbuf(out);
        best = best == 0.0 ? s : std::min(best, s);
        state.SetIterationTime(s);
    }
    if (code != 0)
        state.SkipWithError("the command failed");
    state.counters["file_MB"] = file.bytes / 1e6;
    state.counters["best_s"] = best;
    if (!analyze)
        g_summarySeconds = best;
    else if (g_summarySeconds > 0)
        state.counters["x_summary"] = best / g_summarySeconds;
}

void BM_AnalyzeVsSummary_ImportSummary(benchmark::State& state) {
    runCommandBenchmark(state, false);
}
void BM_AnalyzeVsSummary_Analyze(benchmark::State& state) {
    runCommandBenchmark(state, true);
}

} // namespace

BENCHMARK(BM_AnalyzeVsSummary_ImportSummary)
    ->UseManualTime()
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeVsSummary_Analyze)
    ->UseManualTime()
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
