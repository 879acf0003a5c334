// Job summaries at scale (--benchmark_filter=JobSummary):
//   BM_JobSummaryOpen_16384Ranks  readJobSummary on a 16,384-rank summary (8 ProfilerSteps and
//                                 5 top kernels per rank), what the app does to open one;
//                                 target ≤ 1 s. Counter summary_MB: the file's size.
//   BM_JobSummaryShow_16384Ranks  the same read and analysisFromSummary, everything the app
//                                 does off the GUI thread before the panels draw; ≤ 1 s.
//   BM_JobSummaryHeatmap_16384Ranks  one paint of the step heatmap panel at 1920×1080 with the
//                                 16,384 ranks × 8 steps; target ≤ 16 ms (a frame).
//   BM_JobSummaryPanels_16384Ranks   one paint of every panel at 1920×1080, each after its
//                                 first (the tables are made once per analysis).
//   BM_JobSummarize_4096Files/P   warpboard-summarize over 4,096 small generated rank traces
//                                 with P = 1 (one process) and P = 2 (mpirun -n 2, when built
//                                 with MPI). Counters: files_per_s_per_process, summary_MB.
// The files are written once to a temporary folder and removed at exit.
#include "analysis/trace_analysis.h"
#include "summary/job_summary.h"
#include "summary/summary_analysis.h"
#include "traces/analysis_panel.h"
#include "traces/step_heatmap_panel.h"
#include "triage/kineto_trace_generator.h"

#include <QImage>
#include <QPainter>
#include <QWidget>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// A summary of `ranks` synthetic ranks; the figures vary so nothing compresses into repeats.
wb::JobSummary syntheticJobSummary(int ranks) {
    wb::JobSummary s;
    s.worldSize = ranks;
    s.verdict = "straggler";
    s.stragglerRank = ranks / 3;
    s.evidence = "rank " + std::to_string(ranks / 3) + " computes 30 % more than the median";
    s.stragglerCandidates = {ranks / 3};
    s.stragglerEvidence = {s.evidence};
    for (int r = 0; r < ranks; ++r) {
        wb::JobSummaryRank rank;
        const double x = 1.0 + 0.001 * (r % 997);
        rank.whole = {.rank = r,
                      .windowUs = 812345.5 * x,
                      .computeUs = 602311.25 * x,
                      .commUs = 210002.125 * x,
                      .overlapUs = 90001.5 * x,
                      .overlapPct = 42.857 * x,
                      .exposedCommUs = 120000.625 * x,
                      .waitUs = 15000.75 * x,
                      .idleUs = 1200.5 * x,
                      .collectives = 240,
                      .steps = 8};
        rank.file = "job-1234/traces/host-" + std::to_string(r / 8) + "_rank-" + std::to_string(r) +
                    ".pt.trace.json.gz";
        rank.rankSource = "distributedInfo";
        rank.medianComputeUs = 75288.9 * x;
        rank.robustZ = 0.5 * x;
        for (long k = 0; k < 8; ++k) {
            wb::RankFigures f = rank.whole;
            f.windowUs /= 8.0 + 0.01 * static_cast<double>(k);
            f.computeUs /= 8.0 + 0.02 * static_cast<double>(k);
            f.collectives = 30;
            rank.steps.push_back({.number = 100 + k, .stepUs = f.windowUs * 1.01, .figures = f});
        }
        for (int k = 0; k < 5; ++k)
            rank.topKernels.push_back(
                {.name = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_" +
                         std::to_string(k),
                 .type = k == 0 ? "communication" : "computation",
                 .count = 1200 - 100 * k,
                 .totalUs = 100000.0 * x / (k + 1),
                 .sharePct = 20.0 / (k + 1),
                 .meanUs = 83.3 * x,
                 .p50Us = 80.1 * x,
                 .p99Us = 120.7 * x});
        s.ranks.push_back(std::move(rank));
    }
    s.processes = 64;
    s.provenance = {{"tool", "warpboard-summarize"}, {"date", "2026-01-01T00:00:00Z"}};
    return s;
}

struct JobSummaryBenchFiles {
    fs::path dir;
    fs::path summary; // the 16,384-rank summary
    fs::path traces;  // 4,096 small rank traces
    double summaryMB = 0.0;
    bool tracesWritten = false;

