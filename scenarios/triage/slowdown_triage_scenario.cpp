#include "triage/slowdown_triage_scenario.h"

#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "node/gpu_util_sampler.h"
#include "triage/kineto_trace_generator.h"
#include "triage/rank_analysis.h"
#include "triage/triage_verdict.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <tuple>

namespace wb {

namespace {

using TraceList = std::vector<std::shared_ptr<const ChromeTraceResult>>;

constexpr const char* kTriageHtaSource = "Holistic Trace Analysis: temporal breakdown";
constexpr const char* kTriageOverlapSource =
    "Holistic Trace Analysis: communication–computation overlap";
constexpr const char* kTriageDdpSource =
    "PyTorch DistributedDataParallel design notes (gradient buckets)";
constexpr const char* kTriageNcclTestsSource = "nccl-tests doc/PERFORMANCE.md";
// Lanes a case's timeline draws: more would squeeze every row under a readable height.
constexpr std::size_t kTriageCaseLanes = 8;

// One analysed set of ranks: the stores the timelines draw and what the triage found.
struct Triaged {
    std::vector<std::shared_ptr<const TraceStore>> stores;
    std::vector<RankFigures> figures;
    TriageVerdict verdict;
};

Triaged triage(const TraceList& traces, const std::vector<long>& ranks) {
    Triaged t;
    std::vector<RankInput> inputs;
    long worldSize = 0; // the job's size when the traces say it
    for (std::size_t i = 0; i < traces.size(); ++i) {
        // Aliasing: the lane keeps the whole import result alive through its store.
        t.stores.push_back(std::shared_ptr<const TraceStore>(traces[i], &traces[i]->store));
        inputs.push_back({&traces[i]->store, ranks[i]});
        worldSize = std::max(worldSize, traces[i]->worldSize.value_or(0L));
    }
    t.figures = analyseRanks(inputs);
    t.verdict = triageVerdict(t.figures, worldSize);
    return t;
}

// Generated cases by configuration, so that two builds with the same parameters show the
// same trace objects (frames compare lanes by store identity) and a parameter tweak does not
// regenerate the other cases. Bounded: the oldest entries go first.
std::shared_ptr<const Triaged> generatedCase(const TraceGeneratorConfig& cfg,
                                             const std::vector<long>& ranks) {
    using Key = std::tuple<int, int, std::uint64_t, int, double, double, int>;
    const Key key{static_cast<int>(cfg.triageCase),
                  cfg.ranks,
                  cfg.seed,
                  cfg.stragglerRank,
                  cfg.stragglerSlowdown,
                  cfg.fabricSlowdown,
                  cfg.steps};
    static std::mutex mutex;
    static std::deque<std::pair<Key, std::shared_ptr<const Triaged>>> cache;
    const std::lock_guard lock(mutex);
    for (const auto& [k, t] : cache)
        if (k == key)
            return t;
    auto t = std::make_shared<const Triaged>(triage(generateImportedTraces(cfg), ranks));
    cache.emplace_back(key, t);
    if (cache.size() > 16)
        cache.pop_front();
    return t;
}

std::string ms(double us) {
    return formatSi(us * 1e-6, "s");
}

std::string triageRankText(long r) {
    return std::to_string(r);
}

std::string verdictText(const TriageVerdict& v) {
    if (v.stragglerRank)
        return fill("%1 (rank %2)", {v.verdict, triageRankText(*v.stragglerRank)});
    return v.verdict;
}

// The share of the window in which one or more kernels ran: what NVML's GPU-Util measures.
double triageBusyShare(const RankFigures& r) {
    return r.windowUs > 0.0 ? (r.windowUs - r.idleUs) / r.windowUs : 0.0;
}

// The least and the most of one figure over the ranks.
template <class F> std::pair<double, double> triageRange(const Triaged& t, F f) {
    double lo = 1e300, hi = -1e300;
    for (const RankFigures& r : t.figures) {
        lo = std::min(lo, f(r));
        hi = std::max(hi, f(r));
    }
    return {lo, hi};
}

// Compute, exposed communication and idle averaged over the ranks: for traces without
// memcpy they add up to the mean window.
struct TriageMeans {
    double computeUs = 0.0, exposedUs = 0.0, idleUs = 0.0;
};

TriageMeans triageMeans(const Triaged& t) {
    TriageMeans m;
    for (const RankFigures& r : t.figures) {
        m.computeUs += r.computeUs;
        m.exposedUs += r.exposedCommUs;
        m.idleUs += r.idleUs;
    }
    const auto n = static_cast<double>(std::max<std::size_t>(1, t.figures.size()));
    m.computeUs /= n;
    m.exposedUs /= n;
    m.idleUs /= n;
    return m;
}

FactsFrame figuresTable(const std::string& title, const Triaged& t, const std::string& source) {
    FactsFrame f;
    f.title = title;
    f.rows.push_back({.label = "verdict",
                      .value = verdictText(t.verdict),
                      .source = fill("rules checked in order: straggler, overlap, fabric; every "
                                     "figure %1",
                                     {source}),
                      .emphasis = true});
    // The two figures the verdict turns on as the value; the rest on the line below, so
    // every row fits a slide column.
    for (const RankFigures& r : t.figures) {
        const bool straggler = t.verdict.stragglerRank && *t.verdict.stragglerRank == r.rank;
        f.rows.push_back({.label = fill("rank %1", {triageRankText(r.rank)}),
                          .value = fill("compute %1 · wait %2", {ms(r.computeUs), ms(r.waitUs)}),
                          .source = fill("comm %1 · overlap %2 · idle %3",
                                         {ms(r.commUs), formatPercent(r.overlapPct), ms(r.idleUs)}),
                          .emphasis = straggler});
    }
    return f;
}

// `plain`: lanes labelled "rank N" only (the straggler in the accent colour), so that panels
// compared side by side have equal label columns and so equal time scales.
TimelineFrame timeline(const std::string& title, const Triaged& t, const std::vector<long>& ranks,
                       bool gpuOnly, std::size_t maxLanes, bool plain = false) {
    TimelineFrame f;
    f.title = title;
    f.gpuOnly = gpuOnly;
    const std::string verdict = fill("verdict: %1", {verdictText(t.verdict)});
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < t.stores.size() && shown.size() < maxLanes; ++i)
        shown.push_back(i);
    // Keep the straggler on screen when only some ranks fit.
    if (t.verdict.stragglerRank && !shown.empty()) {
        const auto it = std::find(ranks.begin(), ranks.end(), *t.verdict.stragglerRank);
        const auto s = static_cast<std::size_t>(it - ranks.begin());
        if (it != ranks.end() && std::find(shown.begin(), shown.end(), s) == shown.end())
            shown.back() = s;
    }
    for (const std::size_t i : shown) {
        const bool straggler = t.verdict.stragglerRank && *t.verdict.stragglerRank == ranks[i];
        f.lanes.push_back({.store = t.stores[i],
                           .label = fill(straggler && !plain ? "rank %1 (straggler)" : "rank %1",
                                         {triageRankText(ranks[i])}),
                           .emphasis = straggler});
    }
    f.caption = shown.size() < t.stores.size()
                    ? fill("%1 · %2 of %3 ranks shown",
                           {verdict, std::to_string(shown.size()), std::to_string(t.stores.size())})
                    : verdict;
    return f;
}

// The trace drawn up to the share `t` of its span; t = 1 (the resting frame) draws it all.
void triageReveal(TimelineFrame& f, std::int64_t startNs, std::int64_t spanNs, double t) {
    f.revealEndNs =
        t >= 1.0
            ? 0
            : startNs + static_cast<std::int64_t>(std::max(0.0, t) * static_cast<double>(spanNs)) +
                  1;
}

// Per rank, compute beside the wait inside collectives: a straggler computes longest and
// waits least, the others' bars are short compute plus long wait.
BarChartFrame triageComputeWaitBars(const std::string& title, const Triaged& t) {
    BarChartFrame b;
    b.title = title;
    b.series = {"compute (kernels, union)", "wait inside all-reduces"};
    b.unit = BarValueUnit::Seconds;
    b.horizontal = true;
    b.axisTitle = "time per rank over the trace";
    for (std::size_t i = 0; i < t.figures.size(); ++i) {
        const RankFigures& r = t.figures[i];
        b.categories.push_back(
            {.label = fill("rank %1", {triageRankText(r.rank)}),
             .segments = {{.value = r.computeUs * 1e-6,
                           .series = 0,
                           .tip = fill("compute %1", {ms(r.computeUs)})},
                          {.value = r.waitUs * 1e-6,
                           .series = 1,
                           .tip = fill("wait %1 (own all-reduce time − the shortest rank's)",
                                       {ms(r.waitUs)})}},
             .tip = fill(
                 "comm %1 · overlap %2 · exposed %3 · idle %4",
                 {ms(r.commUs), formatPercent(r.overlapPct), ms(r.exposedCommUs), ms(r.idleUs)})});
        if (t.verdict.stragglerRank && *t.verdict.stragglerRank == r.rank)
            b.emphasis = static_cast<int>(i);
    }
    const auto [cLo, cHi] = triageRange(t, [](const RankFigures& r) { return r.computeUs; });
    const auto [wLo, wHi] = triageRange(t, [](const RankFigures& r) { return r.waitUs; });
    b.caption = fill("compute %1 to %2 · wait %3 to %4", {ms(cLo), ms(cHi), ms(wLo), ms(wHi)});
    return b;
}

// What nvidia-smi would read on each rank: the share of the window with a compute kernel, and
// with only NCCL kernels running; the bar's length, printed at its end, is GPU-Util.
BarChartFrame triageGpuUtilBars(const Triaged& t) {
    BarChartFrame b;
    b.title = "Each rank's window: what GPU-Util counts as busy";
    b.series = {"compute kernels", "only NCCL kernels (waiting or sending)"};
    b.unit = BarValueUnit::Percent;
    b.horizontal = true;
    b.axisTitle = "share of the traced window (bar end: GPU-Util)";
    b.axisMax = 1.0;
    for (std::size_t i = 0; i < t.figures.size(); ++i) {
        const RankFigures& r = t.figures[i];
        const double w = std::max(r.windowUs, 1e-9);
        b.categories.push_back(
            {.label = fill("rank %1", {triageRankText(r.rank)}),
             .segments = {{.value = r.computeUs / w, .series = 0, .tip = ms(r.computeUs)},
                          {.value = r.exposedCommUs / w, .series = 1, .tip = ms(r.exposedCommUs)}},
             .tip =
                 fill("GPU-Util %1 (%2)", {formatShare(triageBusyShare(r)), kNvmlGpuUtilSource})});
        if (t.verdict.stragglerRank && *t.verdict.stragglerRank == r.rank)
            b.emphasis = static_cast<int>(i);
    }
    const auto [lo, hi] = triageRange(t, triageBusyShare);
    b.caption = fill("GPU-Util (a kernel executing) %1 to %2 on every rank",
                     {formatShare(lo), formatShare(hi)});
    return b;
}

// Where each case's time goes, averaged over the ranks: compute stays, exposed communication
// grows with the fault; the bars' lengths are the mean traced windows.
BarChartFrame triageCaseBars(const std::vector<std::shared_ptr<const Triaged>>& cases) {
    BarChartFrame b;
    b.title = "Where each case's time goes (mean over ranks)";
    b.series = {"compute", "exposed communication", "idle"};
    b.unit = BarValueUnit::Seconds;
    b.horizontal = true;
    b.axisTitle = "time per rank over the trace";
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const TriageMeans m = triageMeans(*cases[i]);
        b.categories.push_back(
            {.label = triageCaseTitle(allTriageCases()[i]),
             .segments = {{.value = m.computeUs * 1e-6, .series = 0, .tip = ms(m.computeUs)},
                          {.value = m.exposedUs * 1e-6, .series = 1, .tip = ms(m.exposedUs)},
                          {.value = m.idleUs * 1e-6, .series = 2, .tip = ms(m.idleUs)}},
             .tip = fill("verdict %1", {verdictText(cases[i]->verdict)})});
    }
    b.caption = "the bar is the mean traced window; its parts say where the time went";
    return b;
}

