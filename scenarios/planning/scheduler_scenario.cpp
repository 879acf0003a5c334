#include "planning/scheduler_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "planning/cluster_scheduler.h"
#include "planning/gang_allocation.h"
#include "planning/job_trace.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

namespace wb {

namespace {

constexpr double kHourS = 3600.0;
constexpr int kPolicies = 4;
constexpr int kLostRows = 16; // preempted jobs drawn in the contract step
const char* const kTeamNames[] = {"team A", "team B", "team C", "team D"};
const char* const kPriorityNames[] = {"low", "normal", "high"};
const char* const kSimulationSource = "simulateCluster on the seeded trace (generateJobTrace)";

// Gantt categories: the trace's job sizes, 1…64 GPUs (job_trace.h), so a colour is a size.
const std::vector<std::string>& sizeNames() {
    static const std::vector<std::string> names = {"1 GPU",   "2 GPUs",  "4 GPUs", "8 GPUs",
                                                   "16 GPUs", "32 GPUs", "64 GPUs"};
    return names;
}
int sizeClass(int gpus) {
    int c = 0;
    while ((1 << (c + 1)) <= gpus && c + 1 < static_cast<int>(sizeNames().size()))
        ++c;
    return c;
}

std::string hours(double h) {
    return fill("%1 h", {formatSignificant(h, 3)});
}

struct Simulation {
    std::vector<Job> trace;
    SchedulerConfig config; // policy set per run
    std::array<ScheduleResult, kPolicies> runs;
    SchedulePolicy focus = SchedulePolicy::Topology;
    int gpus() const { return config.cluster.gpus(); }
    const ScheduleResult& run(SchedulePolicy p) const { return runs[static_cast<std::size_t>(p)]; }
};

std::string jobTip(const Job& j) {
    return fill("job %1: %2 GPUs, %3, %4 priority, %5 of work, checkpoint every %6",
                {std::to_string(j.id), std::to_string(j.gpus), kTeamNames[j.team % 4],
                 kPriorityNames[std::clamp(j.priority, 0, 2)], hours(j.durationH),
                 hours(j.checkpointIntervalH)});
}

// A step function through (time, value) samples, as chart points: each value holds until the
// next sample.
struct Staircase {
    std::vector<ChartPoint> points;
    void add(double x, double y) {
        if (!points.empty())
            points.push_back({x, points.back().y});
        points.push_back({x, y});
    }
    // The points up to time `x`, the last value held to it: the chart grows with playback.
    std::vector<ChartPoint> upTo(double x) const {
        std::vector<ChartPoint> out;
        for (const ChartPoint& p : points) {
            if (p.x > x)
                break;
            out.push_back(p);
        }
        if (!out.empty() && out.back().x < x)
            out.push_back({x, out.back().y});
        return out;
    }
};

// One bar per job per node it ran on, per run segment (a preempted job has several), from
// the model's event log; the label is the GPUs the job held on that node.
ScheduleFrame nodeGantt(const Simulation& s, const ScheduleResult& r) {
    const ClusterTopology& c = s.config.cluster;
    ScheduleFrame f;
    f.rows.resize(static_cast<std::size_t>(c.nodes));
    for (int n = 0; n < c.nodes; ++n)
        f.rows[static_cast<std::size_t>(n)].label =
            fill("node %1 · leaf %2", {std::to_string(n), std::to_string(n / c.nodesPerLeaf)});
    std::vector<double> startedAt(s.trace.size(), -1.0);
    std::vector<std::vector<int>> held(s.trace.size());
    auto close = [&](int id, double endH, const char* how) {
        const auto i = static_cast<std::size_t>(id);
        std::map<int, int> perNode;
        for (int g : held[i])
            ++perNode[g / c.gpusPerNode];
        const Job& j = s.trace[i];
        for (const auto& [node, count] : perNode) {
            if (endH <= startedAt[i])
                break; // started and preempted at one instant: nothing to draw
            const std::string tip =
                fill("%1\n%2 GPUs on this node, %3–%4 h, %5; spread over %6 node(s)",
                     {jobTip(j), std::to_string(count), formatSignificant(startedAt[i], 3),
                      formatSignificant(endH, 3), how, std::to_string(perNode.size())});
            f.rows[static_cast<std::size_t>(node)].bars.push_back({.startS = startedAt[i] * kHourS,
                                                                   .endS = endH * kHourS,
                                                                   .kind = ScheduleKind::Compute,
                                                                   .label = std::to_string(count),
                                                                   .shade = 0,
                                                                   .tip = tip,
                                                                   .category = sizeClass(j.gpus)});
        }
        startedAt[i] = -1.0;
        held[i].clear();
    };
    for (const ScheduleEvent& e : r.events) {
        const auto i = static_cast<std::size_t>(e.job);
        if (e.kind == ScheduleEventKind::Start) {
            startedAt[i] = e.timeH;
            held[i] = e.gpus;
        } else if (e.kind == ScheduleEventKind::Preempt) {
            close(e.job, e.timeH, "preempted");
        } else if (e.kind == ScheduleEventKind::Finish) {
            close(e.job, e.timeH, "finished");
        }
    }
    for (std::size_t i = 0; i < startedAt.size(); ++i)
        if (startedAt[i] >= 0)
            close(static_cast<int>(i), r.horizonH, "still running at the horizon");
    for (ScheduleRow& row : f.rows)
        std::stable_sort(
            row.bars.begin(), row.bars.end(),
            [](const ScheduleBar& a, const ScheduleBar& b) { return a.startS < b.startS; });
    f.title =
        fill("%1: one row per node, bars coloured by job size", {schedulePolicyName(r.policy)});
    f.endS = r.horizonH * kHourS;
    f.categories = sizeNames();
    f.axisUnit = "h";
    f.axisUnitS = kHourS;
    f.caption = fill("useful utilisation %1 · stranded %2 · mean wait %3 · %4 jobs done",
                     {formatShare(r.usefulUtilization), formatShare(r.fragmentation),
                      hours(r.meanWaitH), std::to_string(r.jobsDone)});
    return f;
}

// The model's samples (after each event) as staircases: allocated, stranded, waiting.
struct Gauges {
    Staircase allocated, stranded, waiting;
    Staircase fragmentedShare;        // FGD-fragmented GPUs ÷ the cluster's GPUs
    std::vector<Staircase> teamShare; // per team: GPUs held ÷ the cluster's GPUs
    double horizonH = 0.0;
    int gpus = 0, peakWaiting = 0;
};
Gauges gaugesOf(const ScheduleResult& r, std::size_t teams) {
    Gauges g;
    g.horizonH = r.horizonH;
    g.gpus = r.gpus;
    g.teamShare.resize(teams);
    g.allocated.add(0, 0);
    g.stranded.add(0, 0);
    g.waiting.add(0, 0);
    g.fragmentedShare.add(0, 0);
    for (Staircase& t : g.teamShare)
        t.add(0, 0);
    const double gpus = std::max(r.gpus, 1);
    for (const ClusterSample& s : r.samples) {
        g.allocated.add(s.timeH, s.allocatedGpus);
        g.stranded.add(s.timeH, s.strandedGpus);
        g.waiting.add(s.timeH, s.waitingJobs);
        g.fragmentedShare.add(s.timeH, s.fragmentedGpus / gpus);
        for (std::size_t k = 0; k < teams && k < s.teamGpus.size(); ++k)
            g.teamShare[k].add(s.timeH, s.teamGpus[k] / gpus);
        g.peakWaiting = std::max(g.peakWaiting, s.waitingJobs);
    }
    return g;
}

double playbackH(double horizonH, double t) {
    return t >= 1.0 ? horizonH : t * horizonH;
}

ChartFrame gaugeChart(const std::string& title, const Gauges& g, double t) {
    const double now = playbackH(g.horizonH, t);
    ChartFrame f;
    f.title = title;
    f.x = {
        .title = "simulated time (h)", .log = false, .min = 0.0, .max = std::max(g.horizonH, 1e-3)};
    f.y = {.title = "GPUs (waiting: jobs)",
           .log = false,
           .min = 0.0,
           .max = 1.05 * std::max(g.gpus, g.peakWaiting)};
    f.series.push_back(
        {.name = "cluster GPUs",
         .points = {{0.0, static_cast<double>(g.gpus)}, {f.x.max, static_cast<double>(g.gpus)}},
         .style = ChartSeries::Style::Dashed,
         .colorIndex = 7});
    f.series.push_back({.name = "allocated GPUs",
                        .points = g.allocated.upTo(now),
                        .style = ChartSeries::Style::Line,
                        .colorIndex = 0});
    f.series.push_back({.name = "stranded GPUs",
                        .points = g.stranded.upTo(now),
                        .style = ChartSeries::Style::Line,
                        .colorIndex = 3});
    f.series.push_back({.name = "waiting jobs",
                        .points = g.waiting.upTo(now),
                        .style = ChartSeries::Style::Dashed,
                        .colorIndex = 4});
    f.footnote = "After each event of the model. Stranded: free GPUs no waiting job can use at "
                 "full speed (one node's worth for a job of ≤ 8 GPUs, whole nodes above).";
    return f;
}

FactsFrame metricsTable(const ScheduleResult& r) {
    FactsFrame f;
    f.title = fill("%1: what the simulation measured", {schedulePolicyName(r.policy)});
    f.rows.push_back({"utilisation (allocated)", formatShare(r.utilization),
                      fill("allocated GPU-hours ÷ (GPUs × horizon); %1", {kSimulationSource})});
    f.rows.push_back({.label = "useful utilisation",
                      .value = formatShare(r.usefulUtilization),
                      .source = "work kept at full-speed equivalent: a spread job counts "
                                "1/slowdown, work lost to preemption not at all",
                      .emphasis = true});
    f.rows.push_back({.label = "fragmentation (stranded)",
                      .value = formatShare(r.fragmentation),
                      .source = "time-averaged free GPUs no waiting job can use at full speed, ÷ "
                                "GPUs",
                      .emphasis = true});
    f.rows.push_back({"lost to the spread slowdown (assumed)", formatShare(r.slowdownLoss),
                      fill("allocated GPU-hours a spread placement wasted, ÷ capacity; %1 "
                           "spread starts",
                           {std::to_string(r.spreadStarts)})});
    f.rows.push_back({"mean queueing delay", hours(r.meanWaitH),
                      "first start − arrival; a job still queued counts its wait so far"});
    f.rows.push_back(
        {"jobs done / running / waiting",
         fill("%1 / %2 / %3", {std::to_string(r.jobsDone), std::to_string(r.jobsRunning),
                               std::to_string(r.jobsWaiting)}),
         fill("at the horizon: the last arrival, %1; %2 preemptions (only the preemptive policy "
              "preempts)",
              {hours(r.horizonH), std::to_string(r.preemptions)})});
    return f;
}

// Every number a policy's slides quote, in the unit it is shown in.
void addRunResults(std::vector<ResultValue>& out, const ScheduleResult& r) {
    const std::string n = schedulePolicyName(r.policy);
    out.insert(out.end(), {{n + " utilisation", r.utilization},
                           {n + " useful utilisation", r.usefulUtilization},
                           {n + " stranded", r.fragmentation},
                           {n + " FGD fragmentation", r.fgdFragmentation},
                           {n + " FGD share of free GPUs", r.fgdShareOfFree},
                           {n + " FGD while jobs wait", r.fgdWhileWaiting},
                           {n + " slowdown loss", r.slowdownLoss},
                           {n + " preemption loss", r.preemptionLoss},
                           {n + " spread starts", r.spreadStarts},
                           {n + " mean wait, h", r.meanWaitH},
                           {n + " jobs done", r.jobsDone},
                           {n + " jobs running", r.jobsRunning},
                           {n + " jobs waiting", r.jobsWaiting},
                           {n + " preemptions", r.preemptions},
                           {n + " horizon, h", r.horizonH}});
    for (std::size_t k = 0; k < r.teamShare.size(); ++k) {
        out.push_back({n + " team share", r.teamShare[k]});
        out.push_back({n + " time over quota", r.overQuota[k]});
    }
}

ScheduleFrame withCursor(ScheduleFrame f, double t) {
    f.cursorS = t >= 1.0 ? -1.0 : t * f.endS;
    return f;
}

// The arrival trace: one row per job size, a bar from arrival for the job's duration (as if
// it started at once), coloured by team.
ScheduleFrame traceGantt(const Simulation& s) {
    ScheduleFrame f;
    f.title = "The arrival trace: each job from its arrival for its duration, by size";
    f.rows.resize(sizeNames().size());
    for (std::size_t k = 0; k < sizeNames().size(); ++k)
        f.rows[k].label = sizeNames()[k];
    double end = 0.0;
    for (const Job& j : s.trace) {
        end = std::max(end, j.arrivalH + j.durationH);
        f.rows[static_cast<std::size_t>(sizeClass(j.gpus))].bars.push_back(
            {.startS = j.arrivalH * kHourS,
             .endS = (j.arrivalH + j.durationH) * kHourS,
             .kind = ScheduleKind::Compute,
             .label = std::to_string(j.id),
             .shade = 0,
             .tip = jobTip(j),
             .category = j.team % 4});
    }
    f.rows.erase(std::remove_if(f.rows.begin(), f.rows.end(),
                                [](const ScheduleRow& r) { return r.bars.empty(); }),
                 f.rows.end());
    f.endS = end * kHourS;
    f.categories.assign(std::begin(kTeamNames), std::end(kTeamNames));
    f.axisUnit = "h";
    f.axisUnitS = kHourS;
    f.caption = fill("%1 jobs over %2; the same trace for every policy",
                     {std::to_string(s.trace.size()), hours(s.trace.back().arrivalH)});
    return f;
}

// GPUs the trace asks for over time if every job started on arrival: the offered load.
Staircase demandOf(const std::vector<Job>& trace) {
    std::vector<std::pair<double, int>> edges;
    for (const Job& j : trace) {
        edges.emplace_back(j.arrivalH, j.gpus);
        edges.emplace_back(j.arrivalH + j.durationH, -j.gpus);
    }
    std::sort(edges.begin(), edges.end());
    Staircase st;
    st.add(0, 0);
    int level = 0;
    for (const auto& [x, d] : edges) {
        level += d;
        st.add(x, level);
    }
    return st;
}

// What the trace holds: jobs by size and priority, and the load it offers.
struct TraceStats {
    std::array<int, 7> bySize{};
    std::array<int, 3> byPriority{};
    double window = 0.0; // the last arrival, h
    double offeredLoad = 0.0;
};
TraceStats traceStats(const Simulation& s) {
    TraceStats st;
    double gpuHours = 0.0;
    for (const Job& j : s.trace) {
        ++st.bySize[static_cast<std::size_t>(sizeClass(j.gpus))];
        ++st.byPriority[static_cast<std::size_t>(std::clamp(j.priority, 0, 2))];
        gpuHours += j.gpus * j.durationH;
    }
    st.window = s.trace.back().arrivalH;
    st.offeredLoad = st.window > 0 ? gpuHours / (s.gpus() * st.window) : 0.0;
    return st;
}

FactsFrame traceTable(const Simulation& s, double load) {
    const TraceStats st = traceStats(s);
    const auto& bySize = st.bySize;
    const auto& byPriority = st.byPriority;
    std::string sizes;
    for (std::size_t k = 0; k < bySize.size(); ++k)
        sizes.append(k ? "/" : "").append(std::to_string(bySize[k]));
    FactsFrame f;
    f.title = "The trace every policy replays";
    const ClusterTopology& c = s.config.cluster;
    f.rows.push_back(
        {"cluster", fill("%1 GPUs, %2 nodes", {std::to_string(c.gpus()), std::to_string(c.nodes)}),
         fill("%1 GPUs per NVLink node, %2 nodes per leaf switch",
              {std::to_string(c.gpusPerNode), std::to_string(c.nodesPerLeaf)})});
    f.rows.push_back({"jobs", std::to_string(s.trace.size()), "Poisson arrivals, seeded"});
    f.rows.push_back({.label = "offered load",
                      .value = formatShare(st.offeredLoad),
                      .source = fill("GPU-hours asked ÷ cluster GPU-hours over the arrival window "
                                     "(asked for %1)",
                                     {formatShare(load)}),
                      .emphasis = true});
    f.rows.push_back({"jobs of 1/2/4/8/16/32/64 GPUs", sizes,
                      "assumed weights 30/15/15/20/10/6/4 %, capped at the cluster"});
    f.rows.push_back(
        {"priority low/normal/high",
         fill("%1/%2/%3", {std::to_string(byPriority[0]), std::to_string(byPriority[1]),
                           std::to_string(byPriority[2])}),
         "assumed 60/30/10 %; checkpoint contracts 0.5, 1 or 2 h"});
    std::string quotas;
    for (double q : s.config.teamQuota)
        quotas.append(quotas.empty() ? "" : " / ").append(formatShare(q));
    f.rows.push_back({"team quotas A/B/C/D", quotas,
                      "share of the cluster's GPUs; the preemptive policy enforces them"});
    return f;
}

// The preemptive run's preempted jobs: each run segment as work kept, then the work since the
// last checkpoint that the preemption threw away (at most the job's contract interval).
ScheduleFrame lostWorkGantt(const Simulation& s, const ScheduleResult& r) {
    std::vector<int> victims;
    for (const JobOutcome& o : r.jobs)
        if (o.preemptions > 0)
            victims.push_back(o.id);
    std::stable_sort(victims.begin(), victims.end(), [&](int a, int b) {
        return r.jobs[static_cast<std::size_t>(a)].lostWorkH >
               r.jobs[static_cast<std::size_t>(b)].lostWorkH;
    });
    if (victims.size() > static_cast<std::size_t>(kLostRows))
        victims.resize(static_cast<std::size_t>(kLostRows));
    std::sort(victims.begin(), victims.end());
    std::map<int, std::size_t> rowOf;
    ScheduleFrame f;
    for (int id : victims) {
        rowOf[id] = f.rows.size();
        const Job& j = s.trace[static_cast<std::size_t>(id)];
        f.rows.push_back(
            {.label = fill("job %1 · %2 GPUs · %3", {std::to_string(id), std::to_string(j.gpus),
                                                     kPriorityNames[std::clamp(j.priority, 0, 2)]}),
             .bars = {},
             .idleIsBubble = false});
    }
    std::map<int, double> startedAt;
    for (const ScheduleEvent& e : r.events) {
        const auto row = rowOf.find(e.job);
        if (row == rowOf.end())
            continue;
        const Job& j = s.trace[static_cast<std::size_t>(e.job)];
        auto& bars = f.rows[row->second].bars;
        if (e.kind == ScheduleEventKind::Start) {
            startedAt[e.job] = e.timeH;
        } else if (e.kind == ScheduleEventKind::Preempt || e.kind == ScheduleEventKind::Finish) {
            const double from = startedAt[e.job];
            const double slowdown = r.jobs[static_cast<std::size_t>(e.job)].slowdown;
            const double lostWall = std::min(e.timeH - from, e.lostWorkH * slowdown);
            const double kept = e.timeH - lostWall;
            if (kept > from)
                bars.push_back(
                    {.startS = from * kHourS,
                     .endS = kept * kHourS,
                     .kind = ScheduleKind::Compute,
                     .label = "",
                     .shade = 0,
                     .tip = fill("%1\nran %2–%3 h", {jobTip(j), formatSignificant(from, 3),
                                                     formatSignificant(e.timeH, 3)}),
                     .category = 0});
            if (e.kind == ScheduleEventKind::Preempt && lostWall > 0)
                bars.push_back(
                    {.startS = kept * kHourS,
                     .endS = e.timeH * kHourS,
                     .kind = ScheduleKind::Compute,
                     .label = fill("−%1", {hours(e.lostWorkH)}),
                     .shade = 0,
                     .tip = fill("preempted at %1 h: lost %2 of work since the last checkpoint "
                                 "(contract: at most %3)",
                                 {formatSignificant(e.timeH, 3), hours(e.lostWorkH),
                                  hours(j.checkpointIntervalH)}),
                     .category = 1});
            startedAt.erase(e.job);
        }
    }
    for (const auto& [id, from] : startedAt)
        f.rows[rowOf[id]].bars.push_back(
            {.startS = from * kHourS,
             .endS = r.horizonH * kHourS,
             .kind = ScheduleKind::Compute,
             .label = "",
             .shade = 0,
             .tip = fill("%1\nstill running at the horizon",
                         {jobTip(s.trace[static_cast<std::size_t>(id)])}),
             .category = 0});
    if (f.rows.empty())
        f.rows.push_back({.label = "no job was preempted", .bars = {}, .idleIsBubble = false});
    f.title = fill("Preempted jobs (up to %1 losing most): work kept, then work lost",
                   {std::to_string(kLostRows)});
    // The axis spans the hours these rows have bars in, whole hours either side: the hours
    // before the first victim starts and after the last one ends would be empty.
    double first = r.horizonH * kHourS, last = 0.0;
    for (const ScheduleRow& row : f.rows)
        for (const ScheduleBar& b : row.bars) {
            first = std::min(first, b.startS);
            last = std::max(last, b.endS);
        }
    const bool any = last > 0.0;
    f.startS = any ? std::floor(first / kHourS) * kHourS : 0.0;
    f.endS = any ? std::min(std::ceil(last / kHourS) * kHourS, std::max(last, r.horizonH * kHourS))
                 : r.horizonH * kHourS;
    f.categories = {"running (kept at a checkpoint or finished)", "lost since the last checkpoint"};
    f.axisUnit = "h";
    f.axisUnitS = kHourS;
    return f;
}

struct PreemptionSummary {
    double lostGpuH = 0.0;
    double worstShareOfContract = 0.0; // lost ÷ contract interval, the largest: ≤ 1
    double worstLostH = 0.0, worstContractH = 0.0;
    int jobsPreempted = 0;
};
PreemptionSummary summarise(const Simulation& s, const ScheduleResult& r) {
    PreemptionSummary p;
    for (const ScheduleEvent& e : r.events) {
        if (e.kind != ScheduleEventKind::Preempt)
            continue;
        const Job& j = s.trace[static_cast<std::size_t>(e.job)];
        p.lostGpuH += e.lostWorkH * j.gpus;
        const double share = e.lostWorkH / j.checkpointIntervalH;
        if (share > p.worstShareOfContract) {
            p.worstShareOfContract = share;
            p.worstLostH = e.lostWorkH;
            p.worstContractH = j.checkpointIntervalH;
        }
    }
    for (const JobOutcome& o : r.jobs)
        p.jobsPreempted += o.preemptions > 0 ? 1 : 0;
    return p;
}

// Mean wait of the high-priority jobs that arrived: what preemption buys.
double highPriorityWaitH(const Simulation& s, const ScheduleResult& r) {
    double sum = 0.0;
    int n = 0;
    for (const Job& j : s.trace) {
        if (j.priority < 2 || j.arrivalH > r.horizonH)
            continue;
        const JobOutcome& o = r.jobs[static_cast<std::size_t>(j.id)];
        sum += (o.firstStartH >= 0 ? o.firstStartH : r.horizonH) - j.arrivalH;
        ++n;
    }
    return n > 0 ? sum / n : 0.0;
}

FactsFrame preemptionTable(const Simulation& s) {
    const ScheduleResult& pre = s.run(SchedulePolicy::Preemptive);
    const ScheduleResult& topo = s.run(SchedulePolicy::Topology);
    const PreemptionSummary p = summarise(s, pre);
    double allocatedGpuH = pre.utilization * pre.gpus * pre.horizonH;
    FactsFrame f;
    f.title = "Preemption under checkpoint contracts";
    f.rows.push_back(
        {"preemptions / jobs preempted",
         fill("%1 / %2", {std::to_string(pre.preemptions), std::to_string(p.jobsPreempted)}),
         "victims: lower priority, or a team over its quota when the waiting job's "
         "team is within its own; cheapest first"});
    f.rows.push_back(
        {.label = "work lost",
         .value = fill("%1 GPU-h", {formatSignificant(p.lostGpuH, 3)}),
         .source = fill("%1 of the allocated GPU-hours; resumed from the last checkpoint",
                        {formatShare(allocatedGpuH > 0 ? p.lostGpuH / allocatedGpuH : 0.0)}),
         .emphasis = true});
    f.rows.push_back({"largest loss ÷ its contract", formatSignificant(p.worstShareOfContract, 3),
                      fill("≤ 1 by the contract: %1 lost of a %2 checkpoint interval",
                           {hours(p.worstLostH), hours(p.worstContractH)})});
    f.rows.push_back({.label = "high-priority mean wait",
                      .value = fill("%1 vs %2", {hours(highPriorityWaitH(s, pre)),
                                                 hours(highPriorityWaitH(s, topo))}),
                      .source = "preemptive vs topology (the same placement without preemption)",
                      .emphasis = true});
    f.rows.push_back({"useful utilisation",
                      fill("%1 vs %2", {formatShare(pre.usefulUtilization),
                                        formatShare(topo.usefulUtilization)}),
                      "preemptive vs topology: lost work and restarts are the price"});
    return f;
}

// One row per policy, the focus emphasised; `row(run)` gives the value and its source.
template <typename RowOf>
FactsFrame policyTable(const Simulation& s, std::string title, RowOf row) {
    FactsFrame f;
    f.title = std::move(title);
    for (int k = 0; k < kPolicies; ++k) {
        const auto p = static_cast<SchedulePolicy>(k);
        auto [value, source] = row(s.run(p));
        f.rows.push_back({.label = schedulePolicyName(p),
                          .value = std::move(value),
                          .source = std::move(source),
                          .emphasis = p == s.focus});
    }
    return f;
}

FactsFrame comparisonTable(const Simulation& s) {
    return policyTable(
        s, "Same trace, four policies: useful util · stranded · mean wait",
        [](const ScheduleResult& r) {
            return std::pair{
                fill("%1 · %2 · %3", {formatShare(r.usefulUtilization),
                                      formatShare(r.fragmentation), hours(r.meanWaitH)}),
                fill("utilisation %1, %2 jobs done, %3 preemptions",
                     {formatShare(r.utilization), std::to_string(r.jobsDone),
                      std::to_string(r.preemptions)})};
        });
}

ChartFrame comparisonChart(const Simulation& s) {
    ChartFrame f;
    f.title = "Mean queueing delay vs useful utilisation";
    double maxWait = 0.0;
    for (const ScheduleResult& r : s.runs)
        maxWait = std::max(maxWait, r.meanWaitH);
    f.x = {.title = "mean queueing delay (h)",
           .log = false,
           .min = 0.0,
           .max = maxWait > 0 ? maxWait * 1.15 : 1.0};
    f.y = {.title = "useful utilisation (%)", .log = false, .min = 0.0, .max = 100.0};
    for (int k = 0; k < kPolicies; ++k) {
        const auto p = static_cast<SchedulePolicy>(k);
        const ScheduleResult& r = s.run(p);
        f.markers.push_back(
            {.at = {r.meanWaitH, r.usefulUtilization * 100.0},
             .label = schedulePolicyName(p),
             .tooltip = fill("stranded %1, utilisation %2, useful %3, mean wait %4",
                             {formatShare(r.fragmentation), formatShare(r.utilization),
                              formatShare(r.usefulUtilization), hours(r.meanWaitH)}),
             .colorIndex = k,
             .estimate = false,
             .emphasis = p == s.focus});
    }
    f.footnote = "Up and to the left is better. Stranded is the fragmentation gauge; "
                 "it does not rank the policies the way useful utilisation does.";
    return f;
}

// FGD's figure, derived from its abstract: 290 more GPUs used after cutting unallocated GPUs
// by up to 49 % means the baseline left about 290 ÷ 0.49 ≈ 590 unallocated, of 6,200.
constexpr double kFgdExtraGpus = 290.0;
constexpr double kFgdReduction = 0.49;
constexpr double kFgdClusterGpus = 6200.0;
constexpr double kClaimedShare = 0.20; // the folklore figure, which has no primary source
const char* const kFgdSource =
    "Weng et al., Beware of Fragmentation: FGD, USENIX ATC '23, abstract (up to 49 % fewer "
    "unallocated GPUs, 290 more GPUs used, on an emulated cluster of over 6,200 GPUs)";
const char* const kJeonSource =
    "Jeon et al., Analysis of Large-Scale Multi-Tenant GPU Clusters for DNN Training "
    "Workloads, USENIX ATC '19 (gang scheduling and locality constraints)";
const char* const kEasySource = "Lifka, The ANL/IBM SP scheduling system, JSSPP 1995 (EASY "
                                "backfilling)";
double fgdBaselineShare() {
    return kFgdExtraGpus / kFgdReduction / kFgdClusterGpus;
}

// The gang-scheduling illustration: two jobs of three quarters of a node each on one free node,
// an hour of work each (assumed), drawn over the time all-or-nothing needs for both.
struct GangDemo {
    GangAllocation partial, gang;
};
GangDemo gangDemo(int gpusPerNode) {
    const int need = std::max(1, gpusPerNode * 3 / 4);
    constexpr double kWorkH = 1.0;
    GangDemo d;
    d.gang = allocateTwoJobs(gpusPerNode, need, kWorkH, true, 2.0 * kWorkH);
    d.partial = allocateTwoJobs(gpusPerNode, need, kWorkH, false, d.gang.endH);
    return d;
}

ScheduleFrame gangFrame(const GangAllocation& a, double t) {
    ScheduleFrame f;
    f.rows.resize(static_cast<std::size_t>(a.gpus));
    for (int g = 0; g < a.gpus; ++g)
        f.rows[static_cast<std::size_t>(g)].label = fill("GPU %1", {std::to_string(g)});
    const char* const jobNames[] = {"A", "B"};
    for (const GangSegment& seg : a.segments)
        f.rows[static_cast<std::size_t>(seg.gpu)].bars.push_back(
            {.startS = seg.fromH * kHourS,
             .endS = seg.toH * kHourS,
             .kind = ScheduleKind::Compute,
             .label = seg.running ? jobNames[seg.job] : fill("%1 waits", {jobNames[seg.job]}),
             .shade = 0,
             .tip = fill(seg.running ? "job %1 runs on this GPU, %2–%3 h"
                                     : "job %1 holds this GPU but cannot run: it has fewer GPUs "
                                       "than it needs, %2–%3 h",
                         {jobNames[seg.job], formatSignificant(seg.fromH, 3),
                          formatSignificant(seg.toH, 3)}),
             .category = seg.running ? seg.job : 2});
    f.categories = {"job A runs", "job B runs", "held, waiting for the rest"};
    f.endS = a.endH * kHourS;
    f.axisUnit = "h";
    f.axisUnitS = kHourS;
    if (a.deadlocked)
        f.title = fill("One GPU at a time: A holds %1, B holds %2, neither runs",
                       {std::to_string(a.heldAtDeadlock[0]), std::to_string(a.heldAtDeadlock[1])});
    else
        f.title = fill(a.gang ? "All or nothing: A, then B, both done in %1"
                              : "One GPU at a time: both fit, done in %1",
                       {hours(a.endH)});
    f.caption = a.deadlocked
                    ? fill("deadlock: %1 GPUs held, %2 job-hours of work done",
                           {std::to_string(a.idleHeld), formatSignificant(a.jobHoursDone, 3)})
                    : fill("%1 job-hours of work done", {formatSignificant(a.jobHoursDone, 3)});
    return withCursor(f, t);
}

// Says what this run measured, whichever way the numbers fall.
std::string comparisonNarration(const Simulation& s) {
    const ScheduleResult& fifo = s.run(SchedulePolicy::Fifo);
    const ScheduleResult& topo = s.run(SchedulePolicy::Topology);
    const char* stranded =
        topo.fragmentation < fifo.fragmentation
            ? "Packing also strands fewer GPUs for the jobs waiting (%1 vs %2)."
            : "Yet packing strands no fewer GPUs for the jobs waiting (%1 vs %2): first fit "
              "fills partly used nodes, and its idle GPUs sit behind a blocked head.";
    const char* useful = topo.usefulUtilization > fifo.usefulUtilization
                             ? "Topology-aware packing beats FIFO first fit on useful "
                               "utilisation (%1 vs %2)"
                             : "Topology-aware packing does not beat FIFO first fit on useful "
                               "utilisation (%1 vs %2)";
    const char* wait = topo.meanWaitH < fifo.meanWaitH ? "and cuts the mean wait from %2 to %1."
                                                       : "and does not cut the mean wait (%1 vs "
                                                         "%2).";
    return fill(
        "Same trace, same cluster. %1 %2 %3",
        {fill(useful, {formatShare(topo.usefulUtilization), formatShare(fifo.usefulUtilization)}),
         fill(wait, {hours(topo.meanWaitH), hours(fifo.meanWaitH)}),
         fill(stranded, {formatShare(topo.fragmentation), formatShare(fifo.fragmentation)})});
}

// Who wins between first fit and packing under the same backfill, and why, from the numbers.
std::string topologyNarration(const Simulation& s) {
    const ScheduleResult& gang = s.run(SchedulePolicy::GangBackfill);
    const ScheduleResult& topo = s.run(SchedulePolicy::Topology);
    const std::string slowdown = fill("%1× per extra node, %2× per extra leaf, both assumed",
                                      {formatSignificant(s.config.spreadSlowdown, 3),
                                       formatSignificant(s.config.crossLeafSlowdown, 3)});
    const std::string how = fill(
        "The same backfill, but a job of up to %1 GPUs goes inside one NVLink node (best fit) and "
        "a larger one on whole nodes under as few leaf switches as possible.",
        {std::to_string(s.config.cluster.gpusPerNode)});
    // Half a percentage point either way is too close to call on one seeded trace.
    const double gap = topo.usefulUtilization - gang.usefulUtilization;
    std::string verdict;
    if (gap > 0.005)
        verdict =
            fill("Here packing wins: useful utilisation %1 vs %2 for first fit, because first "
                 "fit started %3 jobs spread, and at the slowdown (%4) they wasted %5 of "
                 "the GPU-hours; packing wasted %6.",
                 {formatShare(topo.usefulUtilization), formatShare(gang.usefulUtilization),
                  std::to_string(gang.spreadStarts), slowdown, formatShare(gang.slowdownLoss),
                  formatShare(topo.slowdownLoss)});
    else if (gap < -0.005)
        verdict = fill(
            "Here first fit wins: useful utilisation %1 vs %2 for packing. At this slowdown (%3) "
            "its %4 spread starts waste only %5 of the GPU-hours, and it keeps %6 of the GPUs "
            "allocated, %7 packing's %8: packing holds a large job back until whole nodes are "
            "free.",
            {formatShare(gang.usefulUtilization), formatShare(topo.usefulUtilization), slowdown,
             std::to_string(gang.spreadStarts), formatShare(gang.slowdownLoss),
             formatShare(gang.utilization),
             gang.utilization > topo.utilization ? "more than" : "no more than",
             formatShare(topo.utilization)});
    else
        verdict = fill("Here neither wins: useful utilisation %1 vs %2 for first fit. Its %3 "
                       "spread starts waste %4 of the GPU-hours at this slowdown (%5); packing "
                       "pays in waiting instead (mean wait %6 vs %7).",
                       {formatShare(topo.usefulUtilization), formatShare(gang.usefulUtilization),
                        std::to_string(gang.spreadStarts), formatShare(gang.slowdownLoss), slowdown,
                        hours(topo.meanWaitH), hours(gang.meanWaitH)});
    return fill("%1 %2", {how, verdict});
}

std::string policySummary(const ScheduleResult& r) {
    return fill("Here: useful utilisation %1, mean wait %2, %3 jobs done.",
                {formatShare(r.usefulUtilization), hours(r.meanWaitH), std::to_string(r.jobsDone)});
}

struct PolicyText {
    SchedulePolicy policy;
    const char* title;
    const char* narration;
};
constexpr PolicyText kPolicyText[kPolicies] = {
    {SchedulePolicy::Fifo, "FIFO, first fit: head-of-line blocking",
     "Jobs start in arrival order on the first node with room; a job larger than a node takes "
     "the lowest-numbered free GPUs wherever they are and pays the assumed spread slowdown "
     "for it. When the head does not fit, everything behind it waits, so the queue grows "
     "while GPUs sit idle."},
    {SchedulePolicy::GangBackfill, "Gang scheduling with EASY backfill",
     "All-or-nothing starts in priority order. The blocked head gets a reservation at the "
     "earliest time enough GPUs free up; later jobs may jump ahead only if they end before it "
     "or use GPUs it will not need. Placement is still first fit."},
    {SchedulePolicy::Topology, "Topology-aware placement", ""}, // topologyNarration
    {SchedulePolicy::Preemptive, "Preemption with quotas",
     "Topology placement, and a waiting job may preempt running jobs of lower priority, or of "
     "a team over its quota when its own team is within quota. A victim resumes from its last "
     "checkpoint later."},
};

// Team shares over time under the preemptive policy (the one that enforces quotas), each
// against its quota.
ChartFrame quotaChart(const Simulation& s, const Gauges& g, double t) {
    const double now = playbackH(g.horizonH, t);
    ChartFrame f;
    f.title = "Each team's share of the GPUs over time (preemptive)";
    double peak = 0.0;
    for (const Staircase& st : g.teamShare)
        for (const ChartPoint& p : st.points)
            peak = std::max(peak, p.y);
    for (double q : s.config.teamQuota)
        peak = std::max(peak, q);
    f.x = {
        .title = "simulated time (h)", .log = false, .min = 0.0, .max = std::max(g.horizonH, 1e-3)};
    f.y = {.title = "share of the cluster's GPUs (%)",
           .log = false,
           .min = 0.0,
           .max = std::min(100.0, peak * 110.0)};
    for (std::size_t k = 0; k < g.teamShare.size(); ++k) {
        std::vector<ChartPoint> pts = g.teamShare[k].upTo(now);
        for (ChartPoint& p : pts)
            p.y *= 100.0;
        f.series.push_back({.name = kTeamNames[k % 4],
                            .points = std::move(pts),
                            .style = ChartSeries::Style::Line,
                            .colorIndex = static_cast<int>(k)});
        const double q = s.config.teamQuota[k] * 100.0;
        // Unnamed: out of the legend, which the team's own line already colours.
        f.series.push_back({.name = "",
                            .points = {{0.0, q}, {f.x.max, q}},
                            .style = ChartSeries::Style::Dashed,
                            .colorIndex = static_cast<int>(k)});
    }
    f.footnote = "GPUs each team holds after each event of the model, as a share of the cluster; "
                 "dashed: its quota. A team may run above it while others leave GPUs idle.";
    return f;
}

// The team the quota matters most for: the longest over its quota without enforcement.
std::size_t mostOverQuota(const ScheduleResult& r) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < r.overQuota.size(); ++k)
        if (r.overQuota[k] > r.overQuota[best])
            best = k;
    return best;
}

