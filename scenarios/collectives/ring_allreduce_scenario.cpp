#include "collectives/ring_allreduce_scenario.h"

#include "collectives/collective_cost.h"
#include "collectives/ring_allreduce_sim.h"
#include "engine/chart_helpers.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "imported/comm_graph_builder.h"
#include "imported/nccl_tests_fit.h"
#include "imported/ncu_kernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

namespace wb {

namespace {

using Style = ChartSeries::Style;

constexpr const char* kAlphaBetaSource = "α-β model: Thakur, Rabenseifner & Gropp 2005";
constexpr const char* kNcclTestsSource = "nccl-tests doc/PERFORMANCE.md";
constexpr const char* kZeroSource = "ZeRO §7.1; Megatron-LM 2021 §3.3.1";
constexpr const char* kAggregateSource = "derived: rounds × K/N";
// The largest ring drawn GPU by GPU; larger ones are shown in aggregate.
constexpr int kMaxDrawnRanks = 16;
constexpr const char* kLowerBoundSource =
    "Patarasuk & Yuan, Bandwidth optimal all-reduce algorithms for clusters of workstations "
    "(JPDC 2009)";
constexpr const char* kTreeSource = "Jeaugey, Massively Scale Your Deep Learning Training with "
                                    "NCCL 2.4 (NVIDIA blog, 2019)";

struct Setup {
    int ranks;
    double bytes;
    AlphaBeta ab;
    AllReduceAlgorithm algorithm;
};

constexpr std::array<AllReduceAlgorithm, 3> kAllAlgorithms{
    AllReduceAlgorithm::Ring, AllReduceAlgorithm::Tree, AllReduceAlgorithm::DoubleBinaryTree};

int colorOf(AllReduceAlgorithm a) {
    return static_cast<int>(a);
}

constexpr double kMinBytes = 1e3; // message-size axis of both charts
constexpr double kMaxBytes = 1e10;

// One curve per algorithm of `metric(cost)` against message size, on log axes; the y axis
// spans whole decades around the data.
template <typename Metric>
ChartFrame perAlgorithmChart(const Setup& s, std::string title, std::string yTitle, Metric metric) {
    ChartFrame f;
    f.title = std::move(title);
    f.x = ChartAxis{.title = "message size K (B)", .log = true, .min = kMinBytes, .max = kMaxBytes};
    double yMin = 1e300;
    double yMax = 0.0;
    for (auto a : kAllAlgorithms) {
        ChartSeries series;
        series.name = algorithmTitle(a);
        series.colorIndex = colorOf(a);
        series.style = a == s.algorithm ? Style::Line : Style::Dashed;
        for (double k : logSpace(kMinBytes, kMaxBytes, 64)) {
            const double y = metric(allReduceCost(a, s.ranks, k, s.ab));
            series.points.push_back({k, y});
            yMin = std::min(yMin, y);
            yMax = std::max(yMax, y);
        }
        f.series.push_back(std::move(series));
    }
    f.y = ChartAxis{.title = std::move(yTitle),
                    .log = true,
                    .min = decadeBelow(yMin),
                    .max = decadeAbove(yMax)};
    return f;
}

// Time (µs) against message size for the three algorithms, with the ring/double-binary-tree
// crossover and a marker at `markerBytes` on the selected algorithm's curve.
ChartFrame costChart(const Setup& s, double markerBytes) {
    ChartFrame f =
        perAlgorithmChart(s,
                          fill("All-reduce time vs message size · N = %1, α = %2, B = %3",
                               {std::to_string(s.ranks), formatSi(s.ab.alphaS, "s"),
                                formatSi(s.ab.bandwidthBytesPerS, "B/s")}),
                          "time (µs)", [](const AllReduceCost& c) { return c.timeS * 1e6; });
    const double xMin = kMinBytes;
    const double xMax = kMaxBytes;
    if (auto k = crossoverBytes(AllReduceAlgorithm::Ring, AllReduceAlgorithm::DoubleBinaryTree,
                                s.ranks, s.ab);
        k && *k >= xMin && *k <= xMax) {
        const double us = allReduceCost(AllReduceAlgorithm::Ring, s.ranks, *k, s.ab).timeS * 1e6;
        f.markers.push_back({.at = {*k, us},
                             .label = fill("crossover %1", {formatBytes(*k)}),
                             .tooltip = fill("Ring and double binary tree cost the same at K = "
                                             "%1; below it the tree's log-latency wins, above it "
                                             "the ring's fewer bytes win (%2)",
                                             {formatBytes(*k), kAlphaBetaSource}),
                             .colorIndex = 5,
                             .estimate = false});
    }
    const auto c = allReduceCost(s.algorithm, s.ranks, markerBytes, s.ab);
    f.markers.push_back(
        {.at = {markerBytes, c.timeS * 1e6},
         .label = fill("%1: %2", {algorithmTitle(s.algorithm), formatSi(c.timeS, "s")}),
         .tooltip = fill(
             "K = %1, latency part %2, bandwidth part %3",
             {formatBytes(markerBytes), formatSi(c.latencyS, "s"), formatSi(c.bandwidthS, "s")}),
         .colorIndex = colorOf(s.algorithm),
         .estimate = false,
         .emphasis = true});
    f.footnote = fill("Reduction arithmetic ignored. %1; tree bandwidth terms derived beside the "
                      "code.",
                      {kAlphaBetaSource});
    return f;
}

FactsFrame costFacts(const Setup& s) {
    FactsFrame f;
    f.title = fill("K = %1 across %2 GPUs", {formatBytes(s.bytes), std::to_string(s.ranks)});
    for (auto a : kAllAlgorithms) {
        const auto c = allReduceCost(a, s.ranks, s.bytes, s.ab);
        f.rows.push_back({.label = fill("%1 · %2 steps, %3 sent per GPU",
                                        {algorithmTitle(a), std::to_string(c.steps),
                                         formatBytes(c.bytesSentPerRank)}),
                          .value = formatSi(c.timeS, "s"),
                          .source = kAlphaBetaSource,
                          .emphasis = a == s.algorithm});
    }
    const auto cross = crossoverBytes(AllReduceAlgorithm::Ring,
                                      AllReduceAlgorithm::DoubleBinaryTree, s.ranks, s.ab);
    f.rows.push_back(
        {.label = "Ring = double binary tree at",
         .value = cross ? formatBytes(*cross) : std::string("never (ring never slower)"),
         .source = kAlphaBetaSource});
    return f;
}

// The chunk each GPU has finished after reduce-scatter, as facts, with the GPU and chunk
// indexes as the step's results.
struct OwnedChunks {
    FactsFrame facts;
    std::vector<ResultValue> results;
};

// Bytes one GPU has sent so far against the total; `source` says where `sent` comes from.
FactsFrame byteFacts(const Setup& s, double sent, const char* source) {
    FactsFrame f;
    f.title = "Bytes each GPU sends";
    const double chunk = s.bytes / s.ranks;
    f.rows.push_back({.label = "Chunk K/N", .value = formatBytes(chunk), .source = kZeroSource});
    f.rows.push_back({.label = "Sent so far (per GPU)",
                      .value = formatBytes(sent),
                      .source = source,
                      .emphasis = true});
    f.rows.push_back({.label = "Total 2(N−1)·K/N",
                      .value = formatBytes(allReduceLowerBoundBytes(s.ranks, s.bytes)),
                      .source = kZeroSource});
    f.rows.push_back({.label = "Limit as N grows",
                      .value = fill("2K = %1", {formatBytes(2.0 * s.bytes)}),
                      .source = kZeroSource});
    return f;
}

FactsFrame byteFacts(const Setup& s, const RingFrame& frame) {
    return byteFacts(s, frame.bytesSent.front(), "simulation");
}

// A ring too large to draw GPU by GPU, in aggregate: every GPU sends one K/N chunk per round,
// so one curve of bytes sent per GPU against the round stands for all of them. `round` runs
// over 0…2(N−1), fractions inside a round.
ChartFrame sentChart(const Setup& s, double round) {
    const int n = s.ranks;
    const double chunk = s.bytes / n;
    const double last = 2.0 * (n - 1);
    const double at = std::clamp(round, 0.0, last);
    ChartFrame f;
    f.title =
        fill("Bytes each of the %1 has sent, round by round", {formatCount(n, "GPU", "GPUs")});
    f.x = ChartAxis{.title = "round", .log = false, .min = 0.0, .max = last};
    f.y = ChartAxis{.title = "bytes sent per GPU (B)",
                    .log = false,
                    .min = 0.0,
                    .max = 1.1 * allReduceLowerBoundBytes(n, s.bytes)};
    f.series.push_back({.name = "reduce-scatter",
                        .points = {{0.0, 0.0}, {n - 1.0, (n - 1.0) * chunk}},
                        .style = Style::Line,
                        .colorIndex = 0});
    f.series.push_back({.name = "all-gather",
                        .points = {{n - 1.0, (n - 1.0) * chunk}, {last, last * chunk}},
                        .style = Style::Line,
                        .colorIndex = 1});
    f.markers.push_back({.at = {at, at * chunk},
                         .label = fill("%1 sent", {formatBytes(at * chunk)}),
                         .tooltip = fill("after %1 of %2 rounds, each GPU has sent %3 chunks of %4",
                                         {formatNumber(at), formatNumber(last), formatNumber(at),
                                          formatBytes(chunk)}),
                         .colorIndex = at <= n - 1.0 ? 0 : 1,
                         .emphasis = true});
    f.footnote = fill("Every GPU sends the same chunk size each round, so one curve stands for "
                      "all %1 (%2).",
                      {std::to_string(n), kZeroSource});
    return f;
}

// What a few GPUs finish after reduce-scatter, by the simulation's rule, for a ring too large
// to list GPU by GPU: the first three and the last.
OwnedChunks ownedChunksByRule(int n) {
    OwnedChunks out;
    out.facts.title = fill("Finished chunks after %1", {formatCount(n - 1, "round", "rounds")});
    out.results.push_back({"rounds in the phase", n - 1});
    for (const int r : {0, 1, 2, n - 1}) {
        const int c = RingAllReduceSim::finishedChunkOf(r, n);
        out.results.push_back({"GPU", r});
        out.results.push_back({"its finished chunk", c});
        out.facts.rows.push_back({.label = fill("GPU %1", {std::to_string(r)}),
                                  .value = fill("chunk %1", {std::to_string(c)}),
                                  .source = "GPU r finishes chunk (r + 1) mod N"});
    }
    out.results.push_back({"the one in (r + 1)", 1});
    return out;
}

// Every value the slides may quote, in the unit of its quantity.
std::vector<ResultValue> ringResults(const Setup& s) {
    const int n = s.ranks;
    const double perGpu = allReduceLowerBoundBytes(n, s.bytes);
    std::vector<ResultValue> out{{"GPUs N", n},
                                 {"rounds per phase N−1", n - 1},
                                 {"rounds in all 2(N−1)", 2 * (n - 1)},
                                 {"phases", 2},
                                 {"nothing sent yet", 0},
                                 {"the one in N−1", 1},
                                 {"message K", s.bytes},
                                 {"chunk K/N", s.bytes / n},
                                 {"bytes per GPU 2(N−1)K/N", perGpu},
                                 {"bytes per GPU after reduce-scatter", perGpu / 2.0},
                                 {"bytes per GPU ÷ K", perGpu / s.bytes},
                                 {"limit 2K", 2.0 * s.bytes},
                                 {"latency α", s.ab.alphaS},
                                 {"link bandwidth B", s.ab.bandwidthBytesPerS}};
    for (auto a : kAllAlgorithms) {
        const auto c = allReduceCost(a, n, s.bytes, s.ab);
        const std::string name = algorithmName(a);
        out.push_back({fill("%1 time", {name}), c.timeS});
        out.push_back({fill("%1 latency part", {name}), c.latencyS});
        out.push_back({fill("%1 bandwidth part", {name}), c.bandwidthS});
        out.push_back({fill("%1 bytes per GPU", {name}), c.bytesSentPerRank});
        out.push_back({fill("%1 steps", {name}), c.steps});
        out.push_back({fill("%1 algbw", {name}), c.algbwBytesPerS});
        out.push_back({fill("%1 busbw", {name}), c.busbwBytesPerS});
        out.push_back({fill("%1 busbw factor", {name}), c.busbwFactor});
    }
    if (const auto k =
            crossoverBytes(AllReduceAlgorithm::Ring, AllReduceAlgorithm::DoubleBinaryTree, n, s.ab))
        out.push_back({"ring = double binary tree at", *k});
    return out;
}

// Read from the simulation's holdings: the chunk whose copy holds every GPU's data.
OwnedChunks ownedChunks(const RingFrame& f) {
    OwnedChunks out;
    const ContributorMask all =
        f.ranks >= 64 ? ~ContributorMask{0} : (ContributorMask{1} << f.ranks) - 1;
    out.facts.title =
        fill("Finished chunks after %1", {formatCount(f.roundsInPhase, "round", "rounds")});
    out.results.push_back({"rounds in the phase", f.roundsInPhase});
    for (int r = 0; r < f.ranks; ++r) {
        const auto& chunks = f.holdings[static_cast<std::size_t>(r)];
        const auto it = std::find(chunks.begin(), chunks.end(), all);
        const int c = it == chunks.end() ? -1 : static_cast<int>(it - chunks.begin());
        out.results.push_back({"GPU", r});
        out.results.push_back({"its finished chunk", c});
        out.facts.rows.push_back(
            {.label = fill("GPU %1", {std::to_string(r)}),
             .value = c < 0 ? std::string("none yet") : fill("chunk %1", {std::to_string(c)}),
             .source = "simulation: the copy that holds every GPU's data"});
    }
    return out;
}

// Bytes each GPU sends, per algorithm, against the lower bound every all-reduce must meet:
// the ring's two phases are the bound's two halves; the trees send more.
BarChartFrame boundChart(const Setup& s) {
    const int n = s.ranks;
    const double half = allReduceLowerBoundBytes(n, s.bytes) / 2.0;
    BarChartFrame f;
    f.title =
        fill("Bytes each GPU sends · K = %1, N = %2", {formatBytes(s.bytes), std::to_string(n)});
    f.series = {"reduce: the others' shares of my chunk", "distribute: the chunks I do not own",
                "tree traffic (up and down)"};
    f.unit = BarValueUnit::Bytes;
    f.horizontal = true;
    f.axisTitle = "bytes sent per GPU";
    f.categories.push_back({.label = "lower bound",
                            .segments = {{.value = half, .series = 0, .tip = kLowerBoundSource},
                                         {.value = half, .series = 1, .tip = kLowerBoundSource}},
                            .tip = kLowerBoundSource});
    for (auto a : kAllAlgorithms) {
        const auto c = allReduceCost(a, n, s.bytes, s.ab);
        BarCategory bar{.label = algorithmTitle(a), .segments = {}, .tip = kAlphaBetaSource};
        if (a == AllReduceAlgorithm::Ring)
            bar.segments = {{.value = half, .series = 0, .tip = "reduce-scatter"},
                            {.value = half, .series = 1, .tip = "all-gather"}};
        else
            bar.segments = {{.value = c.bytesSentPerRank, .series = 2, .tip = kAlphaBetaSource}};
        f.categories.push_back(std::move(bar));
    }
    f.emphasis = 1; // the ring, which meets the bound
    f.references = {{.value = 2.0 * s.bytes, .label = "2K, the limit as N grows"}};
    const double ringBytes =
        allReduceCost(AllReduceAlgorithm::Ring, n, s.bytes, s.ab).bytesSentPerRank;
    f.caption =
        fill("The ring sends %1, the bound; the double binary tree %2",
             {formatBytes(ringBytes),
              formatBytes(allReduceCost(AllReduceAlgorithm::DoubleBinaryTree, n, s.bytes, s.ab)
                              .bytesSentPerRank)});
    return f;
}

FactsFrame busbwFacts(const Setup& s) {
    const auto c = allReduceCost(s.algorithm, s.ranks, s.bytes, s.ab);
    FactsFrame f;
    f.title = fill("What nccl-tests would print · %1", {algorithmTitle(s.algorithm)});
    f.rows.push_back(
        {.label = "time", .value = formatSi(c.timeS, "s"), .source = kAlphaBetaSource});
    f.rows.push_back({.label = "algbw = K / time",
                      .value = formatSi(c.algbwBytesPerS, "B/s"),
                      .source = kNcclTestsSource});
    f.rows.push_back({.label = "busbw factor 2(N−1)/N",
                      .value = formatNumber(c.busbwFactor),
                      .source = kNcclTestsSource});
    f.rows.push_back({.label = "busbw = algbw × factor",
                      .value = formatSi(c.busbwBytesPerS, "B/s"),
                      .source = kNcclTestsSource,
                      .emphasis = true});
    f.rows.push_back({.label = "link bandwidth B",
                      .value = formatSi(s.ab.bandwidthBytesPerS, "B/s"),
                      .source = "parameter"});
    return f;
}

ChartFrame busbwChart(const Setup& s) {
    ChartFrame f = perAlgorithmChart(
        s, fill("Bus bandwidth vs message size · N = %1", {std::to_string(s.ranks)}),
        "busbw (GB/s)", [](const AllReduceCost& c) { return c.busbwBytesPerS / 1e9; });
    ChartSeries link;
    link.name = "link bandwidth B";
    link.colorIndex = 4;
    link.style = Style::Faint;
    const double bGbs = s.ab.bandwidthBytesPerS / 1e9;
    link.points = {{kMinBytes, bGbs}, {kMaxBytes, bGbs}};
    f.series.push_back(std::move(link));
    f.y.max = std::max(f.y.max, decadeAbove(bGbs));
    f.footnote = fill("busbw reaches B only for the ring at large K; %1", {kNcclTestsSource});
    return f;
}

// One imported nccl-tests file, reduced to what its step draws.
struct MeasuredBusbw {
    std::string file;
    std::string test;       // the name, or "not named in the file"
    std::string testSource; // how the kind was decided
    std::optional<Collective> collective;
    bool allReduce = false; // compared with the lesson's all-reduce model
    RankCount ranks;
    struct Row {
        double bytes = 0.0;
        double outUs = 0.0, outBusbw = 0.0, inUs = 0.0, inBusbw = 0.0; // µs, GB/s
    };
    std::vector<Row> rows;
    std::size_t emptyRows = 0; // 0-byte rows: no point on a log axis, not fitted
    AlphaBetaFit fit;

