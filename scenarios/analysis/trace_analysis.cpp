#include "analysis/trace_analysis.h"

#include "analysis/gpu_launches.h"
#include "analysis/profiler_steps.h"
#include "engine/number_format.h"
#include "engine/sentence.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string_view>

namespace wb {

namespace {

using Row = std::vector<AnalysisCell>;

// A column from its key alone: the suffix names the unit ("_us" µs, "_pct" %), the rest is
// the title with spaces ("exposed_comm_us" → "exposed comm (µs)"), so a key and its header
// can never disagree.
AnalysisColumn anColumn(std::string_view key) {
    std::string_view stem = key;
    std::string_view unit;
    int decimals = 2;
    if (stem.ends_with("_us")) {
        unit = "µs";
        stem.remove_suffix(3);
        decimals = 1;
    } else if (stem.ends_with("_pct")) {
        unit = "%";
        stem.remove_suffix(4);
        decimals = 1;
    }
    std::string title(stem);
    std::replace(title.begin(), title.end(), '_', ' ');
    // Built from string_views: assigning a literal to a std::string member trips GCC 12's
    // false -Wrestrict at -O3.
    return {.key = std::string(key),
            .title = std::move(title),
            .unit = std::string(unit),
            .decimals = decimals};
}

std::vector<AnalysisColumn> anColumns(std::initializer_list<std::string_view> keys) {
    std::vector<AnalysisColumn> out;
    for (const std::string_view k : keys)
        out.push_back(anColumn(k));
    return out;
}

std::int64_t anCount(long v) {
    return static_cast<std::int64_t>(v);
}

// The cells of one RankFigures, shared by the per-rank and per-step tables, and their keys.
constexpr std::array<std::string_view, 8> kAnFigureKeys = {
    "window_us",   "compute_us", "comm_us", "exposed_comm_us",
    "overlap_pct", "idle_us",    "wait_us", "collectives"};
void anAppendFigures(Row& row, const RankFigures& f) {
    row.insert(row.end(), {f.windowUs, f.computeUs, f.commUs, f.exposedCommUs, f.overlapPct,
                           f.idleUs, f.waitUs, anCount(f.collectives)});
}

// mean, p50 and p99 of one DurationStats: "<prefix>_mean_us" ("mean_us" without a prefix).
void anAppendStatsColumns(std::vector<AnalysisColumn>& to, const std::string& prefix) {
    const std::string p = prefix.empty() ? prefix : std::string(prefix).append("_");
    for (const char* stat : {"mean_us", "p50_us", "p99_us"})
        to.push_back(anColumn(std::string(p).append(stat)));
}

void anAppendStats(Row& row, const DurationStats& d) {
    row.insert(row.end(), {d.meanUs, d.p50Us, d.p99Us});
}

} // namespace

TraceAnalysis analyseTraces(const std::vector<RankInput>& ranks, const AnalysisRange& range,
                            long worldSize, const AnalysisControl& control) {
    TraceAnalysis a;
    a.range = range;
    // Progress by parts: the per-rank passes (launches and steps, then idle) weigh by rank,
    // the cross-rank analyses a share each.
    const double n = static_cast<double>(std::max<std::size_t>(1, ranks.size()));
    const auto report = [&control](double done) {
        if (control.progress)
            control.progress(std::min(1.0, done));
    };
    const auto stop = [&control] { return control.cancelled && control.cancelled(); };
    std::vector<std::vector<std::uint32_t>> launches;
    std::vector<StepAssignment> steps;
    for (const RankInput& r : ranks) {
        if (stop())
            return a;
        a.ranks.push_back(r.rank);
        launches.push_back(launchOfEvents(*r.store));
        steps.push_back(assignSteps(*r.store, launches.back(), range));
        report(0.4 * static_cast<double>(steps.size()) / n);
    }
    a.perRank = breakdownRanks(ranks, steps, range);
    report(0.6);
    std::vector<RankFigures> whole;
    for (const RankBreakdown& r : a.perRank) {
        whole.push_back(r.whole);
        a.temporal.push_back(temporalBreakdown(r.whole));
    }
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (stop())
            return a;
        const auto rows = idleBreakdown(ranks[i], launches[i], range);
        a.idle.insert(a.idle.end(), rows.begin(), rows.end());
        report(0.6 + 0.2 * static_cast<double>(i + 1) / n);
    }
    if (stop())
        return a;
    a.kernels = kernelBreakdown(ranks, range);
    report(0.9);
    a.launches = launchStats(ranks, launches, range);
    a.stragglers = stragglerCandidates(a.perRank);
    if (!whole.empty())
        a.triage = triageVerdict(whole, worldSize);
    report(1.0);
    return a;
}