std::string quotaNarration(const Simulation& s) {
    const ScheduleResult& topo = s.run(SchedulePolicy::Topology);
    const ScheduleResult& pre = s.run(SchedulePolicy::Preemptive);
    const std::size_t k = mostOverQuota(topo);
    if (topo.overQuota[k] <= 0.0)
        return "Quotas are shares of the cluster. Here no team ran above its quota even without "
               "enforcement, so preemption had no quota to enforce: the load leaves room for "
               "every team.";
    const char* effect = pre.overQuota[k] < topo.overQuota[k]
                             ? "Enforcing quotas by preemption cuts that to %1 (mean share %2)."
                             : "Enforcing quotas by preemption does not cut that (%1, mean share "
                               "%2): preemption only frees GPUs when another team is waiting "
                               "within its quota.";
    return fill("Quotas are shares of the cluster. Without enforcement (topology), %1 held %2 "
                "of the GPUs on average against a %3 quota and spent %4 of the time above it. %5",
                {kTeamNames[k % 4], formatShare(topo.teamShare[k]),
                 formatShare(s.config.teamQuota[k]), formatShare(topo.overQuota[k]),
                 fill(effect, {formatShare(pre.overQuota[k]), formatShare(pre.teamShare[k])})});
}

// FGD-fragmented share of the cluster over time, every policy, against FGD's baseline figure.
ChartFrame fragmentationChart(const Simulation& s, const std::array<Gauges, kPolicies>& g,
                              double t) {
    const double horizon = s.run(SchedulePolicy::Fifo).horizonH;
    const double now = playbackH(horizon, t);
    ChartFrame f;
    f.title = "Fragmented GPUs as FGD counts them, over time";
    double peak = fgdBaselineShare();
    for (const Gauges& x : g)
        for (const ChartPoint& p : x.fragmentedShare.points)
            peak = std::max(peak, p.y);
    f.x = {.title = "simulated time (h)", .log = false, .min = 0.0, .max = std::max(horizon, 1e-3)};
    f.y = {.title = "share of the cluster's GPUs (%)",
           .log = false,
           .min = 0.0,
           .max = std::min(100.0, peak * 115.0)};
    for (int k = 0; k < kPolicies; ++k) {
        const auto p = static_cast<SchedulePolicy>(k);
        std::vector<ChartPoint> pts = g[static_cast<std::size_t>(k)].fragmentedShare.upTo(now);
        for (ChartPoint& pt : pts)
            pt.y *= 100.0;
        f.series.push_back(
            {.name = schedulePolicyName(p),
             .points = std::move(pts),
             .style = p == s.focus ? ChartSeries::Style::Line : ChartSeries::Style::Faint,
             .colorIndex = k});
    }
    const double ref = fgdBaselineShare() * 100.0;
    f.series.push_back({.name = "FGD's baseline packers (derived)",
                        .points = {{0.0, ref}, {f.x.max, ref}},
                        .style = ChartSeries::Style::Dashed,
                        .colorIndex = 7});
    f.markers.push_back({.at = {f.x.max * 0.5, ref},
                         .label = fill("FGD's baselines: %1", {formatShare(fgdBaselineShare())}),
                         .tooltip = kFgdSource,
                         .colorIndex = 7,
                         .estimate = false,
                         .emphasis = false});
    f.footnote = "Free GPUs each job size of the trace cannot use (a node with too few free, or "
                 "not wholly free for a job larger than a node), weighted by how often the size "
                 "arrives: FGD's definition (Weng et al., USENIX ATC '23).";
    return f;
}

