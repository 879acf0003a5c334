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

FactsFrame byteFacts(const Setup& s, const RingFrame& frame) {
    FactsFrame f;
    f.title = "Bytes each GPU sends";
    const double chunk = s.bytes / s.ranks;
    f.rows.push_back({.label = "Chunk K/N", .value = formatBytes(chunk), .source = kZeroSource});
    f.rows.push_back({.label = "Sent so far (per GPU)",
                      .value = formatBytes(frame.bytesSent.front()),
                      .source = "simulation",
                      .emphasis = true});
    f.rows.push_back({.label = "Total 2(N−1)·K/N",
                      .value = formatBytes(frame.bytesTarget),
                      .source = kZeroSource});
    f.rows.push_back({.label = "Limit as N grows",
                      .value = fill("2K = %1", {formatBytes(2.0 * s.bytes)}),
                      .source = kZeroSource});
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
    };
}

std::vector<ParamSpec> RingAllReduceScenario::parameters() const {
    return {
        ParamSpec::integer("ranks", "GPUs N", "", 2, 16, 4, false, "ranks on the ring"),
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
    auto sim = std::make_shared<const RingAllReduceSim>(s.ranks, s.bytes);
    const int n = s.ranks;
    const size_t rounds = static_cast<size_t>(n - 1);

    // Maps t in [0,1] over `count` rounds starting at `first` to (round, progress).
    auto phaseFrame = [sim](size_t first, size_t count, double t) {
        const double pos = std::clamp(t, 0.0, 1.0) * static_cast<double>(count);
        size_t r = std::min(static_cast<size_t>(pos), count - 1);
        return sim->frameAt(first + r, pos - static_cast<double>(r));
    };

    Story story;
    story.provenance = "modeled on CPU: ring all-reduce simulated on real buffers, α-β cost model";
    story.steps.push_back(
        {"One buffer per GPU, cut into N chunks",
         fill("Each of the %1 GPUs holds its own %2 buffer, split into %1 "
              "chunks of %3. Colours show whose data a chunk contains.",
              {std::to_string(n), formatBytes(s.bytes), formatBytes(s.bytes / n)}),
         3.0, [sim, n](double t) {
             RingFrame f = sim->initialFrame();
             f.highlightRank = std::min(n - 1, static_cast<int>(t * n));
             return Frames{{f}};
         }});
    story.steps.push_back(
        {"Reduce-scatter: pass a chunk, add it in",
         "In each of N−1 rounds every GPU sends one chunk to its right neighbour, which adds it "
         "to its own copy. All links are busy at once, each carrying K/N.",
         static_cast<double>(n - 1) * 1.5, [=](double t) {
             RingFrame f = phaseFrame(0, rounds, t);
             return Frames{{f, byteFacts(s, f)}};
         }});
    story.steps.push_back(
        {"Each GPU owns one finished chunk",
         "After N−1 rounds every GPU holds exactly one chunk that contains everyone's data. "
         "Half the traffic is done.",
         3.0, [=](double t) {
             RingFrame f = sim->frameAt(rounds - 1, 1.0);
             f.highlightRank = std::min(n - 1, static_cast<int>(t * n));
             return Frames{{f, byteFacts(s, f)}};
         }});
    story.steps.push_back(
        {"All-gather: circulate the finished chunks",
         "N−1 more rounds pass the finished chunks around the ring; now receivers copy instead "
         "of adding.",
         static_cast<double>(n - 1) * 1.5, [=](double t) {
             RingFrame f = phaseFrame(rounds, rounds, t);
             return Frames{{f, byteFacts(s, f)}};
         }});
    story.steps.push_back(
        {"Every GPU sent 2(N−1)·K/N bytes",
         fill("Each GPU sent %1 and received as much: almost 2K, whatever N is. The simulation "
              "checked that every GPU ends with the exact sum.",
              {formatBytes(sim->bytesTarget())}),
         3.0, [=](double) {
             RingFrame f = sim->finalFrame();
             return Frames{{f, byteFacts(s, f)}};
         }});
    story.steps.push_back(
        {"α-β cost: ring against trees",
         "Ring time is 2(N−1)α + 2(N−1)/N·K/B: optimal bytes, but latency grows with N. Trees "
         "pay log₂N latency for more bytes, so they win below the crossover.",
         5.0, [=](double t) {
             const double k =
                 std::exp(std::log(kMinBytes) + t * (std::log(s.bytes) - std::log(kMinBytes)));
             return Frames{{costChart(s, k), costFacts(s)}};
         }});
    story.steps.push_back(
        {"Bus bandwidth: what nccl-tests reports",
         "algbw divides the message by the time; busbw multiplies it by 2(N−1)/N so it can be "
         "compared with the link's bandwidth.",
         4.0, [=](double) {
             return Frames{{busbwChart(s), busbwFacts(s)}};
         }});
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
