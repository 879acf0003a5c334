#include "summary/job_summarizer.h"

#include "analysis/straggler_candidates.h"
#include "engine/imported_set.h"
#include "import/import_registry.h"
#include "import/input_files.h"
#include "summary/summary_wire.h"
#include "triage/triage_verdict.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <numeric>

namespace wb {

namespace {

using Clock = std::chrono::steady_clock;

SummaryPlan planSummary(const std::vector<std::string>& inputs, int processes) {
    SummaryPlan plan;
    const InputFiles expanded = expandInputs(inputs);
    for (const ImportError& problem : expanded.problems) {
        plan.problemPaths.push_back(problem.path);
        plan.problems.push_back(problem.describe());
    }
    plan.files = expanded.files;
    for (const std::string& path : plan.files) {
        std::error_code ec;
        const std::uintmax_t size = std::filesystem::file_size(path, ec);
        plan.bytes.push_back(ec ? 0 : static_cast<std::uint64_t>(size));
    }
    plan.reader = balanceFiles(plan.bytes, processes);
    return plan;
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

JobSummaryStep summaryStep(const StepFigures& s) {
    return {.number = s.step.number, .stepUs = s.stepUs, .figures = s.figures};
}

// The root's part: rank numbers, the cross-rank analyses and the provenance.
JobSummary assembleSummary(const SummarizeRequest& request, const SummaryPlan& plan,
                           const std::vector<ProcessResults>& processes, double seconds) {
    std::vector<const RankFileResult*> byFile(plan.files.size(), nullptr);
    for (const ProcessResults& p : processes)
        for (const RankFileResult& f : p.files)
            if (f.info.index < byFile.size())
                byFile[f.info.index] = &f;

    JobSummary s;
    s.processes = static_cast<int>(processes.size());
    for (std::size_t i = 0; i < plan.problems.size(); ++i)
        s.failed.push_back({.path = plan.problemPaths[i], .reason = plan.problems[i]});

    // The traces that read, in the job's file order, numbered as `import` numbers them.
    std::vector<const RankFileResult*> traces;
    std::vector<std::optional<long>> given;
    for (std::size_t i = 0; i < byFile.size(); ++i) {
        const RankFileResult* f = byFile[i];
        if (!f) {
            s.failed.push_back({.path = plan.files[i], .reason = "no process reported it"});
            continue;
        }
        if (!f->info.error.empty()) {
            s.failed.push_back({.path = plan.files[i], .reason = f->info.error});
            continue;
        }
        traces.push_back(f);
        given.push_back(f->info.givenRank);
        s.worldSize = std::max(s.worldSize, f->info.worldSize.value_or(0L));
    }
    const std::vector<long> ranks = numberRanks(given);
    std::vector<RankBreakdown> breakdowns;
    for (const std::size_t k : rankOrder(ranks)) {
        const RankFileResult& f = *traces[k];
        RankBreakdown b = f.breakdown;
        b.whole.rank = ranks[k];
        for (StepFigures& st : b.steps)
            st.figures.rank = ranks[k];
        JobSummaryRank r;
        r.whole = b.whole;
        r.file = plan.files[f.info.index];
        r.rankSource = f.info.givenRank ? f.info.rankSource : "order given";
        for (const StepFigures& st : b.steps)
            r.steps.push_back(summaryStep(st));
        r.topKernels = f.info.topKernels;
        s.ranks.push_back(std::move(r));
        breakdowns.push_back(std::move(b));
    }

    // The cross-rank analyses, on figures alone.
    if (!breakdowns.empty()) {
        std::vector<RankFigures> whole;
        for (const RankBreakdown& b : breakdowns)
            whole.push_back(b.whole);
        const TriageVerdict verdict = triageVerdict(whole, s.worldSize);
        s.verdict = verdict.verdict;
        s.stragglerRank = verdict.stragglerRank;
        s.evidence = verdict.evidence;
    }
    const StragglerCandidates stragglers = stragglerCandidates(breakdowns);
    s.stragglerMedianComputeUs = stragglers.medianComputeUs;
    s.stragglerThresholdUs = stragglers.thresholdUs;
    s.stragglerCandidates = stragglers.candidates;
    s.stragglerEvidence = stragglers.evidence;
    // Its rows are the ranks with steps, in order.
    std::size_t row = 0;
    for (std::size_t k = 0; k < breakdowns.size() && row < stragglers.ranks.size(); ++k) {
        if (breakdowns[k].steps.empty())
            continue;
        const RankStragglerRow& r = stragglers.ranks[row++];
        s.ranks[k].medianComputeUs = r.medianComputeUs;
        s.ranks[k].robustZ = r.robustZ;
        s.ranks[k].candidate = r.candidate;
    }

    // What differs from run to run, and only here.
    using OJ = nlohmann::ordered_json;
    OJ files = OJ::array();
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        OJ f{{"path", plan.files[i]},
             {"bytes", plan.bytes[i]},
             {"fnv1a64", byFile[i] ? byFile[i]->info.hash : ""},
             {"process", plan.reader[i]},
             {"seconds", byFile[i] ? byFile[i]->info.seconds : 0.0}};
        files.push_back(std::move(f));
    }
    OJ hosts = OJ::array();
    OJ processSeconds = OJ::array();
    for (const ProcessResults& p : processes) {
        hosts.push_back(p.host);
        processSeconds.push_back(p.seconds);
    }
    s.provenance = OJ{{"tool", "warpboard-summarize"},
                      {"version", request.toolVersion},
                      {"date", utcNow()},
                      {"output", request.out},
                      {"seconds", seconds},
                      {"hosts", std::move(hosts)},
                      {"process_seconds", std::move(processSeconds)},
                      {"files", std::move(files)}};
    return s;
}

// Written under a temporary name and renamed, so the summary is whole or absent.
void writeSummaryFile(const std::string& path, const JobSummary& summary) {
    const std::string partial = path + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error("cannot write '" + partial + "'");
        out << dumpSummary(jobSummaryJson(summary), -1) << "\n";
        out.close();
        if (!out)
            throw std::runtime_error("cannot write '" + partial + "' (disk full?)");
    }
    std::error_code ec;
    std::filesystem::rename(partial, path, ec);
    if (ec) {
        std::filesystem::remove(partial, ec);
        throw std::runtime_error("cannot rename the summary to '" + path + "'");
    }
}

} // namespace