// Every figure of one case the slides may quote, in seconds, percent or counts.
void triageAddResults(std::vector<ResultValue>& out, const Triaged& t, double healthyWindowUs) {
    for (const RankFigures& r : t.figures) {
        const double w = std::max(r.windowUs, 1e-9);
        for (const double us :
             {r.windowUs, r.computeUs, r.commUs, r.overlapUs, r.exposedCommUs, r.waitUs, r.idleUs})
            out.push_back({"per-rank time", us * 1e-6});
        out.push_back({"overlap %", r.overlapPct});
        out.push_back({"GPU-Util", triageBusyShare(r)});
        out.push_back({"compute share", r.computeUs / w});
        out.push_back({"exposed share", r.exposedCommUs / w});
        out.push_back({"all-reduces per rank", r.collectives});
    }
    const TriageMeasures& m = t.verdict.measures;
    for (const double us :
         {m.heaviestComputeUs, m.othersComputeUs, m.heaviestWaitUs, m.othersWaitUs, m.minComputeUs,
          m.maxComputeUs, m.medianWindowUs, m.medianCommUs, m.medianExposedUs, m.medianWaitUs,
          m.heaviestComputeUs - m.othersComputeUs})
        out.push_back({"rule input", us * 1e-6});
    for (const double pct : {m.excessPct, m.medianOverlapPct, m.medianHiddenPct})
        out.push_back({"rule input %", pct});
    out.push_back({"least exposed share", m.minExposedShare});
    out.push_back({"median exposed share", m.medianExposedUs / std::max(m.medianWindowUs, 1e-9)});
    out.push_back({"window ÷ healthy", m.medianWindowUs / std::max(healthyWindowUs, 1e-9)});
    const TriageMeans mean = triageMeans(t);
    for (const double us : {mean.computeUs, mean.exposedUs, mean.idleUs,
                            mean.computeUs + mean.exposedUs + mean.idleUs})
        out.push_back({"mean over ranks", us * 1e-6});
    const auto [busyLo, busyHi] = triageRange(t, triageBusyShare);
    out.push_back({"GPU-Util least", busyLo});
    out.push_back({"GPU-Util most", busyHi});
}

