#include "collectives/ring_allreduce_scenario.h"

#include "collectives/collective_cost.h"
#include "collectives/ring_allreduce_sim.h"
#include "engine/chart_helpers.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
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
    f.x = ChartAxis{"message size K (B)", true, kMinBytes, kMaxBytes};
    double yMin = 1e300;
    double yMax = 0.0;
    for (auto a : kAllAlgorithms) {
        ChartSeries series;
        series.name = algorithmTitle(a);
        series.colorIndex = colorOf(a);
        series.style = a == s.algorithm ? ChartSeries::Style::Line : ChartSeries::Style::Dashed;
        for (double k : logSpace(kMinBytes, kMaxBytes, 64)) {
            const double y = metric(allReduceCost(a, s.ranks, k, s.ab));
            series.points.push_back({k, y});
            yMin = std::min(yMin, y);
            yMax = std::max(yMax, y);
        }
        f.series.push_back(std::move(series));
    }
    f.y = ChartAxis{std::move(yTitle), true, decadeBelow(yMin), decadeAbove(yMax)};
    return f;
}

// Time (µs) against message size for the three algorithms, with the ring/double-binary-tree
// crossover and a marker at `markerBytes` on the selected algorithm's curve.
ChartFrame costChart(const Setup& s, double markerBytes) {
    ChartFrame f =
        perAlgorithmChart(s,
                          "All-reduce time vs message size · N = " + std::to_string(s.ranks) +
                              ", α = " + formatSi(s.ab.alphaS, "s") +
                              ", B = " + formatSi(s.ab.bandwidthBytesPerS, "B/s"),
                          "time (µs)", [](const AllReduceCost& c) { return c.timeS * 1e6; });
    const double xMin = kMinBytes;
    const double xMax = kMaxBytes;
    if (auto k = crossoverBytes(AllReduceAlgorithm::Ring, AllReduceAlgorithm::DoubleBinaryTree,
                                s.ranks, s.ab);
        k && *k >= xMin && *k <= xMax) {
        const double us = allReduceCost(AllReduceAlgorithm::Ring, s.ranks, *k, s.ab).timeS * 1e6;
        f.markers.push_back({{*k, us},
                             "crossover " + formatBytes(*k),
                             "Ring and double binary tree cost the same at K = " + formatBytes(*k) +
                                 "; below it the tree's log-latency wins, above it the ring's "
                                 "fewer bytes win (" +
                                 kAlphaBetaSource + ")",
                             5,
                             false,
                             false});
    }
    const auto c = allReduceCost(s.algorithm, s.ranks, markerBytes, s.ab);
    f.markers.push_back({{markerBytes, c.timeS * 1e6},
                         algorithmTitle(s.algorithm) + ": " + formatSi(c.timeS, "s"),
                         "K = " + formatBytes(markerBytes) + ", latency part " +
                             formatSi(c.latencyS, "s") + ", bandwidth part " +
                             formatSi(c.bandwidthS, "s"),
                         colorOf(s.algorithm),
                         false,
                         true});
    f.footnote = std::string("Reduction arithmetic ignored. ") + kAlphaBetaSource +
                 "; tree bandwidth terms derived beside the code.";
    return f;
}

FactsFrame costFacts(const Setup& s) {
    FactsFrame f;
    f.title = "K = " + formatBytes(s.bytes) + " across " + std::to_string(s.ranks) + " GPUs";
    for (auto a : kAllAlgorithms) {
        const auto c = allReduceCost(a, s.ranks, s.bytes, s.ab);
        f.rows.push_back({algorithmTitle(a) + " · " + std::to_string(c.steps) + " steps, " +
                              formatBytes(c.bytesSentPerRank) + " sent per GPU",
                          formatSi(c.timeS, "s"), kAlphaBetaSource, a == s.algorithm});
    }
    const auto cross = crossoverBytes(AllReduceAlgorithm::Ring,
                                      AllReduceAlgorithm::DoubleBinaryTree, s.ranks, s.ab);
    f.rows.push_back({"Ring = double binary tree at",
                      cross ? formatBytes(*cross) : std::string("never (ring never slower)"),
                      kAlphaBetaSource, false});
    return f;
}

FactsFrame byteFacts(const Setup& s, const RingFrame& frame) {
    FactsFrame f;
    f.title = "Bytes each GPU sends";
    const double chunk = s.bytes / s.ranks;
    f.rows.push_back({"Chunk K/N", formatBytes(chunk), kZeroSource, false});
    f.rows.push_back(
        {"Sent so far (per GPU)", formatBytes(frame.bytesSent.front()), "simulation", true});
    f.rows.push_back({"Total 2(N−1)·K/N", formatBytes(frame.bytesTarget), kZeroSource, false});
    f.rows.push_back(
        {"Limit as N grows", "2K = " + formatBytes(2.0 * s.bytes), kZeroSource, false});
    return f;
}