    // A model curve is drawn when the collective is known and there are at least 2 ranks.
    bool modelled() const { return collective.has_value() && ranks.ranks >= 2; }
};

MeasuredBusbw measuredBusbw(const NcclTestsResult& r, const Setup& s) {
    MeasuredBusbw m;
    m.file = fileNameOf(r.path);
    const TestKind kind = ncclTestsKind(r);
    m.test = kind.name;
    m.testSource = kind.source;
    m.collective = kind.collective;
    m.allReduce = kind.collective == Collective::AllReduce;
    if (kind.collective)
        m.ranks = ncclTestsRanks(r, *kind.collective);
    else if (r.nranks && *r.nranks >= 1)
        m.ranks = {*r.nranks, "stated in the file"};
    std::vector<TimedSize> times;
    for (const auto& row : r.rows) {
        const double bytes = static_cast<double>(row.size);
        if (!(bytes > 0.0)) {
            ++m.emptyRows;
            continue;
        }
        m.rows.push_back({.bytes = bytes,
                          .outUs = row.outOfPlace.timeUs,
                          .outBusbw = row.outOfPlace.busbw,
                          .inUs = row.inPlace.timeUs,
                          .inBusbw = row.inPlace.busbw});
        for (const double us : {row.outOfPlace.timeUs, row.inPlace.timeUs})
            times.push_back({bytes, us * 1e-6});
    }
    if (m.modelled())
        m.fit = m.allReduce ? fitAllReduceAlphaBeta(s.algorithm, m.ranks.ranks, times)
                            : fitCollectiveAlphaBeta(*m.collective, m.ranks.ranks, times);
    return m;
}

// The cost the measured rows are compared with: the lesson's algorithm for all-reduce, the
// ring cost of the file's collective otherwise (both from collective_cost).
AllReduceCost modelCost(const Setup& s, const MeasuredBusbw& m, double bytes, const AlphaBeta& ab) {
    return m.allReduce ? allReduceCost(s.algorithm, m.ranks.ranks, bytes, ab)
                       : collectiveCost(*m.collective, m.ranks.ranks, bytes, ab);
}

std::string modelName(const Setup& s, const MeasuredBusbw& m) {
    return m.allReduce ? fill("%1 model", {algorithmTitle(s.algorithm)})
                       : fill("ring %1 model (not all-reduce)", {m.test});
}

// Why no model line is drawn (empty when one is).
std::string noModelReason(const MeasuredBusbw& m) {
    if (!m.collective)
        return fill("the α-β model here is for all-reduce and the file's test (%1) is not a "
                    "collective the cost model knows",
                    {m.test});
    if (m.ranks.ranks == 1)
        return "N = 1: a single rank moves no bytes between GPUs";
    if (m.ranks.ranks < 2)
        return "the rank count is not in the file and cannot be inferred from busbw ÷ algbw";
    return {};
}

// Measured busbw (out-of-place, in-place) against the model's curve for the file's ranks and
// the scenario's α and B, and the curve of the α-β fit to the measured times.
Frames measuredBusbwFrames(const Setup& s, const MeasuredBusbw& m) {
    ChartFrame f;
    f.title = m.ranks.ranks > 0 ? fill("Your nccl-tests vs the model · %1 · N = %2",
                                       {m.test, std::to_string(m.ranks.ranks)})
                                : fill("Your nccl-tests vs the model · %1", {m.test});
    double xMin = 1e300, xMax = 0.0, yMax = 0.0;
    for (const auto& row : m.rows) {
        xMin = std::min(xMin, row.bytes);
        xMax = std::max(xMax, row.bytes);
        yMax = std::max({yMax, row.outBusbw, row.inBusbw});
    }
    if (xMax <= 0.0) {
        xMin = kMinBytes;
        xMax = kMaxBytes;
    }
    f.x = ChartAxis{.title = "message size K (B)",
                    .log = true,
                    .min = decadeBelow(xMin),
                    .max = decadeAbove(xMax)};
    ChartSeries out{
        .name = "measured, out-of-place", .points = {}, .style = Style::Line, .colorIndex = 0};
    ChartSeries in{
        .name = "measured, in-place", .points = {}, .style = Style::Dashed, .colorIndex = 1};
    for (const auto& row : m.rows) {
        out.points.push_back({row.bytes, row.outBusbw});
        in.points.push_back({row.bytes, row.inBusbw});
    }
    const bool model = m.modelled();
    if (model) {
        ChartSeries curve{
            .name = fill("%1, α = %2, B = %3", {modelName(s, m), formatSi(s.ab.alphaS, "s"),
                                                formatSi(s.ab.bandwidthBytesPerS, "B/s")}),
            .points = {},
            .style = Style::Line,
            .colorIndex = 4};
        ChartSeries fitted{.name = "α-β fit", .points = {}, .style = Style::Faint, .colorIndex = 5};
        for (double k : logSpace(f.x.min, f.x.max, 64)) {
            const double y = modelCost(s, m, k, s.ab).busbwBytesPerS / 1e9;
            curve.points.push_back({k, y});
            yMax = std::max(yMax, y);
            if (m.fit.ok)
                fitted.points.push_back({k, modelCost(s, m, k, m.fit.ab).busbwBytesPerS / 1e9});
        }
        f.series.push_back(std::move(curve));
        if (m.fit.ok)
            f.series.push_back(std::move(fitted));
    }
    f.series.push_back(std::move(out));
    f.series.push_back(std::move(in));
    f.y = ChartAxis{.title = "busbw (GB/s)", .min = 0.0, .max = yMax > 0.0 ? 1.1 * yMax : 1.0};
    // The largest message: where busbw is closest to the link rate.
    for (const auto& row : m.rows)
        if (row.bytes == xMax)
            f.markers.push_back(
                {.at = {row.bytes, row.outBusbw},
                 .label = formatSi(row.outBusbw * 1e9, "B/s"),
                 .tooltip = fill("K = %1: %2 → busbw %3 out-of-place, %4 in-place (%5)",
                                 {formatBytes(row.bytes), formatSi(row.outUs * 1e-6, "s"),
                                  formatSi(row.outBusbw * 1e9, "B/s"),
                                  formatSi(row.inBusbw * 1e9, "B/s"), m.file}),
                 .colorIndex = 0,
                 .estimate = false,
                 .emphasis = true});
    if (model && m.allReduce)
        f.footnote = fill("Measured: %1. Model: %2, busbw factor %3.",
                          {m.file, kAlphaBetaSource, kNcclTestsSource});
    else if (model)
        f.footnote = fill("Measured: %1. The lesson's model is for all-reduce; the curve is %2's "
                          "ring cost (%3), busbw factor %4.",
                          {m.file, m.test, kAlphaBetaSource, kNcclTestsSource});
    else
        f.footnote = fill("Measured: %1. No model line: %2; %3 is plotted as measured.",
                          {m.file, noModelReason(m), m.test});

    FactsFrame facts;
    facts.title = fill("Your nccl-tests · %1", {m.file});
    facts.rows.push_back({.label = "test", .value = m.test, .source = m.testSource});
    facts.rows.push_back(
        {.label = "ranks N",
         .value =
             m.ranks.ranks > 0 ? std::to_string(m.ranks.ranks) : std::string("not in the file"),
         .source = m.ranks.source.empty() ? std::string("not in the file") : m.ranks.source});
    // The count, then the range and the rows left out when there are any.
    std::string sizes = fill("%1 sizes plotted", {std::to_string(m.rows.size())});
    if (!m.rows.empty())
        sizes.append(fill(", %1 to %2", {formatBytes(xMin), formatBytes(xMax)}));
    if (m.emptyRows > 0)
        sizes.append(fill(" (%1 of 0 B left out)",
                          {formatCount(static_cast<long long>(m.emptyRows), "row", "rows")}));
    facts.rows.push_back({.label = "message sizes", .value = sizes, .source = m.file});
    if (model) {
        facts.rows.push_back(
            {.label = "model (scenario's α, B)",
             .value = fill("%1: α = %2, B = %3", {modelName(s, m), formatSi(s.ab.alphaS, "s"),
                                                  formatSi(s.ab.bandwidthBytesPerS, "B/s")}),
             .source = "parameters"});
        if (!m.allReduce)
            facts.rows.push_back(
                {.label = fill("busbw factor, N = %1", {std::to_string(m.ranks.ranks)}),
                 .value = formatSignificant(busbwFactor(*m.collective, m.ranks.ranks), 4),
                 .source = kNcclTestsSource});
        if (m.fit.ok) {
            facts.rows.push_back({.label = "α-β fit: latency α",
                                  .value = formatSi(m.fit.ab.alphaS, "s"),
                                  .source = fill("least squares on relative time error, %1 times",
                                                 {std::to_string(m.fit.points)}),
                                  .emphasis = true});
            facts.rows.push_back(
                {.label = "α-β fit: bandwidth B",
                 .value = formatSi(m.fit.ab.bandwidthBytesPerS, "B/s"),
                 .source = m.allReduce
                               ? fill("%1 cost %2", {algorithmTitle(s.algorithm), kAlphaBetaSource})
                               : fill("ring %1 cost %2", {m.test, kAlphaBetaSource}),
                 .emphasis = true});
            facts.rows.push_back({.label = "fit error (rms, relative)",
                                  .value = formatShare(m.fit.rmsRelative),
                                  .source = "model vs measured times"});
        } else {
            facts.rows.push_back(
                {.label = "α-β fit", .value = m.fit.problem, .source = "least squares"});
        }
    } else {
        facts.rows.push_back({.label = "model",
                              .value = fill("not compared: %1", {noModelReason(m)}),
                              .source = kAlphaBetaSource});
    }
    return Frames{{f, facts}};
}

// The step's narration for one file.
std::string measuredNarration(const MeasuredBusbw& m) {
    if (!m.modelled())
        return fill("Your %1 rows as measured; no model line: %2.", {m.test, noModelReason(m)});
    const std::string compared =
        m.allReduce ? fill("Your measured bus bandwidth against the model's for N = %1 with this "
                           "scenario's α and B.",
                           {std::to_string(m.ranks.ranks)})
                    : fill("Your %1 rows against that collective's ring cost for N = %2 with this "
                           "scenario's α and B (the lesson's model is for all-reduce).",
                           {m.test, std::to_string(m.ranks.ranks)});
    const std::string fit =
        m.fit.ok
            ? fill("The α-β fit to your times says α = %1 and B = %2.",
                   {formatSi(m.fit.ab.alphaS, "s"), formatSi(m.fit.ab.bandwidthBytesPerS, "B/s")})
            : fill("No α-β fit: %1.", {m.fit.problem});
    return fill("%1 %2", {compared, fit});
}

struct ImportedComm {
    CommGraphFrame graph;
    FactsFrame facts;
};

} // namespace

std::string RingAllReduceScenario::question() const {
    return "Derive the cost of ring all-reduce. How many bytes does each GPU send, and when "
           "would you rather use a tree?";
}

std::string RingAllReduceScenario::answer() const {
    return R"(**Ring all-reduce = reduce-scatter + all-gather.** Split the K-byte buffer into N chunks.
In N−1 rounds every GPU passes one chunk to its neighbour, which adds it to its own copy (reduce-scatter);
afterwards each GPU owns one fully reduced chunk. N−1 more rounds circulate the finished chunks (all-gather).

- **Bytes per GPU:** 2(N−1)·K/N sent and the same received — it tends to **2K**, independent of N
  (ZeRO §7.1; e.g. N = 8, K = 1 GB → 1.75 GB).
- **α-β time:** 2(N−1)·α + 2(N−1)/N · K/B. The bandwidth term is optimal; the latency term grows
  **linearly** with N (Thakur, Rabenseifner & Gropp 2005).
- **Double binary tree** (NCCL ≥ 2.4): 2⌈log₂N⌉·α + 2K/B — logarithmic latency for slightly more bytes,
  so it wins for small messages and large N; rings win for large messages. A single pipelined binary tree
  costs 2⌈log₂N⌉·α + 3K/B (an interior node sends K up and K to each child).
- **busbw = algbw × 2(N−1)/N** (nccl-tests): the factor is 1.0 for N = 2, 1.5 for N = 4, 1.75 for N = 8;
  busbw is comparable to the link's bandwidth whatever the algorithm.
- Interview tells: say "reduce-scatter then all-gather", give 2(N−1)/N, and name the latency term as the
  reason rings stop scaling past hundreds of GPUs (NCCL 2.4 blog: up to 180× at 24k GPUs with trees).

The model ignores the reduction arithmetic (γ), which GPUs hide under the transfer.)";
}