// The narration of one generated case: what was set up, then what the figures and the verdict
// say about it, chosen by the verdict and the values, never assumed from the case's name.
std::string caseNarration(TriageCase c, const TraceGeneratorConfig& cfg, const Triaged& t,
                          const Triaged& healthy) {
    const TriageMeasures& m = t.verdict.measures;
    const std::string verdict = verdictText(t.verdict);
    const std::string times =
        formatSignificant(m.medianWindowUs / healthy.verdict.measures.medianWindowUs, 3);
    switch (c) {
    case TriageCase::Healthy: {
        const auto [wLo, wHi] = triageRange(t, [](const RankFigures& r) { return r.waitUs; });
        const int calls = t.figures.empty() ? 0 : t.figures.front().collectives;
        return fill("Gradient buckets are all-reduced on a second stream while the backward "
                    "pass computes: %1 of communication runs under compute (median), %2 is "
                    "exposed. Every rank still waits a little, %3 to %4 over %5: data loading "
                    "between steps takes %7 to %8, so the ranks start each step a little apart "
                    "and the early ones wait at every bucket; kernels vary ±%6. Verdict: %9.",
                    {formatPercent(m.medianOverlapPct), ms(m.medianExposedUs), ms(wLo), ms(wHi),
                     formatCount(calls, "all-reduce", "all-reduces"), formatShare(cfg.kernelJitter),
                     ms(cfg.hostGapMinUs), ms(cfg.hostGapMaxUs), verdict});
    }
    case TriageCase::Straggler: {
        const std::string slow = formatSignificant(cfg.stragglerSlowdown, 3);
        if (t.verdict.verdict == "straggler")
            return fill("Rank %1 is set %2× slower: it computes %3, %4 more than the others' "
                        "median %5. Nothing fails; every other rank reaches each all-reduce "
                        "early and waits inside it, %6 (median) against rank %1's %7. The trace "
                        "is %8× as long as the healthy one.",
                        {triageRankText(*t.verdict.stragglerRank), slow, ms(m.heaviestComputeUs),
                         formatPercent(m.excessPct), ms(m.othersComputeUs), ms(m.othersWaitUs),
                         ms(m.heaviestWaitUs), times});
        if (cfg.stragglerSlowdown <= 1.0)
            return fill("With a slowdown of %1× rank %2 computes as fast as the others: compute "
                        "spans %3 to %4 over the ranks and the waits stay small (%5 median). "
                        "Verdict: %6.",
                        {slow, triageRankText(cfg.stragglerRank), ms(m.minComputeUs),
                         ms(m.maxComputeUs), ms(m.medianWaitUs), verdict});
        if (m.excessPct <= 100.0 * kTriageStragglerExcess)
            return fill("Rank %1 is set %2× slower, but the rank computing most (rank %3) "
                        "exceeds the others' median by only %4, within the rule's %5: as much "
                        "as a healthy run's noise. Verdict: %6.",
                        {triageRankText(cfg.stragglerRank), slow, triageRankText(m.heaviestRank),
                         formatPercent(m.excessPct), formatShare(kTriageStragglerExcess), verdict});
        const double excessUs = m.heaviestComputeUs - m.othersComputeUs;
        const std::string why =
            m.othersWaitUs - m.heaviestWaitUs < kTriageWaitShareOfExcess * excessUs
                ? "less than half of its excess"
                : "yet another rank waits less than it does, beside its excess";
        return fill("Rank %1 is set %2× slower and rank %3 computes %4 more than the others, "
                    "but they wait %5 (median) against its %6, %9 %7: it does not hold them. "
                    "Verdict: %8.",
                    {triageRankText(cfg.stragglerRank), slow, triageRankText(m.heaviestRank),
                     formatPercent(m.excessPct), ms(m.othersWaitUs), ms(m.heaviestWaitUs),
                     ms(excessUs), verdict, why});
    }
    case TriageCase::Fabric: {
        const std::string slow = formatSignificant(cfg.fabricSlowdown, 3);
        if (t.verdict.verdict == "fabric")
            return fill("Every collective takes %1× longer on every rank (a degraded link, a "
                        "congested switch). Compute is unchanged (%2 to %3 per rank) and %4 of "
                        "what could hide still hides, but every rank has at least %5 of its "
                        "window in exposed communication and waits little (%6 median). The "
                        "trace is %7× as long as the healthy one.",
                        {slow, ms(m.minComputeUs), ms(m.maxComputeUs),
                         formatPercent(m.medianHiddenPct), formatShare(m.minExposedShare),
                         ms(m.medianWaitUs), times});
        const std::string hides = m.medianHiddenPct >= 50.0 ? "most" : "part";
        if (m.minExposedShare < kTriageFabricExposed)
            return fill("Collectives take %1× as long as in the healthy run, and compute still "
                        "hides %2 of it: %3 of what could hide does, and the least exposed rank "
                        "has %4 of its window in exposed communication, under the rule's %5. "
                        "Verdict: %6; the trace is %7× as long as the healthy one.",
                        {slow, hides, formatPercent(m.medianHiddenPct),
                         formatShare(m.minExposedShare), formatShare(kTriageFabricExposed), verdict,
                         times});
        return fill("Collectives take %1× as long as in the healthy run: every rank has at "
                    "least %2 of its window in exposed communication, but the fabric rule's "
                    "other conditions do not all hold (%3 hidden, wait %4). Verdict: %5.",
                    {slow, formatShare(m.minExposedShare), formatPercent(m.medianHiddenPct),
                     ms(m.medianWaitUs), verdict});
    }
    case TriageCase::BrokenOverlap:
        if (t.verdict.verdict == "overlap")
            return fill("The same all-reduces, launched only after the whole backward pass (a "
                        "sync in the training loop, a hook that waits): %1 of communication "
                        "runs under compute, so the rest of its %2 (median) adds to the step, "
                        "on every rank alike. The trace is %3× as long as the healthy one.",
                        {formatPercent(m.medianOverlapPct), ms(m.medianCommUs), times});
        return fill("The all-reduces start after the backward pass, yet the rules read %1 of "
                    "communication hidden and %2 exposed (medians). Verdict: %3.",
                    {formatPercent(m.medianOverlapPct), ms(m.medianExposedUs), verdict});
    }
    return {};
}