FactsFrame fragmentationTable(const Simulation& s) {
    FactsFrame f = policyTable(
        s, "Fragmented, FGD's definition: on average · while jobs wait",
        [](const ScheduleResult& r) {
            return std::pair{
                fill("%1 · %2", {formatShare(r.fgdFragmentation), formatShare(r.fgdWhileWaiting)}),
                fill("%1 of the free GPUs on average; stranded for the jobs waiting: %2",
                     {formatShare(r.fgdShareOfFree), formatShare(r.fragmentation)})};
        });
    f.rows.push_back(
        {.label = "FGD's baseline packers",
         .value = formatShare(fgdBaselineShare()),
         .source = fill("derived: %1 GPUs ÷ %2 ÷ %3 GPUs; %4",
                        {formatSignificant(kFgdExtraGpus, 3), formatShare(kFgdReduction),
                         formatSignificant(kFgdClusterGpus, 4), kFgdSource}),
         .emphasis = true});
    f.rows.push_back({.label = "“fragmentation eats a naive cluster”",
                      .value = formatShare(kClaimedShare),
                      .source = "no primary source found; FGD's own numbers put it near half that",
                      .emphasis = false});
    return f;
}

struct FragmentationRange {
    double low = 1.0, high = 0.0, lowWaiting = 1.0, highWaiting = 0.0;
};
FragmentationRange fragmentationRange(const Simulation& s) {
    FragmentationRange r;
    for (const ScheduleResult& x : s.runs) {
        r.low = std::min(r.low, x.fgdFragmentation);
        r.high = std::max(r.high, x.fgdFragmentation);
        r.lowWaiting = std::min(r.lowWaiting, x.fgdWhileWaiting);
        r.highWaiting = std::max(r.highWaiting, x.fgdWhileWaiting);
    }
    return r;
}