std::vector<int> balanceFiles(const std::vector<std::uint64_t>& bytes, int processes) {
    // Largest first, each to the least loaded process (ties: the lower index): within 4/3 of
    // the best split, and the same split on every machine.
    std::vector<std::size_t> order(bytes.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&bytes](std::size_t a, std::size_t b) { return bytes[a] > bytes[b]; });
    const auto n = static_cast<std::size_t>(std::max(processes, 1));
    std::vector<std::uint64_t> load(n, 0);
    std::vector<std::size_t> count(n, 0);
    std::vector<int> reader(bytes.size(), 0);
    for (const std::size_t i : order) {
        // Equal loads (empty files): the fewest files, so counts spread too.
        std::size_t best = 0;
        for (std::size_t p = 1; p < n; ++p)
            if (load[p] < load[best] || (load[p] == load[best] && count[p] < count[best]))
                best = p;
        reader[i] = static_cast<int>(best);
        load[best] += bytes[i];
        ++count[best];
    }
    return reader;
}

JobSummary summarizeJob(const SummarizeRequest& request, ProcessGroup& group) {
    const auto start = Clock::now();
    std::string planBytes;
    if (group.isRoot())
        planBytes = encodePlan(planSummary(request.inputs, group.size()));
    const SummaryPlan plan = decodePlan(group.broadcast(planBytes));

    // Read this process's files, one trace in memory at a time, and reduce their calls.
    std::vector<RankFileRead> mine;
    JobShortestCalls local;
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        if (plan.reader[i] != group.index())
            continue;
        mine.push_back(readRankFile(plan.files[i], i));
        if (mine.back().info.error.empty())
            local.add(mine.back().measures);
    }
    std::string jobCalls;
    const std::vector<std::string> partials = group.gather(encodeShortestCalls(local));
    if (group.isRoot()) {
        JobShortestCalls all;
        for (const std::string& p : partials)
            all.merge(decodeShortestCalls(p));
        jobCalls = encodeShortestCalls(all);
    }
    const JobShortestCalls shortest = decodeShortestCalls(group.broadcast(jobCalls));

    ProcessResults results;
    results.host = group.hostName();
    for (RankFileRead& read : mine) {
        RankFileResult r{.info = std::move(read.info), .breakdown = {}};
        if (r.info.error.empty())
            r.breakdown = breakdownRank(read.measures, 0, shortest);
        read.measures = {};
        results.files.push_back(std::move(r));
    }
    results.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const std::vector<std::string> all = group.gather(encodeProcessResults(results));
    if (!group.isRoot())
        return {};
    std::vector<ProcessResults> processes;
    for (const std::string& p : all)
        processes.push_back(decodeProcessResults(p));
    return assembleSummary(request, plan, processes,
                           std::chrono::duration<double>(Clock::now() - start).count());
}

int runSummarizeJob(const SummarizeRequest& request, ProcessGroup& group, std::ostream& log) {
    const JobSummary summary = summarizeJob(request, group);
    if (!group.isRoot())
        return 0;
    for (const JobSummaryFailure& f : summary.failed)
        log << f.reason << "\n";
    try {
        writeSummaryFile(request.out, summary);
    } catch (const std::exception& e) {
        log << "warpboard-summarize: " << e.what() << "\n";
        return 1;
    }
    log << "warpboard-summarize: " << request.out << ": " << summary.ranks.size() << " ranks, "
        << summary.failed.size() << " failed, verdict " << summary.verdict;
    if (summary.stragglerRank)
        log << " (rank " << *summary.stragglerRank << ")";
    log << ", " << summary.processes << (summary.processes == 1 ? " process" : " processes")
        << "\n";
    return summary.failed.empty() ? 0 : 2;
}

} // namespace wb