// Which generated cases a rule's verdict came out of ("Straggler", or "no case").
std::string triageCasesWith(const std::string& verdict,
                            const std::vector<std::shared_ptr<const Triaged>>& cases) {
    std::string out;
    for (std::size_t i = 0; i < cases.size(); ++i)
        if (cases[i]->verdict.verdict == verdict) {
            if (!out.empty())
                out += ", ";
            out += triageCaseTitle(allTriageCases()[i]);
        }
    return out.empty() ? std::string("no case") : out;
}

// The rules in the order they are checked, each with the case built to meet it, its numbers,
// and the cases it fired on.
FactsFrame triageRulesTable(const std::vector<std::shared_ptr<const Triaged>>& cases) {
    const TriageMeasures& h = cases[0]->verdict.measures;
    const TriageMeasures& s = cases[1]->verdict.measures;
    const TriageMeasures& f = cases[2]->verdict.measures;
    const TriageMeasures& o = cases[3]->verdict.measures;
    FactsFrame t;
    t.title = "The rules, in the order they are checked";
    t.rows.push_back(
        {.label = fill("straggler: one rank computes over %1 more than the others' median, "
                       "waits least, and they wait at least half its excess",
                       {formatShare(kTriageStragglerExcess)}),
         .value = fill("verdict in: %1", {triageCasesWith("straggler", cases)}),
         .source = fill("straggler case: rank %1 +%2 compute, waits %3; the others wait %4",
                        {triageRankText(s.heaviestRank), formatPercent(s.excessPct),
                         ms(s.heaviestWaitUs), ms(s.othersWaitUs)}),
         .emphasis = cases[1]->verdict.verdict == "straggler"});
    t.rows.push_back(
        {.label = fill("overlap: compute within %1 on every rank, under %2 of what could "
                       "overlap hidden, exposed comm at least %3 of the window",
                       {formatShare(kTriageUniformCompute), formatPercent(kTriageNoOverlapPct),
                        formatShare(kTriageExposedShare)}),
         .value = fill("verdict in: %1", {triageCasesWith("overlap", cases)}),
         .source = fill("broken-overlap case: %1 hidden, %2 of the window exposed",
                        {formatPercent(o.medianHiddenPct),
                         formatShare(o.medianExposedUs / std::max(o.medianWindowUs, 1e-9))}),
         .emphasis = cases[3]->verdict.verdict == "overlap"});
    t.rows.push_back(
        {.label = fill("fabric: compute uniform, communication hidden where it can be, yet at "
                       "least %1 of every rank's window exposed, and little waiting",
                       {formatShare(kTriageFabricExposed)}),
         .value = fill("verdict in: %1", {triageCasesWith("fabric", cases)}),
         .source = fill("slow-fabric case: %1 hidden, least exposed %2 of a window, wait %3",
                        {formatPercent(f.medianHiddenPct), formatShare(f.minExposedShare),
                         ms(f.medianWaitUs)}),
         .emphasis = cases[2]->verdict.verdict == "fabric"});
    t.rows.push_back(
        {.label = "none: no rule holds",
         .value = fill("verdict in: %1", {triageCasesWith("none", cases)}),
         .source = fill("healthy case: %1 hidden, %2 of the window exposed, wait %3",
                        {formatPercent(h.medianHiddenPct),
                         formatShare(h.medianExposedUs / std::max(h.medianWindowUs, 1e-9)),
                         ms(h.medianWaitUs)}),
         .emphasis = cases[0]->verdict.verdict == "none"});
    return t;
}

} // namespace