std::vector<SourceRef> RingAllReduceScenario::sources() const {
    return {
        {"Thakur, Rabenseifner & Gropp, Optimization of Collective Communication Operations in "
         "MPICH (IJHPCA 2005)",
         "https://doi.org/10.1177/1094342005051521"},
        {"nccl-tests doc/PERFORMANCE.md (algbw, busbw factors)",
         "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
        {"Jeaugey, Massively Scale Your Deep Learning Training with NCCL 2.4 (2019)",
         "https://developer.nvidia.com/blog/massively-scale-deep-learning-training-nccl-2-4/"},
        {"Rajbhandari et al., ZeRO §7.1 (arXiv:1910.02054)", "https://arxiv.org/abs/1910.02054"},
        {"Patarasuk & Yuan, Bandwidth optimal all-reduce algorithms for clusters of workstations "
         "(JPDC 2009)",
         "https://doi.org/10.1016/j.jpdc.2008.09.002"},
    };
}

std::vector<ParamSpec> RingAllReduceScenario::parameters() const {
    return {
        ParamSpec::integer("ranks", "GPUs N", "", 2, 1024, 4, true,
                           fill("ranks on the ring; above %1 the ring is shown in aggregate",
                                {std::to_string(kMaxDrawnRanks)})),
        ParamSpec::real("bytes", "Message size K", "B", 1e3, 1e10, 256e6, true,
                        "bytes each GPU all-reduces"),
        ParamSpec::real("alpha-us", "Latency α", "µs", 0.1, 100, 5, true, "per-message latency"),
        ParamSpec::real("bandwidth-gbs", "Link bandwidth B", "GB/s", 1, 900, 50, true,
                        "per direction; 50 GB/s = one 400 Gb/s NIC"),
        ParamSpec::choice("algorithm", "Algorithm", allReduceAlgorithmNames(), "ring",
                          "which algorithm the cost steps emphasise"),
    };
}

Story RingAllReduceScenario::build(const Params& p, const ScenarioInputs& in) const {
    const Setup s{static_cast<int>(p.integer("ranks")), p.number("bytes"),
                  AlphaBeta{p.number("alpha-us") * 1e-6, p.number("bandwidth-gbs") * 1e9},
                  *parseAllReduceAlgorithm(p.text("algorithm"))};
    const int n = s.ranks;
    // Up to kMaxDrawnRanks the ring is simulated and drawn GPU by GPU; beyond, the same steps
    // show it in aggregate (every GPU does the same each round).
    const bool drawn = n <= kMaxDrawnRanks;
    const auto sim = drawn ? std::make_shared<const RingAllReduceSim>(s.ranks, s.bytes) : nullptr;
    const size_t rounds = static_cast<size_t>(n - 1);

    // Maps t in [0,1] over `count` rounds starting at `first` to (round, progress).
    auto phaseFrame = [sim](size_t first, size_t count, double t) {
        const double pos = std::clamp(t, 0.0, 1.0) * static_cast<double>(count);
        size_t r = std::min(static_cast<size_t>(pos), count - 1);
        return sim->frameAt(first + r, pos - static_cast<double>(r));
    };

    Story story;
    story.provenance =
        drawn ? std::string("modeled on CPU: ring all-reduce simulated on real buffers, α-β cost "
                            "model")
              : fill("modeled on CPU: α-β cost model; the ring is shown in aggregate (rounds × "
                     "K/N), simulated GPU by GPU up to %1 ranks",
                     {std::to_string(kMaxDrawnRanks)});
    const double chunk = s.bytes / n;
    const double perGpu = allReduceLowerBoundBytes(n, s.bytes);
    const auto ring = allReduceCost(AllReduceAlgorithm::Ring, n, s.bytes, s.ab);
    const auto tree = allReduceCost(AllReduceAlgorithm::DoubleBinaryTree, n, s.bytes, s.ab);
    const auto chosen = allReduceCost(s.algorithm, n, s.bytes, s.ab);
    const auto cross =
        crossoverBytes(AllReduceAlgorithm::Ring, AllReduceAlgorithm::DoubleBinaryTree, n, s.ab);
    story.results = ringResults(s);
    const std::string gpus = formatCount(n, "GPU", "GPUs");
    const std::string rounds1 = formatCount(n - 1, "round", "rounds");
    // A phase animates its rounds at 1.5 s each, up to a minute for the largest rings.
    const double phaseSeconds = std::min(60.0, (n - 1) * 1.5);

    story.steps.push_back(
        {"One buffer per GPU, cut into N chunks",
         fill("Each of the %1 holds its own %2 buffer, split into %3 chunks of %4. %5",
              {gpus, formatBytes(s.bytes), std::to_string(n), formatBytes(chunk),
               drawn ? "Colours show whose data a chunk contains."
                     : "Too many to draw one by one: the chart follows the bytes every GPU "
                       "sends, round by round."}),
         3.0, [=](double t) {
             if (!drawn)
                 return Frames{{sentChart(s, 0.0), byteFacts(s, 0.0, kAggregateSource)}};
             RingFrame f = sim->initialFrame();
             f.highlightRank = std::min(n - 1, static_cast<int>(t * n));
             return Frames{{f}};
         }});
    story.steps.push_back(
        {"Reduce-scatter: pass a chunk, add it in",
         fill("In each of %1 every GPU sends one %2 chunk to its right neighbour, which adds it "
              "to its own copy. All %3 links are busy at once.",
              {rounds1, formatBytes(chunk), std::to_string(n)}),
         phaseSeconds, [=](double t) {
             if (!drawn) {
                 const double round = std::clamp(t, 0.0, 1.0) * (n - 1.0);
                 return Frames{
                     {sentChart(s, round), byteFacts(s, round * chunk, kAggregateSource)}};
             }
             RingFrame f = phaseFrame(0, rounds, t);
             return Frames{{f, byteFacts(s, f)}};
         }});
    const OwnedChunks owned =
        drawn ? ownedChunks(sim->frameAt(rounds - 1, 1.0)) : ownedChunksByRule(n);
    story.steps.push_back(
        {"Each GPU owns one finished chunk",
         fill("After %1 every GPU holds exactly one chunk that contains all %2' data, and each "
              "has sent %3: half of its traffic.",
              {rounds1, gpus, formatBytes(perGpu / 2.0)}),
         3.0,
         [=](double t) {
             if (!drawn)
                 return Frames{{sentChart(s, n - 1.0), owned.facts}};
             RingFrame f = sim->frameAt(rounds - 1, 1.0);
             f.highlightRank = std::min(n - 1, static_cast<int>(t * n));
             return Frames{{f, owned.facts}};
         },
         owned.results});
    story.steps.push_back(
        {"All-gather: circulate the finished chunks",
         fill("%1 more pass the finished chunks around the ring; now receivers copy instead of "
              "adding, until every GPU holds all %2 reduced chunks.",
              {rounds1, std::to_string(n)}),
         phaseSeconds, [=](double t) {
             if (!drawn) {
                 const double round = (n - 1.0) * (1.0 + std::clamp(t, 0.0, 1.0));
                 return Frames{
                     {sentChart(s, round), byteFacts(s, round * chunk, kAggregateSource)}};
             }
             RingFrame f = phaseFrame(rounds, rounds, t);
             return Frames{{f, byteFacts(s, f)}};
         }});
    story.steps.push_back(
        {"Why no algorithm sends less",
         fill("Each GPU sent %1 and received as much: %2 × K, approaching 2K as N grows. No "
              "algorithm does better: a GPU must receive the shares of its chunk from the "
              "other %3 to reduce it, and the %4 chunks it does not own to finish, (N−1)/N of K "
              "twice.",
              {formatBytes(perGpu), formatNumber(perGpu / s.bytes),
               formatCount(n - 1, "GPU", "GPUs"), std::to_string(n - 1)}),
         3.0, [=](double) {
             if (!drawn)
                 return Frames{{boundChart(s), byteFacts(s, perGpu, kAggregateSource)}};
             return Frames{{sim->finalFrame(), boundChart(s)}};
         }});
    const std::string verdict =
        !cross ? fill("the ring is never slower than the double binary tree here (%1 against %2)",
                      {formatSi(ring.timeS, "s"), formatSi(tree.timeS, "s")})
        : s.bytes < *cross
            ? fill("K is below the %1 crossover, so the double binary tree's log₂N latency "
                   "wins (%2 against the ring's %3)",
                   {formatBytes(*cross), formatSi(tree.timeS, "s"), formatSi(ring.timeS, "s")})
            : fill("K is above the %1 crossover, so the ring's fewer bytes win (%2 against the "
                   "tree's %3)",
                   {formatBytes(*cross), formatSi(ring.timeS, "s"), formatSi(tree.timeS, "s")});
    story.steps.push_back(
        {"α-β cost: ring against trees",
         fill("Ring time is 2(N−1)α + 2(N−1)/N·K/B: optimal bytes, but latency grows with N. "
              "At K = %1, %2.",
              {formatBytes(s.bytes), verdict}),
         5.0, [=](double t) {
             const double k =
                 std::exp(std::log(kMinBytes) + t * (std::log(s.bytes) - std::log(kMinBytes)));
             return Frames{{costChart(s, k), costFacts(s)}};
         }});
    story.steps.push_back(
        {"Bus bandwidth: what nccl-tests reports",
         fill("algbw = K / time = %1 (%2); busbw multiplies it by 2(N−1)/N = %3 to give %4, "
              "comparable with the link's %5.",
              {formatSi(chosen.algbwBytesPerS, "B/s"), algorithmTitle(s.algorithm),
               formatNumber(chosen.busbwFactor), formatSi(chosen.busbwBytesPerS, "B/s"),
               formatSi(s.ab.bandwidthBytesPerS, "B/s")}),
         4.0, [=](double) {
             return Frames{{busbwChart(s), busbwFacts(s)}};
         }});

    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("Ring all-reduce is a reduce-scatter then an all-gather, %1 each: every round, "
              "every GPU passes one %2 chunk (K/N) to its neighbour.",
              {rounds1, formatBytes(chunk)}),
         kAlphaBetaSource},
        {fill("Each GPU sends 2(N−1)·K/N = %1 for K = %2 across %3 (%4 × K, approaching 2K), "
              "the least any all-reduce can send.",
              {formatBytes(perGpu), formatBytes(s.bytes), gpus, formatNumber(perGpu / s.bytes)}),
         kLowerBoundSource},
        {fill("Time = 2(N−1)α + 2(N−1)/N·K/B = %1 + %2 = %3 with α = %4 and B = %5.",
              {formatSi(ring.latencyS, "s"), formatSi(ring.bandwidthS, "s"),
               formatSi(ring.timeS, "s"), formatSi(s.ab.alphaS, "s"),
               formatSi(s.ab.bandwidthBytesPerS, "B/s")}),
         kAlphaBetaSource},
        {fill("A double binary tree costs 2⌈log₂N⌉α + 2K/B = %1: %2.",
              {formatSi(tree.timeS, "s"),
               cross ? fill("use it below %1, the ring above", {formatBytes(*cross)})
                     : std::string("here the ring is never slower")}),
         kTreeSource},
        {fill("nccl-tests prints busbw = algbw × 2(N−1)/N = %1 × %2 = %3, comparable with the "
              "link's %4.",
              {formatSi(chosen.algbwBytesPerS, "B/s"), formatNumber(chosen.busbwFactor),
               formatSi(chosen.busbwBytesPerS, "B/s"), formatSi(s.ab.bandwidthBytesPerS, "B/s")}),
         kNcclTestsSource},
    };
    story.checks = {
        {fill("How many MB does each GPU send in a ring all-reduce of %1 across %2?",
              {formatBytes(s.bytes), gpus}),
         perGpu / 1e6, "MB", 0.02,
         fill("2(N−1)·K/N = 2 × %1 × %2 / %3 = %4.", {std::to_string(n - 1), formatBytes(s.bytes),
                                                      std::to_string(n), formatBytes(perGpu)})},
        {fill("What factor turns algbw into busbw for an all-reduce across %1?", {gpus}),
         ring.busbwFactor, "", 0.01,
         fill("2(N−1)/N = 2 × %1 / %2 = %3.",
              {std::to_string(n - 1), std::to_string(n), formatNumber(ring.busbwFactor)})},
        {fill("How long does the ring take, in µs, with α = %1 and B = %2?",
              {formatSi(s.ab.alphaS, "s"), formatSi(s.ab.bandwidthBytesPerS, "B/s")}),
         ring.timeS * 1e6, "µs", 0.05,
         fill("2(N−1)α + 2(N−1)/N·K/B = %1 + %2 = %3.",
              {formatSi(ring.latencyS, "s"), formatSi(ring.bandwidthS, "s"),
               formatSi(ring.timeS, "s")})},
    };
    addWhiteboardStep(
        story, fill("Ring: %1 per GPU in %2 rounds; %3 with this α and B.",
                    {formatBytes(perGpu), std::to_string(2 * (n - 1)), formatSi(ring.timeS, "s")}));
    const ImportedSet& imported = in.imported;
    {
        std::vector<std::string> paths;
        for (const auto& t : imported.ncclTests)
            if (t)
                paths.push_back(t->path);
        for (const auto& l : imported.ncclLogs)
            if (std::find(paths.begin(), paths.end(), l.path) == paths.end())
                paths.push_back(l.path);
        story.provenance += importedNote(paths);
    }
    for (const auto& tests : imported.ncclTests) {
        if (!tests)
            continue;
        auto m = std::make_shared<const MeasuredBusbw>(measuredBusbw(*tests, s));
        const std::string title = imported.ncclTests.size() > 1
                                      ? fill("Your nccl-tests vs the model · %1", {m->file})
                                      : std::string("Your nccl-tests vs the model");
        const std::string narration = measuredNarration(*m);
        story.steps.push_back(
            {title, narration, 4.0, [s, m](double) { return measuredBusbwFrames(s, *m); }});
    }
    for (const auto& log : imported.ncclLogs) {
        if (!log.data)
            continue;
        auto comm = std::make_shared<const ImportedComm>(
            ImportedComm{commGraphFrame(*log.data, log.path), commGraphFacts(*log.data, log.path)});
        const std::string title =
            imported.ncclLogs.size() > 1
                ? fill("Your NCCL rings and trees · %1", {fileNameOf(log.path)})
                : std::string("Your NCCL rings and trees");
        story.steps.push_back(
            {title,
             "The rings and trees NCCL built for your run: every channel is one ring (rank → next "
             "rank, coloured by the transport NCCL chose) and one tree (parent → child, dashed). "
             "All-reduce splits the buffer over the channels.",
             3.0, [comm](double) {
                 return Frames{{comm->graph, comm->facts}};
             }});
    }
    return story;
}

} // namespace wb