    JobSummaryBenchFiles() {
        dir = fs::temp_directory_path() /
              ("warpboard-bench-summary-" + std::to_string(static_cast<long>(getpid())));
        std::error_code ec;
        fs::create_directories(dir, ec);
        summary = dir / "job16k.wbsum.json";
        std::ofstream(summary, std::ios::binary)
            << wb::jobSummaryJson(syntheticJobSummary(16384)).dump(-1) << "\n";
        summaryMB = static_cast<double>(fs::file_size(summary, ec)) / 1e6;
        traces = dir / "ranks";
    }
    void writeTraces() {
        if (tracesWritten)
            return;
        std::error_code ec;
        fs::create_directories(traces, ec);
        wb::TraceGeneratorConfig cfg;
        cfg.triageCase = wb::TriageCase::Straggler;
        cfg.ranks = 4096;
        cfg.stragglerRank = 1234;
        cfg.steps = 2;
        cfg.layers = 2;
        cfg.layersPerBucket = 1;
        int r = 0;
        for (const std::string& text : wb::generateKinetoTraces(cfg))
            std::ofstream(traces / ("rank-" + std::to_string(r++) + ".json"), std::ios::binary)
                << text;
        tracesWritten = true;
    }
    ~JobSummaryBenchFiles() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    JobSummaryBenchFiles(const JobSummaryBenchFiles&) = delete;
    JobSummaryBenchFiles& operator=(const JobSummaryBenchFiles&) = delete;
};

JobSummaryBenchFiles& jobSummaryBenchFiles() {
    static JobSummaryBenchFiles files;
    return files;
}

void BM_JobSummaryOpen_16384Ranks(benchmark::State& state) {
    const JobSummaryBenchFiles& files = jobSummaryBenchFiles();
    for (auto _ : state) {
        const wb::JobSummary s = wb::readJobSummary(files.summary.string());
        benchmark::DoNotOptimize(s.ranks.size());
    }
    state.counters["summary_MB"] = files.summaryMB;
}
BENCHMARK(BM_JobSummaryOpen_16384Ranks)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_JobSummaryShow_16384Ranks(benchmark::State& state) {
    const JobSummaryBenchFiles& files = jobSummaryBenchFiles();
    for (auto _ : state) {
        const wb::JobSummary s = wb::readJobSummary(files.summary.string());
        const wb::TraceAnalysis a = wb::analysisFromSummary(s);
        benchmark::DoNotOptimize(a.perRank.size());
    }
}
BENCHMARK(BM_JobSummaryShow_16384Ranks)->Unit(benchmark::kMillisecond)->Iterations(3);

std::shared_ptr<const wb::TraceAnalysis> summaryBenchAnalysis() {
    static const auto analysis = std::make_shared<const wb::TraceAnalysis>(
        wb::analysisFromSummary(syntheticJobSummary(16384)));
    return analysis;
}

void summaryBenchPaint(const wb::AnalysisPanel& panel, QImage& image) {
    QPainter p(&image);
    panel.render(p, QRectF(QPointF(0, 0), image.size()));
}

void BM_JobSummaryHeatmap_16384Ranks(benchmark::State& state) {
    wb::StepHeatmapPanel panel;
    panel.setAnalysis(summaryBenchAnalysis());
    QImage image(1920, 1080, QImage::Format_RGB32);
    for (auto _ : state)
        summaryBenchPaint(panel, image);
}
BENCHMARK(BM_JobSummaryHeatmap_16384Ranks)->Unit(benchmark::kMillisecond);

void BM_JobSummaryPanels_16384Ranks(benchmark::State& state) {
    QWidget parent;
    const auto panels = wb::makeAnalysisPanels(&parent);
    QImage image(1920, 1080, QImage::Format_RGB32);
    for (wb::AnalysisPanel* panel : panels) {
        panel->setAnalysis(summaryBenchAnalysis());
        summaryBenchPaint(*panel, image);
    }
    for (auto _ : state)
        for (wb::AnalysisPanel* panel : panels)
            summaryBenchPaint(*panel, image);
}
BENCHMARK(BM_JobSummaryPanels_16384Ranks)->Unit(benchmark::kMillisecond);

void BM_JobSummarize_4096Files(benchmark::State& state) {
    const int processes = static_cast<int>(state.range(0));
    JobSummaryBenchFiles& files = jobSummaryBenchFiles();
    const std::string mpiexec = WB_MPIEXEC;
    if (processes > 1 && (!WB_SUMMARIZE_MPI || mpiexec.empty())) {
        state.SkipWithError("warpboard-summarize was built without MPI");
        return;
    }
    files.writeTraces();
    const fs::path out = files.dir / "job4096.wbsum.json";
    std::string command;
    if (processes > 1) {
        command = mpiexec + " --oversubscribe -n " + std::to_string(processes);
        if (geteuid() == 0)
            command.append(" --allow-run-as-root");
        command.append(" ");
    }
    command.append(WB_SUMMARIZE_BIN)
        .append(" ")
        .append(files.traces.string())
        .append(" --out ")
        .append(out.string())
        .append(" 2>/dev/null");
    double seconds = 0.0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const int code = std::system(command.c_str());
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (code != 0) {
            state.SkipWithError("warpboard-summarize failed");
            return;
        }
    }
    std::error_code ec;
    state.counters["files_per_s_per_process"] =
        4096.0 * static_cast<double>(state.iterations()) / seconds / processes;
    state.counters["summary_MB"] = static_cast<double>(fs::file_size(out, ec)) / 1e6;
}
BENCHMARK(BM_JobSummarize_4096Files)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

} // namespace