std::string fragmentationNarration(const Simulation& s) {
    const FragmentationRange r = fragmentationRange(s);
    const double ref = fgdBaselineShare();
    // FGD's figure is the unallocated share when the cluster refuses the next task: compare
    // it with the share fragmented while jobs wait, not with the average over idle hours.
    const char* where = r.highWaiting < ref ? "below" : r.lowWaiting > ref ? "above" : "around";
    return fill("FGD counts a free GPU as a fragment when the job sizes that arrive, weighted by "
                "how often each does, cannot use it. Counted so, the four policies leave %1 to "
                "%2 of this cluster fragmented on average, and %3 to %4 while jobs wait for "
                "GPUs: %5 the %6 FGD's baseline packers left unallocated, and nowhere near the "
                "%7 of the folklore figure. FGD's fragments come from tasks that share GPUs; "
                "here every job takes whole GPUs in sizes that tile a node, so a partly used "
                "node still fits the smaller jobs.",
                {formatShare(r.low), formatShare(r.high), formatShare(r.lowWaiting),
                 formatShare(r.highWaiting), where, formatShare(ref), formatShare(kClaimedShare)});
}

// A gang-backfill job that ran spread (no preemption there, so its last placement is its only
// one): the check asks how long it held its GPUs.
const JobOutcome* spreadExample(const Simulation& s) {
    const ScheduleResult& r = s.run(SchedulePolicy::GangBackfill);
    for (const JobOutcome& o : r.jobs)
        if (o.slowdown > 1.0 && o.finishH >= 0 && o.preemptions == 0)
            return &o;
    return nullptr;
}

} // namespace