FactsFrame busbwFacts(const Setup& s) {
    const auto c = allReduceCost(s.algorithm, s.ranks, s.bytes, s.ab);
    FactsFrame f;
    f.title = "What nccl-tests would print · " + algorithmTitle(s.algorithm);
    f.rows.push_back({"time", formatSi(c.timeS, "s"), kAlphaBetaSource, false});
    f.rows.push_back(
        {"algbw = K / time", formatSi(c.algbwBytesPerS, "B/s"), kNcclTestsSource, false});
    f.rows.push_back(
        {"busbw factor 2(N−1)/N", formatNumber(c.busbwFactor), kNcclTestsSource, false});
    f.rows.push_back(
        {"busbw = algbw × factor", formatSi(c.busbwBytesPerS, "B/s"), kNcclTestsSource, true});
    f.rows.push_back(
        {"link bandwidth B", formatSi(s.ab.bandwidthBytesPerS, "B/s"), "parameter", false});
    return f;
}

ChartFrame busbwChart(const Setup& s) {
    ChartFrame f = perAlgorithmChart(
        s, "Bus bandwidth vs message size · N = " + std::to_string(s.ranks), "busbw (GB/s)",
        [](const AllReduceCost& c) { return c.busbwBytesPerS / 1e9; });
    ChartSeries link;
    link.name = "link bandwidth B";
    link.colorIndex = 4;
    link.style = ChartSeries::Style::Faint;
    const double bGbs = s.ab.bandwidthBytesPerS / 1e9;
    link.points = {{kMinBytes, bGbs}, {kMaxBytes, bGbs}};
    f.series.push_back(std::move(link));
    f.y.max = std::max(f.y.max, decadeAbove(bGbs));
    f.footnote = std::string("busbw reaches B only for the ring at large K; ") + kNcclTestsSource;
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
        m.rows.push_back({bytes, row.outOfPlace.timeUs, row.outOfPlace.busbw, row.inPlace.timeUs,
                          row.inPlace.busbw});
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
    return m.allReduce ? algorithmTitle(s.algorithm) + " model"
                       : "ring " + m.test + " model (not all-reduce)";
}