std::vector<AnalysisTable> TraceAnalysis::tables() const {
    std::vector<AnalysisTable> t;
    auto table = [&t](const char* id, const std::string& title,
                      std::initializer_list<std::string_view> keys) -> AnalysisTable& {
        AnalysisTable& x = t.emplace_back();
        x.id = id;
        x.title = title;
        x.columns = anColumns(keys);
        return x;
    };

    AnalysisTable& perRankT = table("per_rank", "Per rank", {"rank"});
    for (const std::string_view k : kAnFigureKeys)
        perRankT.columns.push_back(anColumn(k));
    perRankT.columns.push_back(anColumn("steps"));
    for (const RankBreakdown& r : perRank) {
        Row row{anCount(r.whole.rank)};
        anAppendFigures(row, r.whole);
        row.push_back(static_cast<std::int64_t>(r.steps.size()));
        perRankT.rows.push_back(std::move(row));
    }

    AnalysisTable& stepT =
        table("per_step", "Per ProfilerStep (GPU work by the step its launch started in)",
              {"rank", "step", "step_us"});
    for (const std::string_view k : kAnFigureKeys)
        stepT.columns.push_back(anColumn(k));
    for (const RankBreakdown& r : perRank)
        for (const StepFigures& s : r.steps) {
            Row row{anCount(r.whole.rank), stepLabel(s.step), s.stepUs};
            anAppendFigures(row, s.figures);
            stepT.rows.push_back(std::move(row));
        }

    AnalysisTable& tempT =
        table("temporal_breakdown", "Temporal breakdown (share of each rank's GPU window)",
              {"rank", "window_us", "idle_us", "idle_pct", "compute_us", "compute_pct",
               "non_compute_us", "non_compute_pct"});
    for (const TemporalBreakdown& b : temporal)
        tempT.rows.push_back({anCount(b.rank), b.windowUs, b.idleUs, b.idlePct, b.computeUs,
                              b.computePct, b.nonComputeUs, b.nonComputePct});

    AnalysisTable& idleT = table("idle_breakdown", "Idle time per stream",
                                 {"rank", "stream", "span_us", "busy_us", "idle_us", "host_wait_us",
                                  "kernel_wait_us", "other_us", "gaps"});
    for (const StreamIdle& s : idle)
        idleT.rows.push_back({anCount(s.rank), s.stream, s.spanUs, s.busyUs, s.idleUs, s.hostWaitUs,
                              s.kernelWaitUs, s.otherUs, static_cast<std::int64_t>(s.gaps)});

    AnalysisTable& typeT =
        table("kernel_types", "GPU time by kernel type (all ranks, durations summed)",
              {"type", "count", "total_us", "share_pct"});
    for (const KernelTypeTime& k : kernels.byType)
        typeT.rows.push_back({k.type, k.count, k.totalUs, k.pct});

    AnalysisTable& topT = table("top_kernels", "Top kernels by total time (all ranks)",
                                {"kernel", "type", "count", "total_us", "share_pct"});
    anAppendStatsColumns(topT.columns, "");
    for (const KernelTime& k : kernels.top) {
        Row row{k.name, k.type, k.stats.count, k.stats.totalUs, k.pct};
        anAppendStats(row, k.stats);
        topT.rows.push_back(std::move(row));
    }

    AnalysisTable& launchT =
        table("launch_per_kernel", "Kernel launches (correlation-matched; most launched first)",
              {"kernel", "count"});
    for (const char* prefix : {"cpu_launch", "gpu", "delay"})
        anAppendStatsColumns(launchT.columns, prefix);
    for (const KernelLaunchRow& k : launches.perKernel) {
        Row row{k.name, k.gpu.count};
        anAppendStats(row, k.cpuLaunch);
        anAppendStats(row, k.gpu);
        anAppendStats(row, k.delay);
        launchT.rows.push_back(std::move(row));
    }

    AnalysisTable& outT =
        table("launch_outliers",
              fill("Launch outliers (short kernel: GPU < CPU launch; long "
                   "launch > %1 µs; long delay > %2 µs)",
                   {formatNumber(kLaunchRuntimeCutoffUs), formatNumber(kLaunchDelayCutoffUs)}),
              {"rank", "kernel", "start_us", "cpu_launch_us", "gpu_us", "delay_us", "reason"});
    for (const LaunchOutlier& o : launches.outliers)
        outT.rows.push_back(
            {anCount(o.rank), o.name, o.startUs, o.cpuLaunchUs, o.gpuUs, o.delayUs, o.reason});

    AnalysisTable& strT =
        table("stragglers",
              fill("Straggler candidates (compute per step above the ranks' median + %1·1.4826·MAD "
                   "and %2 % over it)",
                   {formatNumber(kStragglerMadK), formatNumber(100.0 * kStragglerMinExcess)}),
              {"rank", "median_compute_us", "robust_z", "wait_us", "candidate"});
    for (const RankStragglerRow& r : stragglers.ranks)
        strT.rows.push_back({anCount(r.rank), r.medianComputeUs, r.robustZ, r.waitUs,
                             std::string(r.candidate ? "yes" : "no")});
    return t;
}