std::string SchedulerScenario::question() const {
    return "Design the scheduler for a shared GPU cluster: gang scheduling, topology, "
           "preemption, quotas. What does each choice buy, and how much does fragmentation "
           "really cost?";
}

std::string SchedulerScenario::answer() const {
    return R"(**Schedule whole jobs, place them along the topology when spreading costs, preempt only under a checkpoint contract, and measure fragmentation the way the published work does.**
- **Gang scheduling:** a data-parallel job needs all its GPUs at once. Granted piecemeal, two jobs can each hold part of what they need and wait on each other for good; all-or-nothing starts avoid it. **Backfill** (EASY) lets small jobs jump ahead only when they do not delay the blocked head's reservation.
- **Topology:** a job that fits a node belongs inside one NVLink node; a larger one on whole nodes under as few leaf switches as possible. Whether that wins depends on how much a spread job slows down, which is assumed here: compare **useful** utilisation, not allocated, and vary the slowdown.
- **Preemption** needs a contract: a job that checkpoints every interval loses at most that much work. Quotas are enforced through it: a team over its share is preempted for a team within its own.
- **Fragmentation:** FGD (Weng et al., USENIX ATC '23) counts free GPUs the arriving job sizes cannot use; its baseline packers left about a tenth of a 6,200-GPU cluster unallocated. The "a fifth of a naive cluster" figure has no primary source. The fragmentation step prints where this run lands.)";
}

std::vector<SourceRef> SchedulerScenario::sources() const {
    return {
        {"Weng et al., Beware of Fragmentation: FGD (USENIX ATC'23)",
         "https://www.usenix.org/conference/atc23/presentation/weng"},
        {"Jeon et al., Multi-tenant GPU clusters for DNN training (USENIX ATC'19)",
         "https://www.usenix.org/conference/atc19/presentation/jeon"},
        {"Lifka, The ANL/IBM SP scheduling system (EASY backfilling, JSSPP 1995)",
         "https://doi.org/10.1007/3-540-60153-8_35"},
    };
}

std::vector<ParamSpec> SchedulerScenario::parameters() const {
    return {
        ParamSpec::choice("focus", "Policy in focus", schedulePolicyNames(), "topology",
                          "highlighted in the comparison"),
        ParamSpec::integer("jobs", "Jobs in the trace", "", 50, 2000, 300, true),
        ParamSpec::integer("nodes", "Cluster nodes", "", 8, 64, 32, false,
                           "8 GPUs each; one Gantt row per node"),
        ParamSpec::integer("nodes-per-leaf", "Nodes per leaf switch", "", 1, 16, 4, false,
                           "must divide the nodes"),
        ParamSpec::real("load", "Offered load", "", 0.3, 1.5, 0.9, false,
                        "GPU-hours asked ÷ cluster GPU-hours over the arrival window"),
        ParamSpec::integer("seed", "Trace seed", "", 1, 1000, 1),
        ParamSpec::real("spread-slowdown", "Slowdown of a spread job (assumed)", "×", 1.0, 2.0,
                        1.25, false, "assumed, no source: a job on more nodes than it needs"),
    };
}

Story SchedulerScenario::build(const Params& p, const ScenarioInputs&) const {
    auto sim = std::make_shared<Simulation>();
    ClusterTopology& c = sim->config.cluster;
    c.nodes = static_cast<int>(p.integer("nodes"));
    c.gpusPerNode = 8;
    c.nodesPerLeaf = static_cast<int>(p.integer("nodes-per-leaf"));
    if (c.nodesPerLeaf > c.nodes || c.nodes % c.nodesPerLeaf != 0)
        throw std::invalid_argument(
            fill("nodes per leaf (%1) must divide the %2 nodes: the "
                 "cluster is built of whole leaf switches",
                 {std::to_string(c.nodesPerLeaf), std::to_string(c.nodes)}));
    sim->config.spreadSlowdown = p.number("spread-slowdown");
    sim->focus = parseSchedulePolicy(p.text("focus"));
    JobTraceConfig tc;
    tc.jobs = static_cast<int>(p.integer("jobs"));
    tc.clusterGpus = c.gpus();
    tc.seed = static_cast<std::uint64_t>(p.integer("seed"));
    tc.load = p.number("load");
    tc.teams = static_cast<int>(sim->config.teamQuota.size());
    sim->trace = generateJobTrace(tc);
    for (int k = 0; k < kPolicies; ++k) {
        SchedulerConfig config = sim->config;
        config.policy = static_cast<SchedulePolicy>(k);
        sim->runs[static_cast<std::size_t>(k)] = simulateCluster(sim->trace, config);
    }
    const std::size_t teams = sim->config.teamQuota.size();
    // Everything the frames draw is laid out once here; frames(t) only moves the cursor.
    auto gauges = std::make_shared<std::array<Gauges, kPolicies>>();
    auto gantts = std::make_shared<std::array<ScheduleFrame, kPolicies>>();
    auto tables = std::make_shared<std::array<FactsFrame, kPolicies>>();
    for (std::size_t k = 0; k < kPolicies; ++k) {
        (*gauges)[k] = gaugesOf(sim->runs[k], teams);
        (*gantts)[k] = nodeGantt(*sim, sim->runs[k]);
        (*tables)[k] = metricsTable(sim->runs[k]);
    }
    auto trace = std::make_shared<const ScheduleFrame>(traceGantt(*sim));
    auto demand = std::make_shared<const Staircase>(demandOf(sim->trace));
    auto traceFacts = std::make_shared<const FactsFrame>(traceTable(*sim, tc.load));
    auto lost = std::make_shared<const ScheduleFrame>(
        lostWorkGantt(*sim, sim->run(SchedulePolicy::Preemptive)));
    auto lostFacts = std::make_shared<const FactsFrame>(preemptionTable(*sim));
    auto compareFacts = std::make_shared<const FactsFrame>(comparisonTable(*sim));
    auto compareChart = std::make_shared<const ChartFrame>(comparisonChart(*sim));
    auto fragFacts = std::make_shared<const FactsFrame>(fragmentationTable(*sim));
    auto demo = std::make_shared<const GangDemo>(gangDemo(c.gpusPerNode));

    Story story;
    story.provenance =
        fill("modeled on CPU: simulateCluster, %1 seeded jobs (seed %2, load %3) on %4 GPUs (%5 "
             "nodes of 8, %6 per leaf); spread slowdown %7× per extra node and %8× per extra "
             "leaf, assumed",
             {std::to_string(tc.jobs), std::to_string(tc.seed), formatSignificant(tc.load, 3),
              std::to_string(c.gpus()), std::to_string(c.nodes), std::to_string(c.nodesPerLeaf),
              formatSignificant(sim->config.spreadSlowdown, 3),
              formatSignificant(sim->config.crossLeafSlowdown, 3)});

    // Every number the slides quote: the trace, each run, the demo, FGD's figures.
    const TraceStats stats = traceStats(*sim);
    const double window = stats.window;
    const PreemptionSummary pre = summarise(*sim, sim->run(SchedulePolicy::Preemptive));
    const ScheduleResult& preRun = sim->run(SchedulePolicy::Preemptive);
    const ScheduleResult& topoRun = sim->run(SchedulePolicy::Topology);
    std::vector<ResultValue>& res = story.results;
    res = {{"GPUs", c.gpus()},
           {"GPUs per node", c.gpusPerNode},
           {"cross-leaf slowdown (assumed)", sim->config.crossLeafSlowdown},
           {"trace window, h", window},
           {"trace end, h", trace->endS / kHourS},
           {"offered load", stats.offeredLoad},
           {"preempted rows shown", kLostRows},
           {"work lost, GPU-h", pre.lostGpuH},
           {"work lost share",
            preRun.utilization > 0
                ? pre.lostGpuH / (preRun.utilization * preRun.gpus * preRun.horizonH)
                : 0.0},
           {"worst loss ÷ contract", pre.worstShareOfContract},
           {"worst loss, h", pre.worstLostH},
           {"worst contract, h", pre.worstContractH},
           {"jobs preempted", pre.jobsPreempted},
           {"high-priority wait, preemptive", highPriorityWaitH(*sim, preRun)},
           {"high-priority wait, topology", highPriorityWaitH(*sim, topoRun)},
           {"FGD extra GPUs", kFgdExtraGpus},
           {"FGD reduction", kFgdReduction},
           {"FGD cluster GPUs", kFgdClusterGpus},
           {"FGD baseline unallocated share", fgdBaselineShare()},
           {"claimed share", kClaimedShare}};
    for (std::size_t k = 0; k < sizeNames().size(); ++k) {
        res.push_back({"job size", 1 << k});
        res.push_back({"jobs of this size", stats.bySize[k]});
    }
    for (int n : stats.byPriority)
        res.push_back({"jobs of this priority", n});
    for (double q : sim->config.teamQuota)
        res.push_back({"team quota", q});
    for (const ScheduleResult& r : sim->runs)
        addRunResults(res, r);
    const FragmentationRange fr = fragmentationRange(*sim);
    for (const GangAllocation* a : {&demo->partial, &demo->gang}) {
        res.insert(res.end(), {{"demo GPUs", a->gpus},
                               {"demo need", a->need},
                               {"demo work, h", a->durationH},
                               {"demo end, h", a->endH},
                               {"demo idle held", a->idleHeld},
                               {"demo job-hours done", a->jobHoursDone}});
        for (int h : a->heldAtDeadlock)
            res.push_back({"demo held at deadlock", h});
    }

    const int gpus = c.gpus();
    story.steps.push_back(
        {"The arrival trace",
         fill("%1 jobs of %2 to %3 GPUs arrive at random over %4, many small and a few large, "
              "each with a duration, a priority, a team and a checkpoint interval. They ask for "
              "%5 of the cluster's GPU-hours. Every policy replays this same trace, so what "
              "differs afterwards is the policy alone.",
              {std::to_string(sim->trace.size()), std::to_string(1),
               std::to_string(1 << (sizeNames().size() - 1)), hours(window),
               formatShare(stats.offeredLoad)}),
         6.0, [trace, demand, traceFacts, gpus](double t) {
             const double endH = trace->endS / kHourS;
             ChartFrame d;
             d.title = "GPUs the trace asks for if every job started on arrival";
             d.x = {.title = "simulated time (h)",
                    .log = false,
                    .min = 0.0,
                    .max = std::max(endH, 1e-3)};
             double peak = gpus;
             for (const ChartPoint& pt : demand->points)
                 peak = std::max(peak, pt.y);
             d.y = {.title = "GPUs", .log = false, .min = 0.0, .max = peak * 1.05};
             d.series.push_back({.name = "cluster GPUs",
                                 .points = {{0.0, static_cast<double>(gpus)},
                                            {d.x.max, static_cast<double>(gpus)}},
                                 .style = ChartSeries::Style::Dashed,
                                 .colorIndex = 7});
             d.series.push_back({.name = "GPUs asked for",
                                 .points = demand->upTo(playbackH(endH, t)),
                                 .style = ChartSeries::Style::Line,
                                 .colorIndex = 0});
             d.footnote = "Above the dashed line the queue must grow, whatever the policy.";
             return Frames{{withCursor(*trace, t), d, *traceFacts}};
         }});
    auto policyStep = [&](const PolicyText& text, std::string narration) {
        const auto k = static_cast<std::size_t>(text.policy);
        story.steps.push_back(
            {text.title, std::move(narration), 8.0, [gantts, gauges, tables, k](double t) {
                 const ScheduleFrame& g = (*gantts)[k];
                 return Frames{
                     {withCursor(g, t),
                      gaugeChart("Allocated and stranded GPUs, waiting jobs", (*gauges)[k], t),
                      (*tables)[k]}};
             }});
    };
    policyStep(kPolicyText[0],
               fill("%1 %2", {kPolicyText[0].narration, policySummary(sim->runs[0])}));
    {
        const GangAllocation& a = demo->partial;
        const GangAllocation& b = demo->gang;
        const std::string partialWords =
            a.deadlocked
                ? fill("Granted one GPU at a time, taking turns, they end holding %1 and %2: "
                       "neither can start, neither lets go, and %3 GPUs sit held and idle for "
                       "good.",
                       {std::to_string(a.heldAtDeadlock[0]), std::to_string(a.heldAtDeadlock[1]),
                        std::to_string(a.idleHeld)})
                : fill("Granted one GPU at a time they both fit, finishing in %1.",
                       {hours(a.endH)});
        story.steps.push_back(
            {"Why gang scheduling: a partial allocation deadlocks",
             fill("Two jobs of %1 GPUs each, %2 of work each (assumed), reach %3 free GPUs. %4 "
                  "Granted all or nothing, the first runs at once and the second when it is "
                  "done: both finish in %5.",
                  {std::to_string(a.need), hours(a.durationH), std::to_string(a.gpus), partialWords,
                   hours(b.endH)}),
             6.0, [demo](double t) {
                 return Frames{{gangFrame(demo->partial, t), gangFrame(demo->gang, t)},
                               Arrangement::Grid};
             }});
    }
    policyStep(kPolicyText[1],
               fill("%1 %2", {kPolicyText[1].narration, policySummary(sim->runs[1])}));
    policyStep(kPolicyText[2], topologyNarration(*sim));
    // The policy that enforces quotas shows each team's GPUs against its quota in place of
    // the gauges the earlier policies showed.
    story.steps.push_back({kPolicyText[3].title,
                           fill("%1 %2", {kPolicyText[3].narration, quotaNarration(*sim)}), 8.0,
                           [gantts, sim, gauges, tables](double t) {
                               return Frames{{withCursor((*gantts)[3], t),
                                              quotaChart(*sim, (*gauges)[3], t), (*tables)[3]}};
                           }});
    story.steps.push_back(
        {"Preemption honours the checkpoint contract",
         fill("A preempted job resumes from its last checkpoint, so it loses the work since then: "
              "never more than its contract's interval. Here %1 preemptions threw away %2 "
              "GPU-h, the worst %3 of its interval, and high-priority jobs waited %4 on average "
              "instead of %5.",
              {std::to_string(preRun.preemptions), formatSignificant(pre.lostGpuH, 3),
               formatShare(pre.worstShareOfContract), hours(highPriorityWaitH(*sim, preRun)),
               hours(highPriorityWaitH(*sim, topoRun))}),
         8.0, [lost, lostFacts](double t) {
             return Frames{{withCursor(*lost, t), *lostFacts}};
         }});
    story.steps.push_back({"Fragmentation, measured as FGD defines it",
                           fragmentationNarration(*sim), 8.0, [sim, gauges, fragFacts](double t) {
                               return Frames{{fragmentationChart(*sim, *gauges, t), *fragFacts}};
                           }});
    story.steps.push_back({"The policies side by side", comparisonNarration(*sim), 8.0,
                           [compareFacts, compareChart](double) {
                               return Frames{{*compareChart, *compareFacts}};
                           }});

    // The whiteboard answer, with this run's numbers.
    const ScheduleResult& fifo = sim->run(SchedulePolicy::Fifo);
    const ScheduleResult& gang = sim->run(SchedulePolicy::GangBackfill);
    const std::size_t team = mostOverQuota(topoRun);
    const double gap = topoRun.usefulUtilization - gang.usefulUtilization;
    const char* topoWord = gap > 0.005 ? "wins" : gap < -0.005 ? "loses" : "ties";
    const char* waitWord = gang.meanWaitH < fifo.meanWaitH ? "cuts" : "does not cut";
    story.whiteboard.question =
        fill("Design the scheduler for a shared cluster of %1 GPUs: gang scheduling, topology, "
             "preemption, quotas. What does each buy, and how much does fragmentation cost?",
             {std::to_string(gpus)});
    story.whiteboard.points = {
        {fill("Grant a job all its GPUs or none: granted one at a time, two %1-GPU jobs on %2 "
              "free GPUs hold %3 and deadlock; all or nothing finishes both in %4.",
              {std::to_string(demo->partial.need), std::to_string(demo->partial.gpus),
               std::to_string(demo->partial.idleHeld), hours(demo->gang.endH)}),
         kJeonSource},
        {fill("Backfill behind the blocked head: EASY %1 the mean wait, %2 for FIFO vs %3.",
              {waitWord, hours(fifo.meanWaitH), hours(gang.meanWaitH)}),
         kEasySource},
        {fill("Pack along NVLink nodes and leaves when spreading costs: at an assumed %1× slowdown "
              "packing %2, useful utilisation %3 vs %4 for first fit.",
              {formatSignificant(sim->config.spreadSlowdown, 3), topoWord,
               formatShare(topoRun.usefulUtilization), formatShare(gang.usefulUtilization)}),
         kJeonSource},
        {fill("Preempt only under a checkpoint contract: %1 preemptions lost %2 GPU-h, none more "
              "than its interval; high-priority waits %3 vs %4 without.",
              {std::to_string(preRun.preemptions), formatSignificant(pre.lostGpuH, 3),
               hours(highPriorityWaitH(*sim, preRun)), hours(highPriorityWaitH(*sim, topoRun))}),
         "checkpoint contract: work since the last checkpoint is lost, by construction"},
        {fill("Enforce quotas by preemption: %1 spent %2 of the time over its %3 quota without "
              "it, %4 with it.",
              {kTeamNames[team % 4], formatShare(topoRun.overQuota[team]),
               formatShare(sim->config.teamQuota[team]), formatShare(preRun.overQuota[team])}),
         "team quotas as shares of the cluster, enforced by the preemptive policy"},
        {fill("Measure fragmentation as FGD does: %1 to %2 of the cluster here while jobs wait, "
              "against about %3 under FGD's baselines; the %4 figure has no primary source.",
              {formatShare(fr.lowWaiting), formatShare(fr.highWaiting),
               formatShare(fgdBaselineShare()), formatShare(kClaimedShare)}),
         kFgdSource},
    };
    const double fgdPercent = fgdBaselineShare() * 100.0;
    story.checks = {
        {"FGD cut unallocated GPUs by up to 49 % and so put 290 more GPUs to use on an emulated "
         "cluster of 6,200 GPUs. What share of the cluster did the baseline packers leave "
         "unallocated, in %?",
         fgdPercent, "%", 0.05,
         fill("Unallocated before = 290 ÷ 0.49 ≈ %1 GPUs; %1 ÷ 6,200 = %2 %.",
              {formatSignificant(kFgdExtraGpus / kFgdReduction, 3),
               formatSignificant(fgdPercent, 3)})},
        {fill("Two jobs of %1 GPUs each are granted GPUs one at a time, taking turns, from %2 "
              "free GPUs. How many GPUs are held while neither job can run?",
              {std::to_string(demo->partial.need), std::to_string(demo->partial.gpus)}),
         static_cast<double>(demo->partial.idleHeld), "GPUs", 0.0,
         demo->partial.deadlocked
             ? fill("Turns give each job one GPU per round until none is left: %1 and %2, both "
                    "short of %3, so all %4 are held and idle.",
                    {std::to_string(demo->partial.heldAtDeadlock[0]),
                     std::to_string(demo->partial.heldAtDeadlock[1]),
                     std::to_string(demo->partial.need), std::to_string(demo->partial.idleHeld)})
             : std::string("Both jobs fit at once: no GPU is held idle.")},
    };
    if (const JobOutcome* o = spreadExample(*sim)) {
        const Job& j = sim->trace[static_cast<std::size_t>(o->id)];
        story.checks.push_back(
            {fill("Under gang-backfill, job %1 (%2 GPUs, %3 of work) ran spread at a slowdown of "
                  "%4× (assumed). How many hours did it hold its GPUs?",
                  {std::to_string(j.id), std::to_string(j.gpus), hours(j.durationH),
                   formatSignificant(o->slowdown, 4)}),
             j.durationH * o->slowdown, "h", 0.03,
             fill("Wall time = work × slowdown = %1 × %2 = %3.",
                  {hours(j.durationH), formatSignificant(o->slowdown, 4),
                   hours(j.durationH * o->slowdown)})});
    } else {
        story.checks.push_back(
            {fill("Topology allocated %1 of the GPU-hours; the spread slowdown wasted %2 and "
                  "preemption none. What was its useful utilisation, in %?",
                  {formatShare(topoRun.utilization), formatShare(topoRun.slowdownLoss)}),
             topoRun.usefulUtilization * 100.0, "%", 0.02,
             fill("Useful = allocated − slowdown − lost work = %1 − %2 = %3.",
                  {formatShare(topoRun.utilization), formatShare(topoRun.slowdownLoss),
                   formatShare(topoRun.usefulUtilization)})});
    }
    addWhiteboardStep(story, fill("Gang-schedule, backfill, pack when spreading costs, preempt "
                                  "under contracts; fragmentation here is %1 to %2 of the "
                                  "cluster while jobs wait, FGD's baselines about %3.",
                                  {formatShare(fr.lowWaiting), formatShare(fr.highWaiting),
                                   formatShare(fgdBaselineShare())}));
    return story;
}

} // namespace wb
