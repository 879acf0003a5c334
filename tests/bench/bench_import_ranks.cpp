// Importing the ranks of one job: WB_RANKS_BENCH_FILES generated Kineto traces (default 64) of
// WB_RANKS_BENCH_MB each (default 50, the size the issue sets; 0 skips) through importAll,
// with one worker and with one per core (--benchmark_filter=ImportRanks). Counters:
//   wall_x_ideal  all-cores wall time ÷ (one-worker wall time ÷ cores): 1 is perfect scaling;
//                 the target is ≤ 1.3
//   peak_x_files  the import's peak resident memory ÷ the files' total size; target ≤ 0.5
// The peak is the process's high-water mark, reset just before the import
// (/proc/self/clear_refs), less what was resident then: the results, the read buffers and
// the threads' heaps. The files are written once to a temporary folder, deleted at exit.
#include "cli/commands.h"
#include "kineto_generator.h"

#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

double rankBenchSetting(const char* name, double fallback) {
    const char* text = std::getenv(name);
    return text && *text ? std::atof(text) : fallback;
}

// The generated files, written on first use and removed when the program ends.
struct RankBenchFiles {
    std::filesystem::path dir;
    int count = 0;
    double totalBytes = 0.0;

    RankBenchFiles() {
        const double mb = rankBenchSetting("WB_RANKS_BENCH_MB", 50.0);
        const int files = static_cast<int>(rankBenchSetting("WB_RANKS_BENCH_FILES", 64.0));
        if (mb <= 0 || files <= 0)
            return;
        dir = std::filesystem::temp_directory_path() / "warpboard-bench-ranks";
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        std::filesystem::create_directories(dir, ec);
        for (int r = 0; r < files; ++r) {
            const auto path = dir / std::string("rank-").append(std::to_string(r)).append(".json");
            wb::bench::writeKinetoTrace(path.string(), mb, static_cast<unsigned>(r + 1));
            totalBytes += static_cast<double>(std::filesystem::file_size(path, ec));
        }
        count = files;
    }
    ~RankBenchFiles() {
        std::error_code ec;
        if (!dir.empty())
            std::filesystem::remove_all(dir, ec);
    }
    RankBenchFiles(const RankBenchFiles&) = delete;
    RankBenchFiles& operator=(const RankBenchFiles&) = delete;
};

const RankBenchFiles& rankBenchFiles() {
    static const RankBenchFiles files;
    return files;
}

// A "VmHWM:"/"VmRSS:" line of /proc/self/status in bytes (0 where there is none).
double rankBenchResident(const std::string& key) {
    std::ifstream status("/proc/self/status");
    std::string word;
    while (status >> word)
        if (word == key) {
            double kib = 0;
            status >> kib;
            return kib * 1024.0;
        }
    return 0.0;
}

double g_oneWorkerSeconds = 0.0; // the one-worker run's time, for the all-cores ratio

void BM_ImportRanks(benchmark::State& state) {
    const RankBenchFiles& files = rankBenchFiles();
    if (files.count == 0) {
        state.SkipWithError("WB_RANKS_BENCH_MB=0 or WB_RANKS_BENCH_FILES=0");
        return;
    }
    const unsigned workers = state.range(0) > 0 ? static_cast<unsigned>(state.range(0))
                                                : wb::cli::defaultImportWorkers();
    double seconds = 0.0, peak = 0.0;
    bool ok = true;
    for (auto _ : state) {
#if defined(__GLIBC__)
        malloc_trim(0); // the previous run's freed heap back to the system, out of the base
#endif
        std::ofstream("/proc/self/clear_refs") << "5"; // the high-water mark := now
        const double base = rankBenchResident("VmRSS:");
        const auto t0 = std::chrono::steady_clock::now();
        const wb::cli::ImportOutcome outcome = wb::cli::importAll({files.dir.string()}, workers);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        peak = rankBenchResident("VmHWM:") - base;
        ok = outcome.errors.empty() &&
             outcome.results.size() == static_cast<std::size_t>(files.count);
        state.SetIterationTime(seconds);
    }
    if (!ok)
        state.SkipWithError("a file did not import");
    state.counters["files"] = files.count;
    state.counters["workers"] = workers;
    state.counters["files_MB"] = files.totalBytes / 1e6;
    state.counters["MB_per_s"] = files.totalBytes / 1e6 / seconds;
    state.counters["peak_MB"] = peak / 1e6;
    state.counters["peak_x_files"] = peak / files.totalBytes;
    if (workers == 1)
        g_oneWorkerSeconds = seconds;
    else if (g_oneWorkerSeconds > 0)
        state.counters["wall_x_ideal"] = seconds / (g_oneWorkerSeconds / workers);
}

} // namespace

// One worker first (its time is the reference), then one per core (Arg 0).
BENCHMARK(BM_ImportRanks)
    ->ArgName("workers")
    ->Arg(1)
    ->Arg(0)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