std::string SlowdownTriageScenario::question() const {
    return "Training runs at half speed on many GPUs and nothing errors. From the per-rank "
           "profiler traces, is it one slow rank, the network, or lost compute/communication "
           "overlap?";
}

std::string SlowdownTriageScenario::answer() const {
    return R"(**Read the ranks against each other, not one trace alone.** nvidia-smi cannot tell: its GPU-Util is the share of
time in which one or more kernels was executing (NVML), and an NCCL kernel that spins waiting for a slow peer is
executing, so waiting ranks read as busy as working ones. Per rank, from the GPU kernels:
compute (union of compute kernels, concurrent ones counted once), comm (union of NCCL kernels), **overlap %**
(comm running under compute ÷ comm), exposed comm (comm − overlap), idle (window − all GPU activity) and
**wait**: collectives are matched across ranks by kind and order; all ranks leave a collective together, so
the last to arrive has the shortest kernel, and wait = own duration − shortest duration. Only durations are
compared, so clock skew between hosts does not matter.

Verdict rules, in order:
- **straggler**: the rank with most compute exceeds the other ranks' median by > 10 %, it waits least, and the
  others' median wait exceeds its own by ≥ ½ of that excess. Fix the rank (thermal throttling, a bad HBM page,
  a noisy neighbour, uneven data), not the network.
- **overlap**: compute uniform (all ranks within 10 % of the median), comm ≥ 5 % of the window, median hidden
  share < 15 % and exposed comm ≥ 5 % of the window: communication is serialized after compute (a sync, a
  blocking hook, bucket settings). Hidden share = overlap ÷ min(comm, compute), the part of what could overlap
  that did (overlap % alone also drops when a very slow fabric stretches comm far past compute).
- **fabric**: compute uniform, hidden share ≥ 15 %, and every rank has ≥ 15 % of its window in exposed comm, the
  least within 60 % of the most, with median wait under ⅓ of exposed comm: the collectives themselves are slow
  everywhere (link, NIC, switch, NCCL algorithm). Traces carry no message sizes here, so the rule cannot
  compare with bytes ÷ link rate; run nccl-tests to confirm.
- **none** otherwise.

The lesson's traces are generated (seeded, modeled on CPU) and parsed by the same importer as your files.)";
}