// Why no model line is drawn (empty when one is).
std::string noModelReason(const MeasuredBusbw& m) {
    if (!m.collective)
        return "the α-β model here is for all-reduce and the file's test (" + m.test +
               ") is not a collective the cost model knows";
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
    f.title = "Your nccl-tests vs the model · " + m.test +
              (m.ranks.ranks > 0 ? " · N = " + std::to_string(m.ranks.ranks) : std::string{});
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
    f.x = ChartAxis{"message size K (B)", true, decadeBelow(xMin), decadeAbove(xMax)};
    ChartSeries out{"measured, out-of-place", {}, ChartSeries::Style::Line, 0};
    ChartSeries in{"measured, in-place", {}, ChartSeries::Style::Dashed, 1};
    for (const auto& row : m.rows) {
        out.points.push_back({row.bytes, row.outBusbw});
        in.points.push_back({row.bytes, row.inBusbw});
    }
    const bool model = m.modelled();
    if (model) {
        ChartSeries curve{modelName(s, m) + ", α = " + formatSi(s.ab.alphaS, "s") +
                              ", B = " + formatSi(s.ab.bandwidthBytesPerS, "B/s"),
                          {},
                          ChartSeries::Style::Line,
                          4};
        ChartSeries fitted{"α-β fit", {}, ChartSeries::Style::Faint, 5};
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
    f.y = ChartAxis{"busbw (GB/s)", false, 0.0, yMax > 0.0 ? 1.1 * yMax : 1.0};
    // The largest message: where busbw is closest to the link rate.
    for (const auto& row : m.rows)
        if (row.bytes == xMax)
            f.markers.push_back(
                {{row.bytes, row.outBusbw},
                 formatSi(row.outBusbw * 1e9, "B/s"),
                 "K = " + formatBytes(row.bytes) + ": " + formatSi(row.outUs * 1e-6, "s") +
                     " → busbw " + formatSi(row.outBusbw * 1e9, "B/s") + " out-of-place, " +
                     formatSi(row.inBusbw * 1e9, "B/s") + " in-place (" + m.file + ")",
                 0,
                 false,
                 true});
    if (model && m.allReduce)
        f.footnote = std::string("Measured: ") + m.file + ". Model: " + kAlphaBetaSource +
                     ", busbw factor " + kNcclTestsSource + ".";
    else if (model)
        f.footnote = "Measured: " + m.file +
                     ". The lesson's model is for all-reduce; the curve is " + m.test +
                     "'s ring cost (" + kAlphaBetaSource + "), busbw factor " + kNcclTestsSource +
                     ".";
    else
        f.footnote = "Measured: " + m.file + ". No model line: " + noModelReason(m) + "; " +
                     m.test + " is plotted as measured.";

    FactsFrame facts;
    facts.title = "Your nccl-tests · " + m.file;
    facts.rows.push_back({"test", m.test, m.testSource, false});
    facts.rows.push_back(
        {"ranks N",
         m.ranks.ranks > 0 ? std::to_string(m.ranks.ranks) : std::string("not in the file"),
         m.ranks.source.empty() ? std::string("not in the file") : m.ranks.source, false});
    std::string sizes = std::to_string(m.rows.size()) + " sizes plotted";
    if (!m.rows.empty())
        sizes.append(", ").append(formatBytes(xMin)).append(" to ").append(formatBytes(xMax));
    if (m.emptyRows > 0)
        sizes.append(" (")
            .append(std::to_string(m.emptyRows))
            .append(m.emptyRows == 1 ? " row" : " rows")
            .append(" of 0 B left out)");
    facts.rows.push_back({"message sizes", sizes, m.file, false});
    if (model) {
        facts.rows.push_back({"model (scenario's α, B)",
                              modelName(s, m) + ": α = " + formatSi(s.ab.alphaS, "s") +
                                  ", B = " + formatSi(s.ab.bandwidthBytesPerS, "B/s"),
                              "parameters", false});
        if (!m.allReduce)
            facts.rows.push_back({"busbw factor, N = " + std::to_string(m.ranks.ranks),
                                  formatSignificant(busbwFactor(*m.collective, m.ranks.ranks), 4),
                                  kNcclTestsSource, false});
        if (m.fit.ok) {
            facts.rows.push_back(
                {"α-β fit: latency α", formatSi(m.fit.ab.alphaS, "s"),
                 "least squares on relative time error, " + std::to_string(m.fit.points) + " times",
                 true});
            facts.rows.push_back({"α-β fit: bandwidth B",
                                  formatSi(m.fit.ab.bandwidthBytesPerS, "B/s"),
                                  (m.allReduce ? algorithmTitle(s.algorithm) : "ring " + m.test) +
                                      " cost " + kAlphaBetaSource,
                                  true});
            facts.rows.push_back({"fit error (rms, relative)",
                                  formatSignificant(100.0 * m.fit.rmsRelative, 3) + " %",
                                  "model vs measured times", false});
        } else {
            facts.rows.push_back({"α-β fit", m.fit.problem, "least squares", false});
        }
    } else {
        facts.rows.push_back(
            {"model", "not compared: " + noModelReason(m), kAlphaBetaSource, false});
    }
    return Frames{{f, facts}};
}

// The step's narration for one file.
std::string measuredNarration(const MeasuredBusbw& m) {
    if (!m.modelled())
        return "Your " + m.test + " rows as measured; no model line: " + noModelReason(m) + ".";
    std::string text =
        m.allReduce ? "Your measured bus bandwidth against the model's for N = " +
                          std::to_string(m.ranks.ranks) + " with this scenario's α and B. "
                    : "Your " + m.test + " rows against that collective's ring cost for N = " +
                          std::to_string(m.ranks.ranks) +
                          " with this scenario's α and B (the lesson's model is for all-reduce). ";
    text += m.fit.ok ? "The α-β fit to your times says α = " + formatSi(m.fit.ab.alphaS, "s") +
                           " and B = " + formatSi(m.fit.ab.bandwidthBytesPerS, "B/s") + "."
                     : "No α-β fit: " + m.fit.problem + ".";
    return text;
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
    story.steps.push_back({"One buffer per GPU, cut into N chunks",
                           "Each of the " + std::to_string(n) + " GPUs holds its own " +
                               formatBytes(s.bytes) + " buffer, split into " + std::to_string(n) +
                               " chunks of " + formatBytes(s.bytes / n) +
                               ". Colours show whose data a chunk contains.",
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
         "Each GPU sent " + formatBytes(sim->bytesTarget()) +
             " and received as much: almost 2K, "
             "whatever N is. The simulation checked that every GPU ends with the exact sum.",
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
        std::string title = "Your nccl-tests vs the model";
        if (imported.ncclTests.size() > 1)
            title += " · " + m->file;
        const std::string narration = measuredNarration(*m);
        story.steps.push_back(
            {title, narration, 4.0, [s, m](double) { return measuredBusbwFrames(s, *m); }});
    }
    for (const auto& log : imported.ncclLogs) {
        if (!log.data)
            continue;
        auto comm = std::make_shared<const ImportedComm>(
            ImportedComm{commGraphFrame(*log.data, log.path), commGraphFacts(*log.data, log.path)});
        std::string title = "Your NCCL rings and trees";
        if (imported.ncclLogs.size() > 1)
            title += " · " + fileNameOf(log.path);
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
