#include "triage/slowdown_triage_scenario.h"

#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "triage/kineto_trace_generator.h"
#include "triage/rank_analysis.h"
#include "triage/triage_verdict.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <tuple>

namespace wb {

namespace {

using TraceList = std::vector<std::shared_ptr<const ChromeTraceResult>>;

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

std::string verdictText(const TriageVerdict& v) {
    if (v.stragglerRank)
        return fill("%1 (rank %2)", {v.verdict, std::to_string(*v.stragglerRank)});
    return v.verdict;
}

FactsFrame figuresTable(const std::string& title, const Triaged& t, const std::string& source) {
    FactsFrame f;
    f.title = title;
    f.rows.push_back({.label = "verdict",
                      .value = verdictText(t.verdict),
                      .source = fill("rules in the answer card; every figure %1", {source}),
                      .emphasis = true});
    // The two figures the verdict turns on as the value; the rest on the line below, so
    // every row fits a slide column.
    for (const RankFigures& r : t.figures) {
        const bool straggler = t.verdict.stragglerRank && *t.verdict.stragglerRank == r.rank;
        f.rows.push_back({.label = fill("rank %1", {std::to_string(r.rank)}),
                          .value = fill("compute %1 · wait %2", {ms(r.computeUs), ms(r.waitUs)}),
                          .source = fill("comm %1 · overlap %2 · idle %3",
                                         {ms(r.commUs), formatPercent(r.overlapPct), ms(r.idleUs)}),
                          .emphasis = straggler});
    }
    return f;
}

TimelineFrame timeline(const std::string& title, const Triaged& t, const std::vector<long>& ranks,
                       bool gpuOnly, std::size_t maxLanes) {
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
                           .label = fill(straggler ? "rank %1 (straggler)" : "rank %1",
                                         {std::to_string(ranks[i])}),
                           .emphasis = straggler});
    }
    f.caption = shown.size() < t.stores.size()
                    ? fill("%1 · %2 of %3 ranks shown",
                           {verdict, std::to_string(shown.size()), std::to_string(t.stores.size())})
                    : verdict;
    return f;
}

std::string caseNarration(TriageCase c, const TraceGeneratorConfig& cfg) {
    switch (c) {
    case TriageCase::Healthy:
        return "Gradient buckets are all-reduced on the NCCL stream while the backward pass "
               "keeps computing: most communication hides under compute, only the last "
               "bucket is exposed. This is the baseline the other cases are read against.";
    case TriageCase::Straggler:
        return fill(
            "Rank %1 computes %2× slower. Nobody fails: every other rank reaches each "
            "all-reduce early and waits inside it, so their NCCL kernels grow while the "
            "straggler's stay short.",
            {std::to_string(cfg.stragglerRank), formatSignificant(cfg.stragglerSlowdown, 3)});
    case TriageCase::Fabric:
        return fill("Every collective takes %1× longer on every rank (a degraded link, a "
                    "congested switch). Compute is unchanged and still overlaps, but the "
                    "all-reduces run past the backward pass on every rank alike.",
                    {formatSignificant(cfg.fabricSlowdown, 3)});
    case TriageCase::BrokenOverlap:
        return "The same all-reduces, launched only after the whole backward pass (a sync "
               "in the training loop, a hook that waits): overlap drops to zero and all "
               "communication adds to the step time, uniformly on every rank.";
    }
    return {};
}

} // namespace

std::string SlowdownTriageScenario::question() const {
    return "Training runs at half speed on many GPUs and nothing errors. From the per-rank "
           "profiler traces, is it one slow rank, the network, or lost compute/communication "
           "overlap?";
}

std::string SlowdownTriageScenario::answer() const {
    return R"(**Read the ranks against each other, not one trace alone.** Per rank, from the GPU kernels:
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

    const ImportedSet& imported = in.imported;
    if (!imported.traces.empty()) {
        TraceList traces;
        std::vector<long> ranks;
        std::string files;
        for (const ImportedTrace& t : imported.traces) {
            traces.push_back(t.result);
            ranks.push_back(t.rank);
            if (!files.empty())
                files += ", ";
            files += std::filesystem::path(t.result->path).filename().string();
        }
        const auto mine = std::make_shared<const Triaged>(triage(traces, ranks));
        const std::string origin = fill("IMPORTED: %1", {files});
        story.provenance = fill("%1 · lesson steps %2", {origin, modeled});
        story.steps.push_back(
            {fill("Your traces: %1, verdict %2",
                  {formatCount(static_cast<long long>(traces.size()), "rank", "ranks"),
                   verdictText(mine->verdict)}),
             fill("Your files, one per rank, analysed with the same rules as the lesson: %1.",
                  {mine->verdict.evidence}),
             6.0, [mine, ranks, origin](double) {
                 TimelineFrame tl =
                     timeline(fill("Your ranks · %1", {origin}), *mine, ranks, false, 64);
                 FactsFrame facts =
                     figuresTable("Your ranks · per rank", *mine, "from your trace's kernels");
                 return Frames{{tl, facts}};
             }});
    }

    std::vector<std::shared_ptr<const Triaged>> cases;
    std::vector<long> ranks;
    for (int r = 0; r < base.ranks; ++r)
        ranks.push_back(r);
    for (const TriageCase c : allTriageCases()) {
        TraceGeneratorConfig cfg = base;
        cfg.triageCase = c;
        cases.push_back(generatedCase(cfg, ranks));
        const auto t = cases.back();
        const std::string title = triageCaseTitle(c);
        story.steps.push_back(
            {fill("%1: verdict %2", {title, verdictText(t->verdict)}),
             fill("%1 Evidence: %2.", {caseNarration(c, cfg), t->verdict.evidence}), 6.0,
             [t, ranks, title](double) {
                 TimelineFrame tl = timeline(
                     fill("%1 · generated (modeled, not measured)", {title}), *t, ranks, true, 16);
                 FactsFrame facts = figuresTable(fill("%1 · per rank", {title}), *t,
                                                 "from the generated trace's kernels");
                 return Frames{{tl, facts}};
             }});
    }
    story.steps.push_back(
        {"Four cases side by side",
         "The same job four ways. Healthy hides its all-reduces; the straggler makes everyone "
         "else wait; a slow fabric exposes communication on every rank alike; broken overlap "
         "moves every all-reduce after compute. The verdict comes from the figures, not from "
         "the case's name.",
         8.0, [cases, ranks](double) {
             // One cell each, on one time scale: the slowdown is the difference in length.
             Frames frames;
             frames.arrangement = Arrangement::Grid;
             std::vector<TimelineFrame> views;
             std::int64_t longest = 0;
             std::size_t i = 0;
             for (const TriageCase c : allTriageCases()) {
                 views.push_back(timeline(fill("%1 · generated", {triageCaseTitle(c)}), *cases[i++],
                                          ranks, true, 4));
                 const auto [lo, hi] = timeSpan(views.back());
                 views.back().viewStartNs = lo;
                 longest = std::max(longest, hi - lo);
             }
             for (TimelineFrame& v : views) {
                 v.viewEndNs = v.viewStartNs + longest;
                 frames.items.push_back(std::move(v));
             }
             return frames;
         }});
    return story;
}

} // namespace wb