nlohmann::ordered_json TraceAnalysis::json() const {
    using J = nlohmann::ordered_json;
    const std::vector<AnalysisTable> t = tables();
    auto table = [&t](const char* id) -> const AnalysisTable& {
        for (const AnalysisTable& x : t)
            if (x.id == id)
                return x;
        return t.front();
    };
    J out;
    out["ranks"] = ranks;
    if (range.bounded())
        out["range"] = {{"start_us", static_cast<double>(range.fromNs) / 1000.0},
                        {"end_us", static_cast<double>(range.toNs) / 1000.0}};
    // per_rank rows, each with its steps' rows (per_step's rows of that rank, in order).
    J perRankJ = J::array();
    const AnalysisTable& rankT = table("per_rank");
    const AnalysisTable& stepT = table("per_step");
    std::size_t stepRow = 0;
    for (std::size_t r = 0; r < rankT.rows.size(); ++r) {
        J row = rankT.rowJson(r);
        J steps = J::array();
        for (std::size_t k = 0; k < perRank[r].steps.size(); ++k) {
            J s = stepT.rowJson(stepRow++);
            s.erase("rank");
            steps.push_back(std::move(s));
        }
        row["steps"] = std::move(steps);
        perRankJ.push_back(std::move(row));
    }
    out["per_rank"] = std::move(perRankJ);
    out["temporal_breakdown"] = table("temporal_breakdown").json();
    out["idle_breakdown"] = table("idle_breakdown").json();
    out["kernel_breakdown"] = {{"by_type", table("kernel_types").json()},
                               {"distinct_kernels", kernels.distinctKernels},
                               {"top_kernels", table("top_kernels").json()}};
    auto stats = [](const DurationStats& d) {
        return J{{"mean_us", d.meanUs}, {"p50_us", d.p50Us}, {"p99_us", d.p99Us}};
    };
    out["launch_stats"] = {{"matched_kernels", launches.matched},
                           {"unmatched_kernels", launches.unmatched},
                           {"cpu_launch", stats(launches.cpuLaunch)},
                           {"gpu", stats(launches.gpu)},
                           {"delay", stats(launches.delay)},
                           {"thresholds",
                            {{"short_kernel", "GPU duration < CPU launch duration"},
                             {"long_launch_us", kLaunchRuntimeCutoffUs},
                             {"long_delay_us", kLaunchDelayCutoffUs}}},
                           {"outlier_counts",
                            {{"short_kernel", launches.shortKernels},
                             {"long_launch", launches.longLaunches},
                             {"long_delay", launches.longDelays}}},
                           {"per_kernel", table("launch_per_kernel").json()},
                           {"outliers", table("launch_outliers").json()}};
    out["stragglers"] = {{"metric", "compute per ProfilerStep"},
                         {"k", kStragglerMadK},
                         {"min_excess_pct", 100.0 * kStragglerMinExcess},
                         {"median_compute_us", stragglers.medianComputeUs},
                         {"threshold_us", stragglers.thresholdUs},
                         {"candidates", stragglers.candidates},
                         {"evidence", stragglers.evidence},
                         {"per_rank", table("stragglers").json()}};
    out["triage"] = {{"verdict", triage.verdict},
                     {"straggler_rank", triage.stragglerRank ? J(*triage.stragglerRank) : J()},
                     {"evidence", triage.evidence}};
    return out;
}

} // namespace wb
