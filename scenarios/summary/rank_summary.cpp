#include "summary/rank_summary.h"

#include "analysis/gpu_launches.h"
#include "analysis/kernel_breakdown.h"
#include "analysis/profiler_steps.h"
#include "import/chrome_trace_result.h"
#include "import/file_hash.h"
#include "import/import_registry.h"

#include <chrono>
#include <exception>
#include <filesystem>
#include <new>

namespace wb {

namespace {

std::vector<JobSummaryKernel> rankTopKernels(const RankInput& input) {
    const KernelBreakdown kernels = kernelBreakdown({input}, AnalysisRange{});
    std::vector<JobSummaryKernel> out;
    for (const KernelTime& k : kernels.top) {
        if (out.size() == kJobSummaryTopKernels)
            break;
        out.push_back({.name = k.name,
                       .type = k.type,
                       .count = k.stats.count,
                       .totalUs = k.stats.totalUs,
                       .sharePct = k.pct,
                       .meanUs = k.stats.meanUs,
                       .p50Us = k.stats.p50Us,
                       .p99Us = k.stats.p99Us});
    }
    return out;
}

void measureRankFile(const std::string& path, RankFileRead& out) {
    std::error_code ec;
    out.info.bytes = std::filesystem::file_size(path, ec);
    if (ec)
        out.info.bytes = 0;
    auto imported = importCompleteFile(path);
    if (auto* err = std::get_if<ImportError>(&imported)) {
        out.info.error = err->describe();
        return;
    }
    const auto& result = std::get<std::unique_ptr<ImportResult>>(imported);
    const auto* trace = dynamic_cast<const ChromeTraceResult*>(result.get());
    if (!trace) {
        out.info.error = path + ": a " + result->format +
                         " file, not a profiler trace (warpboard-summarize reads traces)";
        return;
    }
    out.info.hash = fileFnv1a64(path).value_or("");
    out.info.givenRank = trace->rank;
    out.info.rankSource = trace->rankSource;
    out.info.worldSize = trace->worldSize;
    // The same steps and per-rank measurements as `warpboard analyze` (analyseTraces).
    const AnalysisRange whole;
    const RankInput input{.store = &trace->store,
                          .rank = 0,
                          .fromNs = whole.fromNs,
                          .toNs = whole.toNs,
                          .events = nullptr};
    const StepAssignment steps = assignSteps(trace->store, launchOfEvents(trace->store), whole);
    out.measures = measureRankSteps(input, steps, whole);
    out.info.topKernels = rankTopKernels(input);
}

} // namespace

RankFileRead readRankFile(const std::string& path, std::size_t index) {
    RankFileRead out;
    out.info.index = index;
    const auto start = std::chrono::steady_clock::now();
    try {
        measureRankFile(path, out);
    } catch (const std::bad_alloc&) {
        out.info.error = path + ": out of memory reading it on this process";
    } catch (const std::exception& e) {
        out.info.error = path + ": " + e.what();
    }
    if (!out.info.error.empty())
        out.measures = {};
    out.info.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

} // namespace wb