std::vector<SourceRef> SlowdownTriageScenario::sources() const {
    return {
        {"Holistic Trace Analysis: temporal breakdown",
         "https://hta.readthedocs.io/en/latest/source/features/temporal_breakdown.html"},
        {"Holistic Trace Analysis: communication–computation overlap",
         "https://hta.readthedocs.io/en/latest/source/features/comm_comp_overlap.html"},
        {"PyTorch profiler (torch.profiler)", "https://pytorch.org/docs/stable/profiler.html"},
        {"PyTorch DistributedDataParallel design notes (gradient buckets)",
         "https://pytorch.org/docs/stable/notes/ddp.html"},
        {"NVML API Reference: nvmlUtilization_t (GPU-Util)",
         "https://docs.nvidia.com/deploy/nvml-api/structnvmlUtilization__t.html"},
        {"nccl-tests doc/PERFORMANCE.md",
         "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    };
}

std::vector<ParamSpec> SlowdownTriageScenario::parameters() const {
    return {
        ParamSpec::integer("ranks", "Ranks", "", 2, 16, 8, false, "GPUs in the generated job"),
        ParamSpec::integer("seed", "Seed", "", 1, 1000000, 1, false,
                           "generator seed (also picks the straggler)"),
        ParamSpec::real("straggler-slowdown", "Straggler slowdown", "×", 1.0, 3.0, 1.3, false,
                        "compute time factor of the slow rank"),
        ParamSpec::real("fabric-slowdown", "Fabric slowdown", "×", 1.0, 10.0, 3.0, false,
                        "collective time factor on every rank"),
        ParamSpec::integer("steps", "Steps", "", 1, 6, 3, false, "profiler steps per trace"),
    };
}

Story SlowdownTriageScenario::build(const Params& p, const ScenarioInputs& in) const {
    TraceGeneratorConfig base;
    base.ranks = static_cast<int>(p.integer("ranks"));
    base.seed = static_cast<std::uint64_t>(p.integer("seed"));
    base.stragglerSlowdown = p.number("straggler-slowdown");
    base.fabricSlowdown = p.number("fabric-slowdown");
    base.steps = static_cast<int>(p.integer("steps"));
    base.stragglerRank = static_cast<int>((base.seed * std::uint64_t{2654435761} + 7u) %
                                          static_cast<unsigned>(base.ranks));
    const std::string modeled = fill("modeled on CPU: seeded generator (seed %1, %2 ranks), "
                                     "parsed by the Kineto importer",
                                     {std::to_string(base.seed), std::to_string(base.ranks)});
    Story story;
    story.provenance = modeled;

    std::vector<std::shared_ptr<const Triaged>> cases;
    std::vector<TraceGeneratorConfig> configs;
    std::vector<long> ranks;
    for (int r = 0; r < base.ranks; ++r) {
        ranks.push_back(r);
        story.results.push_back({"rank", r});
    }
    for (const TriageCase c : allTriageCases()) {
        TraceGeneratorConfig cfg = base;
        cfg.triageCase = c;
        configs.push_back(cfg);
        cases.push_back(generatedCase(cfg, ranks));
    }
    const Triaged& healthy = *cases[0];
    const double healthyWindowUs = healthy.verdict.measures.medianWindowUs;
    for (const auto& t : cases)
        triageAddResults(story.results, *t, healthyWindowUs);
    for (const double v : {base.kernelJitter, base.hostGapMinUs * 1e-6, base.hostGapMaxUs * 1e-6,
                           kTriageStragglerExcess, kTriageUniformCompute, kTriageNoOverlapPct,
                           kTriageExposedShare, kTriageFabricExposed})
        story.results.push_back({"generator or rule constant", v});

    // One step per case: the timeline revealed as it plays, the per-rank compute and wait.
    const auto caseStep = [&](std::size_t i) {
        const TriageCase c = allTriageCases()[i];
        const auto t = cases[i];
        const std::string title = triageCaseTitle(c);
        story.steps.push_back(
            {fill("%1: verdict %2", {title, verdictText(t->verdict)}),
             caseNarration(c, configs[i], *t, healthy), 6.0,
             [t, ranks, title, skew = configs[i].clockSkewUs](double at) {
                 TimelineFrame tl =
                     timeline(fill("%1 · generated (modeled, not measured)", {title}), *t, ranks,
                              true, kTriageCaseLanes);
                 // Lanes sit on each host's own clock, as real multi-host traces do.
                 tl.caption = fill("%1 · each host's own clock (±%2 apart): only durations are "
                                   "compared across ranks",
                                   {tl.caption, ms(skew)});
                 const auto [lo, hi] = timeSpan(tl);
                 triageReveal(tl, lo, hi - lo, at);
                 return Frames{{tl, triageComputeWaitBars(fill("%1 · per rank", {title}), *t)}};
             }});
    };
    caseStep(0);
    caseStep(1);

    // What the usual first look shows: every GPU busy, the waiting ones too.
    {
        const auto s = cases[1];
        const TriageMeasures& m = s->verdict.measures;
        const auto [lo, hi] = triageRange(*s, triageBusyShare);
        const RankFigures* straggler = nullptr;
        for (const RankFigures& r : s->figures)
            if (s->verdict.stragglerRank && r.rank == *s->verdict.stragglerRank)
                straggler = &r;
        const std::string who =
            straggler
                ? fill("rank %1, the straggler, reads %2 and the ranks waiting for it read as "
                       "much. The figure cannot tell waiting from working; per-rank traces can: "
                       "the others wait %3 (median) against its %4",
                       {triageRankText(straggler->rank), formatShare(triageBusyShare(*straggler)),
                        ms(m.othersWaitUs), ms(m.heaviestWaitUs)})
                : fill("every rank reads alike and no rank holds the others (median wait %1); "
                       "a straggler would read the same, which is why the figure cannot tell "
                       "waiting from working",
                       {ms(m.medianWaitUs)});
        story.steps.push_back(
            {fill("nvidia-smi reads %1 to %2 on every rank", {formatShare(lo), formatShare(hi)}),
             fill("GPU-Util is the share of time in which one or more kernels was executing "
                  "(NVML). An NCCL kernel spinning in an all-reduce while it waits for a slow "
                  "peer is executing, so in the straggler run %1.",
                  {who}),
             5.0, [s, straggler](double at) {
                 BarChartFrame bars = triageGpuUtilBars(*s);
                 // The bars fill from the left as the step plays; the axis stays put.
                 for (BarCategory& c : bars.categories)
                     for (BarSegment& g : c.segments)
                         g.value *= std::clamp(at, 0.0, 1.0);
                 FactsFrame facts;
                 facts.title = "What GPU-Util counts";
                 facts.rows.push_back({.label = "GPU-Util",
                                       .value = "time with a kernel executing ÷ time",
                                       .source = kNvmlGpuUtilSource,
                                       .emphasis = true});
                 facts.rows.push_back({.label = "sample period",
                                       .value = "one sixth of a second to a second",
                                       .source = kNvmlGpuUtilSource});
                 facts.rows.push_back(
                     {.label = "an NCCL kernel waiting for a peer",
                      .value = "executing: counts as busy",
                      .source =
                          "NCCL User Guide: Overview (a collective runs as one CUDA kernel)"});
                 if (straggler)
                     facts.rows.push_back(
                         {.label =
                              fill("rank %1, computing longest", {triageRankText(straggler->rank)}),
                          .value = fill("%1 busy, %2 computing",
                                        {formatShare(triageBusyShare(*straggler)),
                                         formatShare(straggler->computeUs /
                                                     std::max(straggler->windowUs, 1e-9))}),
                          .source = "this run's trace",
                          .emphasis = true});
                 facts.rows.push_back({.label = "what it cannot show",
                                       .value = "working vs waiting, which rank is slow",
                                       .source = kTriageHtaSource});
                 return Frames{{bars, facts}};
             }});
    }
    caseStep(2);
    caseStep(3);

    story.steps.push_back(
        {"Four cases on one time axis",
         fill("The same job four ways, drawn to one scale: the healthy trace takes %1, the "
              "straggler's %2, the slow fabric's %3 and broken overlap's %4. The slowdown is "
              "the extra length; where it comes from is in the figures, not in one trace.",
              {ms(cases[0]->verdict.measures.medianWindowUs),
               ms(cases[1]->verdict.measures.medianWindowUs),
               ms(cases[2]->verdict.measures.medianWindowUs),
               ms(cases[3]->verdict.measures.medianWindowUs)}),
         8.0, [cases, ranks](double at) {
             // One cell each, on one time scale: the slowdown is the difference in length.
             Frames frames;
             frames.arrangement = Arrangement::Grid;
             std::vector<TimelineFrame> views;
             std::int64_t longest = 0;
             std::size_t i = 0;
             for (const TriageCase c : allTriageCases()) {
                 views.push_back(timeline(fill("%1 · generated", {triageCaseTitle(c)}), *cases[i++],
                                          ranks, true, 4, true));
                 const auto [lo, hi] = timeSpan(views.back());
                 views.back().viewStartNs = lo;
                 longest = std::max(longest, hi - lo);
             }
             for (TimelineFrame& v : views) {
                 v.viewEndNs = v.viewStartNs + longest;
                 triageReveal(v, v.viewStartNs, longest, at);
                 frames.items.push_back(std::move(v));
             }
             return frames;
         }});

    const FactsFrame rules = triageRulesTable(cases);
    story.steps.push_back(
        {"The decision rules, and which one fired",
         fill("The verdict is computed, not chosen: the rules are checked in order, the first "
              "that holds wins, none when no rule holds. This run: healthy → %1, straggler → "
              "%2, slow fabric → %3, broken overlap → %4.",
              {verdictText(cases[0]->verdict), verdictText(cases[1]->verdict),
               verdictText(cases[2]->verdict), verdictText(cases[3]->verdict)}),
         6.0, [rules, bars = triageCaseBars(cases)](double at) {
             // The rules appear one by one, in the order they are checked.
             FactsFrame shown = rules;
             const auto n = static_cast<double>(rules.rows.size());
             shown.rows.resize(static_cast<std::size_t>(
                 std::clamp(std::ceil(std::clamp(at, 0.0, 1.0) * n), 1.0, n)));
             return Frames{{shown, bars}};
         }});

    // The whiteboard: the same points with this run's numbers, each following its verdict.
    const TriageMeasures& hs = cases[0]->verdict.measures;
    const TriageMeasures& ss = cases[1]->verdict.measures;
    const TriageMeasures& fs = cases[2]->verdict.measures;
    const TriageMeasures& os = cases[3]->verdict.measures;
    const auto [utilLo, utilHi] = triageRange(*cases[1], triageBusyShare);
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("nvidia-smi cannot tell: GPU-Util counts any kernel executing, a spinning NCCL "
              "wait included; in the straggler run every rank reads %1 to %2.",
              {formatShare(utilLo), formatShare(utilHi)}),
         kNvmlGpuUtilSource},
        {fill("Compare ranks from their profiler traces: compute, communication, overlap and "
              "the wait inside each all-reduce (own time minus the shortest rank's); healthy "
              "waits stay small, %1 median.",
              {ms(hs.medianWaitUs)}),
         kTriageHtaSource},
        {cases[1]->verdict.verdict == "straggler"
             ? fill("Straggler: one rank computes over %1 more and the others wait for it; here "
                    "rank %2 computes %3 more and the others wait %4. Fix that GPU or host.",
                    {formatShare(kTriageStragglerExcess), triageRankText(ss.heaviestRank),
                     formatPercent(ss.excessPct), ms(ss.othersWaitUs)})
             : fill("Straggler: one rank computes over %1 more and the others wait for it; this "
                    "run's straggler case stays under that (%2), so it reads %3.",
                    {formatShare(kTriageStragglerExcess), formatPercent(ss.excessPct),
                     verdictText(cases[1]->verdict)}),
         kTriageDdpSource},
        {cases[2]->verdict.verdict == "fabric"
             ? fill("Slow fabric: compute unchanged, yet at least %1 of every rank's window is "
                    "exposed communication with little waiting (%2); confirm with nccl-tests' "
                    "busbw against the link.",
                    {formatShare(fs.minExposedShare), ms(fs.medianWaitUs)})
             : fill("Slow fabric: compute unchanged and communication exposed on every rank "
                    "alike; this run's fabric case exposes at least %1, so it reads %2.",
                    {formatShare(fs.minExposedShare), verdictText(cases[2]->verdict)}),
         kTriageNcclTestsSource},
        {cases[3]->verdict.verdict == "overlap"
             ? fill("Broken overlap: only %1 of communication hides under compute (healthy %2), "
                    "so the rest adds to the step; look for a sync or a blocking hook before "
                    "the all-reduces.",
                    {formatPercent(os.medianOverlapPct), formatPercent(hs.medianOverlapPct)})
             : fill("Broken overlap: communication stops hiding under compute; this run's case "
                    "hides %1 (healthy %2), so it reads %3.",
                    {formatPercent(os.medianOverlapPct), formatPercent(hs.medianOverlapPct),
                     verdictText(cases[3]->verdict)}),
         kTriageOverlapSource},
    };
    {
        // Check yourself, from this run's figures.
        const RankFigures& r0 = healthy.figures.front();
        const double excessMs = (ss.heaviestComputeUs - ss.othersComputeUs) * 1e-3;
        const double exposedPct = 100.0 * fs.medianExposedUs / std::max(fs.medianWindowUs, 1e-9);
        story.checks = {
            {fill("In the straggler run rank %1 computes %2 and the other ranks %3 (median). By "
                  "what percentage does it exceed them?",
                  {triageRankText(ss.heaviestRank), ms(ss.heaviestComputeUs),
                   ms(ss.othersComputeUs)}),
             ss.excessPct, "%", 0.05,
             fill("(%1 − %2) ÷ %2 = %3 ÷ %2 = %4; the rule needs over %5.",
                  {ms(ss.heaviestComputeUs), ms(ss.othersComputeUs), formatSi(excessMs * 1e-3, "s"),
                   formatPercent(ss.excessPct), formatShare(kTriageStragglerExcess)})},
            {fill("In the healthy run rank %1 spends %2 in NCCL kernels, %3 of it while a "
                  "compute kernel runs. What is its overlap, in %?",
                  {triageRankText(r0.rank), ms(r0.commUs), ms(r0.overlapUs)}),
             r0.overlapPct, "%", 0.03,
             fill("overlap ÷ comm = %1 ÷ %2 = %3.",
                  {ms(r0.overlapUs), ms(r0.commUs), formatPercent(r0.overlapPct)})},
            {fill("In the slow-fabric run the median rank has %1 of exposed communication in a "
                  "%2 window. What share of the window is that, in %?",
                  {ms(fs.medianExposedUs), ms(fs.medianWindowUs)}),
             exposedPct, "%", 0.05,
             fill("%1 ÷ %2 = %3.",
                  {ms(fs.medianExposedUs), ms(fs.medianWindowUs), formatPercent(exposedPct)})},
        };
    }
    addWhiteboardStep(story,
                      fill("Healthy → %1, straggler → %2, slow fabric → %3, broken overlap → %4: "
                           "the verdict comes from the figures.",
                           {verdictText(cases[0]->verdict), verdictText(cases[1]->verdict),
                            verdictText(cases[2]->verdict), verdictText(cases[3]->verdict)}));

    // The user's traces, analysed with the same rules, after the lesson's answer.
    const ImportedSet& imported = in.imported;
    if (!imported.traces.empty()) {
        TraceList traces;
        std::vector<long> mineRanks;
        std::string files;
        for (const ImportedTrace& t : imported.traces) {
            traces.push_back(t.result);
            mineRanks.push_back(t.rank);
            if (!files.empty())
                files += ", ";
            files += std::filesystem::path(t.result->path).filename().string();
        }
        const auto mine = std::make_shared<const Triaged>(triage(traces, mineRanks));
        const std::string origin = fill("IMPORTED: %1", {files});
        story.provenance = fill("%1 · lesson steps %2", {origin, modeled});
        story.steps.push_back(
            {fill("Your traces: %1, verdict %2",
                  {formatCount(static_cast<long long>(traces.size()), "rank", "ranks"),
                   verdictText(mine->verdict)}),
             fill("Your files, one per rank, analysed with the same rules as the lesson: %1.",
                  {mine->verdict.evidence}),
             6.0, [mine, mineRanks, origin](double at) {
                 TimelineFrame tl =
                     timeline(fill("Your ranks · %1", {origin}), *mine, mineRanks, false, 64);
                 const auto [lo, hi] = timeSpan(tl);
                 triageReveal(tl, lo, hi - lo, at);
                 FactsFrame facts =
                     figuresTable("Your ranks · per rank", *mine, "from your trace's kernels");
                 return Frames{{tl, facts}};
             }});
    }
    return story;
}

} // namespace wb
