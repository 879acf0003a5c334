#include "moe/moe_routing_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "moe/capacity_dispatcher.h"
#include "moe/expert_parallel_traffic.h"
#include "moe/moe_routing_sim.h"
#include "moe/skewed_routing.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

namespace wb {

namespace {

// Primary sources as the slides cite them.
const char* kSwitch = "Fedus et al., Switch Transformer, Eqs. 3–6";
const char* kSwitchEq3 = "Fedus et al. 2021 (Switch Transformer, arXiv:2101.03961) Eq. 3";
const char* kSwitchAux = "Fedus et al. 2021 (Switch Transformer, arXiv:2101.03961) Eqs. 4–6";
const char* kDeepSeek = "DeepSeek-V3 (arXiv:2412.19437) §2.1.2";
const char* kGShard = "Lepikhin et al., GShard: expert parallelism by all-to-all";
const char* kShazeer = "Shazeer et al. 2017 (arXiv:1701.06538) §4: imbalance is self-reinforcing";
const char* kToy = "toy router simulated here, this run";

// Router updates (tokens × experts × simulated steps) one build may cost: about a second on
// one core, so a slider stays interactive; the defaults use a fifth of it.
constexpr double kWorkBudget = 16.8e6;

// Chart colours (the theme's palette): one per router, grey for references.
constexpr int kNoneColour = 3, kAuxColour = 0, kBiasColour = 2, kRefColour = 7, kOneOfKColour = 4;

// Up to this many GPUs each gets its own colour and legend entry; beyond, the colours and the
// legend go by 8-GPU node (64 GPUs: 8 nodes), so the legend names every colour it draws.
constexpr int kMoeGpusColouredSingly = 8;
constexpr int kMoeGpusPerNode = 8;

// Everything the steps show, simulated once in build().
struct MoeRuns {
    MoeRoutingConfig config;
    int steps = 0;       // S, per router
    int switchAt = 0;    // balancing on from history index switchAt (training step switchAt + 1)
    int gpus = 1;        // EP degree N
    long long batch = 0; // B, tokens the all-to-all is costed for
    Balancing chosen = Balancing::AuxLoss;
    double capacityFactor = 1.0;
    long long capacity = 0;
    std::optional<MoeRoutingSim> none, aux, bias;
    double maxLoadAxis = 1.0; // y range of the max-load charts, fixed for the whole story
    ExpertDispatch capCollapsed, capBalanced;
    std::vector<ChartPoint> dropCollapsed, dropBalanced, dropUniform; // % dropped vs C
    ExpertParallelTraffic a2aCollapsed, a2aBalanced, a2aUniform;
    MoeServingBatch serveCollapsed, serveBalanced, serveUniform;
    int requests = 0;
    // The router trained without balancing, as the slides name it: "collapsed" only when its
    // hottest expert ended well above a fair share (k = E, say, leaves nothing to collapse).
    std::string unbalanced = "collapsed";
    std::string unbalancedTitle() const {
        return fill("%1 router", {unbalanced == "collapsed" ? "Collapsed" : "Unbalanced"});
    }

    const MoeRoutingSim& balanced() const { return chosen == Balancing::AuxLoss ? *aux : *bias; }
    const MoeRoutingSim& run(Balancing b) const {
        return b == Balancing::None ? *none : b == Balancing::AuxLoss ? *aux : *bias;
    }
    int experts() const { return config.experts; }
    int gpuOf(int expert) const { return expert / (config.experts / gpus); }
    bool byNode() const { return gpus > kMoeGpusColouredSingly; }
    int colourOfGpu(int g) const { return byNode() ? g / kMoeGpusPerNode : g; }
    double fairShare() const {
        return static_cast<double>(config.topK) * config.tokens / config.experts;
    }
};

std::string routerName(Balancing b) {
    switch (b) {
    case Balancing::None:
        return "no balancing";
    case Balancing::AuxLoss:
        return "Switch aux loss";
    case Balancing::Bias:
        return "DeepSeek bias";
    }
    return "";
}

int routerColour(Balancing b) {
    return b == Balancing::None ? kNoneColour : b == Balancing::AuxLoss ? kAuxColour : kBiasColour;
}

// History index for time t within [lo, hi].
int indexAt(double t, int lo, int hi) {
    const int span = hi - lo + 1;
    return lo + std::clamp(static_cast<int>(std::floor(t * span)), 0, span - 1);
}

// Tokens in order through a capacity: the last step's routing of a router trained dropless.
ExpertDispatch dispatchLastStep(const MoeRoutingSim& sim, long long capacity) {
    const auto k = toIndex(sim.config().topK);
    CapacityDispatcher d(sim.config().experts, capacity);
    const std::vector<int>& choices = sim.choices();
    for (std::size_t t = 0; t < choices.size() / k; ++t) {
        for (std::size_t j = 0; j < k; ++j)
            d.admit(choices[t * k + j]);
        d.finishToken();
    }
    return d.result();
}

double droppedFraction(const ExpertDispatch& d, const MoeRoutingConfig& c) {
    return static_cast<double>(d.droppedAssignments) / (static_cast<double>(c.tokens) * c.topK);
}

long long largestOf(const std::vector<long long>& v) {
    return *std::max_element(v.begin(), v.end());
}
long long smallestOf(const std::vector<long long>& v) {
    return *std::min_element(v.begin(), v.end());
}

std::string expertLabel(const MoeRuns& r, int e) {
    // Lanes narrow as experts grow: every expert named up to 16, every 4th up to 32, every
    // 8th beyond; the tips name every expert.
    const int n = r.experts();
    const int every = n <= 16 ? 1 : n <= 32 ? 4 : 8;
    return e % every == 0 ? fill("e%1", {std::to_string(e)}) : std::string();
}

// The legend: one entry per GPU, or per node of 8 GPUs when there are more than 8 GPUs.
void colourByGpu(const MoeRuns& r, BarChartFrame& f) {
    f.series.clear();
    if (!r.byNode()) {
        for (int g = 0; g < r.gpus; ++g)
            f.series.push_back(fill("GPU %1", {std::to_string(g)}));
        return;
    }
    for (int n = 0; n * kMoeGpusPerNode < r.gpus; ++n) {
        const int last = std::min(r.gpus, (n + 1) * kMoeGpusPerNode) - 1;
        f.series.push_back(
            fill("node %1: GPUs %2–%3",
                 {std::to_string(n), std::to_string(n * kMoeGpusPerNode), std::to_string(last)}));
    }
}

BarChartFrame expertBars(const MoeRuns& r, const std::vector<long long>& load, double axisMax) {
    BarChartFrame f;
    f.axisTitle = "token assignments per expert";
    colourByGpu(r, f);
    f.axisMax = axisMax;
    const double fair = r.fairShare();
    for (int e = 0; e < r.experts(); ++e) {
        const double v = static_cast<double>(load[toIndex(e)]);
        BarCategory c;
        c.label = expertLabel(r, e);
        c.tip = fill("expert %1 on GPU %2", {std::to_string(e), std::to_string(r.gpuOf(e))});
        c.segments.push_back(
            {.value = v,
             .series = r.colourOfGpu(r.gpuOf(e)),
             .tip = fill("%1: %2 assignments, %3× the fair share k·T/E",
                         {c.tip, formatSignificant(v), formatSignificant(v / fair)})});
        f.categories.push_back(c);
    }
    f.references.push_back(
        {.value = fair, .label = fill("fair share k·T/E = %1", {formatSignificant(fair)})});
    return f;
}

// The largest expert load over history indices [lo, hi]: the bars' scale while they play.
double maxLoadOf(const MoeRoutingSim& s, int lo, int hi) {
    long long m = 1;
    for (int i = lo; i <= hi; ++i)
        m = std::max(m, largestOf(s.history()[toIndex(i)].load));
    return static_cast<double>(m);
}

BarChartFrame loadBarsAt(const MoeRuns& r, const MoeRoutingSim& s, int i, const std::string& who,
                         double axisMax) {
    const MoeStepRecord& rec = s.history()[toIndex(i)];
    BarChartFrame f = expertBars(r, rec.load, axisMax);
    f.title = fill("%1: training step %2 of %3",
                   {who, std::to_string(rec.step), std::to_string(r.steps)});
    f.caption =
        fill("hottest expert %1 of k·T = %2 assignments (fair %3), %4 of %5 experts active",
             {formatShare(rec.maxLoadFraction), std::to_string(r.config.topK * r.config.tokens),
              formatShare(1.0 / r.experts()), std::to_string(rec.activeExperts),
              std::to_string(r.experts())});
    const auto hottest = std::max_element(rec.load.begin(), rec.load.end());
    f.emphasis = static_cast<int>(hottest - rec.load.begin());
    return f;
}

ChartSeries historySeries(const MoeRoutingSim& s, Balancing b, int from, int upto,
                          double MoeStepRecord::*field) {
    ChartSeries line;
    line.name = routerName(b);
    line.colorIndex = routerColour(b);
    for (int i = from; i <= upto; ++i) {
        const MoeStepRecord& rec = s.history()[toIndex(i)];
        line.points.push_back({static_cast<double>(rec.step), rec.*field});
    }
    return line;
}

ChartSeries flatLine(const std::string& name, double y, double x0, double x1,
                     int colour = kRefColour) {
    ChartSeries line;
    line.name = name;
    line.style = ChartSeries::Style::Dashed;
    line.colorIndex = colour;
    line.points = {{x0, y}, {x1, y}};
    return line;
}

// Max expert load fraction against training step; each run drawn up to history index upto.
ChartFrame maxLoadChart(const MoeRuns& r, const std::vector<Balancing>& runs, int upto) {
    ChartFrame c;
    c.title = "Hottest expert's share of the k·T assignments";
    c.x = {.title = "training step", .min = 1.0, .max = static_cast<double>(r.steps)};
    c.y = {.title = "max expert load fraction", .min = 0.0, .max = r.maxLoadAxis};
    c.series.push_back(flatLine("fair 1/E", 1.0 / r.experts(), 1, r.steps));
    const double oneOfK = 1.0 / r.config.topK;
    if (oneOfK < r.maxLoadAxis)
        c.series.push_back(flatLine("1/k", oneOfK, 1, r.steps, kOneOfKColour));
    for (Balancing b : runs) {
        const MoeRoutingSim& s = r.run(b);
        const int from = b == Balancing::None ? 0 : r.switchAt;
        if (upto < from)
            continue;
        c.series.push_back(historySeries(s, b, from, upto, &MoeStepRecord::maxLoadFraction));
        const MoeStepRecord& now = s.history()[toIndex(upto)];
        ChartMarker m;
        m.at = {static_cast<double>(now.step), now.maxLoadFraction};
        m.label = formatShare(now.maxLoadFraction);
        m.tooltip = fill("%1 at step %2: %3 (%4)", {routerName(b), std::to_string(now.step),
                                                    formatShare(now.maxLoadFraction), kToy});
        m.colorIndex = c.series.back().colorIndex;
        m.emphasis = b == runs.back();
        c.markers.push_back(m);
    }
    if (runs.size() > 1)
        c.footnote = fill("balancing switched on after step %1, same router, same seed",
                          {std::to_string(r.switchAt)});
    else
        c.footnote = fill("fair 1/E = %1; 1/k: one expert in every token's top-%2",
                          {formatSignificant(1.0 / r.experts()), std::to_string(r.config.topK)});
    return c;
}

// The first eighth of training: step 1's window.
int routingWindow(const MoeRuns& r) {
    return std::max(2, r.steps / 8);
}

Frames routingStep(const MoeRuns& r, double t) {
    const int window = routingWindow(r);
    const int i = indexAt(t, 0, window - 1);
    BarChartFrame bars =
        loadBarsAt(r, *r.none, i, "Top-k routing", maxLoadOf(*r.none, 0, window - 1));
    ChartFrame chart = maxLoadChart(r, {Balancing::None}, i);
    chart.x.max = window;
    chart.footnote = fill("the first %1 of %2 training steps, no balancing",
                          {std::to_string(window), std::to_string(r.steps)});
    const MoeRoutingConfig& c = r.config;
    FactsFrame facts;
    facts.title = "The layer";
    facts.rows = {
        {.label = "tokens T",
         .value = fill("%1 per batch, d = %2", {std::to_string(c.tokens), std::to_string(c.dim)}),
         .source = "seeded clusters (a toy, not a language model)"},
        {.label = "experts E, top-k",
         .value = fill("%1, k = %2", {std::to_string(c.experts), std::to_string(c.topK)}),
         .source = "linear gate, softmax, noisy top-k (Shazeer et al. 2017)"},
        {.label = "expert parallelism",
         .value = fill("%1 × %2", {formatCount(r.gpus, "GPU", "GPUs"),
                                   formatCount(c.experts / r.gpus, "expert", "experts")}),
         .source = kGShard},
        {.label = "fair share k·T/E",
         .value = fill("%1 assignments per expert", {formatSignificant(r.fairShare())}),
         .source = kSwitch,
         .emphasis = true},
    };
    return Frames{{bars, chart, facts}};
}

Frames collapseStep(const MoeRuns& r, double t) {
    const int i = indexAt(t, 0, r.steps - 1);
    BarChartFrame bars =
        loadBarsAt(r, *r.none, i, "No balancing", maxLoadOf(*r.none, 0, r.steps - 1));
    ChartFrame chart = maxLoadChart(r, {Balancing::None}, i);
    const MoeStepRecord& rec = r.none->history()[toIndex(i)];
    FactsFrame facts;
    facts.title = fill("Step %1 without balancing", {std::to_string(rec.step)});
    facts.rows = {
        {.label = "max expert load",
         .value = formatShare(rec.maxLoadFraction),
         .source = fill("fair %1; %2", {formatShare(1.0 / r.experts()), kToy}),
         .emphasis = true},
        {.label = "load entropy",
         .value = fill("%1 nats", {formatSignificant(rec.loadEntropy)}),
         .source = fill("ln E = %1 when uniform",
                        {formatSignificant(std::log(static_cast<double>(r.experts())))})},
        {.label = "active experts",
         .value =
             fill("%1 of %2", {std::to_string(rec.activeExperts), std::to_string(r.experts())}),
         .source = "experts that got any token this step"},
        {.label = "Switch aux loss",
         .value = formatSignificant(rec.auxLoss),
         .source = "α·E·Σf·P, α at uniform routing; not trained on"},
    };
    return Frames{{bars, chart, facts}};
}

// The balanced copies' bars share one scale: the largest load either reaches after the switch.
double balancedAxis(const MoeRuns& r) {
    return std::max(maxLoadOf(*r.aux, r.switchAt, r.steps - 1),
                    maxLoadOf(*r.bias, r.switchAt, r.steps - 1));
}

Frames auxLossStep(const MoeRuns& r, double t) {
    const int i = indexAt(t, r.switchAt, r.steps - 1);
    BarChartFrame bars = loadBarsAt(r, *r.aux, i, "Switch aux loss", balancedAxis(r));
    ChartFrame chart = maxLoadChart(r, {Balancing::None, Balancing::AuxLoss}, i);
    ChartFrame loss;
    loss.title = "Switch auxiliary loss α·E·Σ f_i·P_i";
    double top = r.config.auxAlpha;
    for (const MoeRoutingSim* s : {&*r.none, &*r.aux})
        for (const MoeStepRecord& rec : s->history())
            top = std::max(top, rec.auxLoss);
    loss.x = {.title = "training step", .min = 1.0, .max = static_cast<double>(r.steps)};
    loss.y = {.title = "aux loss", .min = 0.0, .max = top * 1.1};
    loss.series.push_back(
        flatLine(fill("α = %1: its minimum", {formatSignificant(r.config.auxAlpha)}),
                 r.config.auxAlpha, 1, r.steps));
    loss.series.push_back(historySeries(*r.none, Balancing::None, 0, i, &MoeStepRecord::auxLoss));
    loss.series.push_back(
        historySeries(*r.aux, Balancing::AuxLoss, r.switchAt, i, &MoeStepRecord::auxLoss));
    const MoeStepRecord& rec = r.aux->history()[toIndex(i)];
    ChartMarker m;
    m.at = {static_cast<double>(rec.step), rec.auxLoss};
    m.label = formatSignificant(rec.auxLoss);
    m.tooltip = fill("aux loss at step %1: %2 (%3)",
                     {std::to_string(rec.step), formatSignificant(rec.auxLoss), kSwitch});
    m.colorIndex = kAuxColour;
    m.emphasis = true;
    loss.markers.push_back(m);
    loss.footnote = fill("f_i: share of assignments, P_i: mean router probability; %1", {kSwitch});
    return Frames{{bars, chart, loss}};
}

Frames biasStep(const MoeRuns& r, double t) {
    const int i = indexAt(t, r.switchAt, r.steps - 1);
    BarChartFrame bars = loadBarsAt(r, *r.bias, i, "DeepSeek bias", balancedAxis(r));
    ChartFrame chart = maxLoadChart(r, {Balancing::None, Balancing::AuxLoss, Balancing::Bias}, i);
    FactsFrame facts;
    facts.title =
        fill("Step %1: three routers", {std::to_string(r.bias->history()[toIndex(i)].step)});
    for (Balancing b : {Balancing::None, Balancing::AuxLoss, Balancing::Bias}) {
        const MoeStepRecord& rec = r.run(b).history()[toIndex(i)];
        facts.rows.push_back(
            {.label = routerName(b),
             .value = fill("%1 max, %2 active",
                           {formatShare(rec.maxLoadFraction), std::to_string(rec.activeExperts)}),
             .source = b == Balancing::Bias      ? kDeepSeek
                       : b == Balancing::AuxLoss ? kSwitch
                                                 : kToy,
             .emphasis = b == r.chosen});
    }
    const std::vector<double>& bias = r.bias->bias();
    facts.rows.push_back(
        {.label = "bias range (final)",
         .value =
             fill("%1 to %2", {formatSignificant(*std::min_element(bias.begin(), bias.end())),
                               formatSignificant(*std::max_element(bias.begin(), bias.end()))}),
         .source = fill("±γ = %1 per step (assumed), selection only; DeepSeek-V3 §2.1.2 used "
                        "0.001",
                        {formatSignificant(r.config.biasGamma)})});
    return Frames{{bars, chart, facts}};
}

BarChartFrame capacityBars(const MoeRuns& r, const ExpertDispatch& d, const std::string& who,
                           double axisMax) {
    BarChartFrame f;
    f.title = fill("%1: capacity factor %2", {who, formatSignificant(r.capacityFactor)});
    f.caption =
        fill("%1 of %2 assignments dropped (%3), %4 lost every expert",
             {std::to_string(d.droppedAssignments), std::to_string(r.config.topK * r.config.tokens),
              formatShare(droppedFraction(d, r.config)),
              formatCount(d.tokensFullyDropped, "token", "tokens")});
    f.series = {"kept", "dropped"};
    f.axisTitle = "token assignments per expert";
    f.axisMax = axisMax;
    for (int e = 0; e < r.experts(); ++e) {
        BarCategory c;
        c.label = expertLabel(r, e);
        c.tip = fill("expert %1 on GPU %2", {std::to_string(e), std::to_string(r.gpuOf(e))});
        const double kept = static_cast<double>(d.kept[toIndex(e)]);
        const double dropped = static_cast<double>(d.dropped[toIndex(e)]);
        c.segments.push_back({.value = kept,
                              .series = 0,
                              .tip = fill("%1: %2 kept", {c.tip, formatSignificant(kept)})});
        c.segments.push_back(
            {.value = dropped,
             .series = 1,
             .tip = fill("%1: %2 dropped (skip the expert)", {c.tip, formatSignificant(dropped)})});
        f.categories.push_back(c);
    }
    f.references.push_back(
        {.value = static_cast<double>(r.capacity),
         .label = fill("capacity ⌈k·T/E·C⌉ = %1", {std::to_string(r.capacity)})});
    return f;
}

Frames capacityStep(const MoeRuns& r, double) {
    const double axisMax = static_cast<double>(
        std::max(largestOf(r.capCollapsed.routed), largestOf(r.capBalanced.routed)));
    BarChartFrame collapsed = capacityBars(r, r.capCollapsed, r.unbalancedTitle(), axisMax);
    BarChartFrame balanced = capacityBars(r, r.capBalanced, routerName(r.chosen), axisMax);
    ChartFrame c;
    c.title = "Dropped assignments vs capacity factor";
    c.x = {.title = "capacity factor C",
           .min = r.dropUniform.front().x,
           .max = r.dropUniform.back().x};
    c.y = {.title = "dropped (% of k·T)", .min = 0.0, .max = 100.0};
    ChartSeries a{.name = fill("%1 router", {r.unbalanced}),
                  .points = r.dropCollapsed,
                  .style = ChartSeries::Style::Line,
                  .colorIndex = kNoneColour};
    ChartSeries b{.name = routerName(r.chosen),
                  .points = r.dropBalanced,
                  .style = ChartSeries::Style::Line,
                  .colorIndex = routerColour(r.chosen)};
    ChartSeries u{.name = "uniform routing",
                  .points = r.dropUniform,
                  .style = ChartSeries::Style::Dashed,
                  .colorIndex = kRefColour};
    c.series = {u, a, b};
    for (const auto* d : {&r.capCollapsed, &r.capBalanced}) {
        ChartMarker m;
        m.at = {r.capacityFactor, droppedFraction(*d, r.config) * 100.0};
        m.label = formatShare(droppedFraction(*d, r.config));
        m.tooltip = fill("%1 dropped at C = %2; capacity %3",
                         {formatShare(droppedFraction(*d, r.config)),
                          formatSignificant(r.capacityFactor), kSwitch});
        m.colorIndex = d == &r.capCollapsed ? a.colorIndex : b.colorIndex;
        m.emphasis = true;
        c.markers.push_back(m);
    }
    c.footnote = "Switch: C = 1.0–1.25 keeps drops under 1 % when the router is balanced";
    return Frames{{collapsed, balanced, c}, Arrangement::Grid};
}

BarChartFrame trafficBars(const MoeRuns& r, const ExpertParallelTraffic& a, const std::string& who,
                          double axisMax) {
    BarChartFrame f;
    f.title = fill("%1: all-to-all dispatch into each GPU", {who});
    f.caption =
        r.gpus == 1
            ? std::string("one GPU holds every expert: nothing crosses a GPU")
            : fill("%1 dispatch + combine, %2 on %3 per layer",
                   {formatBytes(a.totalBytes), formatSi(a.timeS, "s"), linkWords(a.bottleneck)});
    colourByGpu(r, f);
    f.axisTitle = "bytes received per GPU";
    f.unit = BarValueUnit::Bytes;
    f.axisMax = axisMax;
    for (int g = 0; g < r.gpus; ++g) {
        BarCategory c;
        c.label = r.gpus <= 16 || g % (r.gpus / 4) == 0 ? fill("G%1", {std::to_string(g)})
                                                        : std::string();
        c.tip = fill("GPU %1: sends %2, receives %3",
                     {std::to_string(g), formatBytes(a.sentPerGpu[toIndex(g)]),
                      formatBytes(a.receivedPerGpu[toIndex(g)])});
        c.segments.push_back(
            {.value = a.receivedPerGpu[toIndex(g)], .series = r.colourOfGpu(g), .tip = c.tip});
        f.categories.push_back(c);
    }
    if (r.gpus > 1)
        f.references.push_back({.value = r.a2aUniform.receivedPerGpu.front(),
                                .label = fill("uniform routing %1",
                                              {formatBytes(r.a2aUniform.receivedPerGpu.front())})});
    const auto hottest = std::max_element(a.receivedPerGpu.begin(), a.receivedPerGpu.end());
    f.emphasis = r.gpus > 1 ? static_cast<int>(hottest - a.receivedPerGpu.begin()) : -1;
    return f;
}

double busiest(const ExpertParallelTraffic& a) {
    return std::max(*std::max_element(a.sentPerGpu.begin(), a.sentPerGpu.end()),
                    *std::max_element(a.receivedPerGpu.begin(), a.receivedPerGpu.end()));
}

// Which term of the α-β cost dominates, by more than half again; between, the crossover.
constexpr double kMoeRegimeMargin = 1.5;
std::string regimeWords(const ExpertParallelTraffic& a) {
    return a.bandwidthS >= kMoeRegimeMargin * a.latencyS   ? "bandwidth-bound"
           : a.latencyS >= kMoeRegimeMargin * a.bandwidthS ? "latency-bound"
                                                           : "near the latency–bandwidth crossover";
}

Frames allToAllStep(const MoeRuns& r, double) {
    const double axisMax = std::max(busiest(r.a2aCollapsed), busiest(r.a2aBalanced));
    BarChartFrame collapsed = trafficBars(r, r.a2aCollapsed, r.unbalancedTitle(), axisMax);
    BarChartFrame balanced = trafficBars(r, r.a2aBalanced, routerName(r.chosen), axisMax);
    FactsFrame facts;
    facts.title = fill("All-to-all per MoE layer, %1-way EP", {std::to_string(r.gpus)});
    const ExpertParallelTraffic& b = r.a2aBalanced;
    facts.rows = {
        {.label = "batch B",
         .value = fill("%1 tokens, h = %2",
                       {std::to_string(r.batch), std::to_string(kMoeScenarioHidden)}),
         .source = "assumed: routed with the trained routers' shares, BF16 activations"},
        {.label = "bytes crossing GPUs",
         .value = formatBytes(b.totalBytes),
         .source = "2·B·k·h·b·(N−1)/N, the same for any routing",
         .emphasis = true},
        {.label = "busiest GPU, collapsed vs balanced",
         .value = fill("%1 vs %2", {formatBytes(busiest(r.a2aCollapsed)), formatBytes(busiest(b))}),
         .source = "the GPU holding the hot experts receives their tokens"},
    };
    if (r.gpus > 1) {
        facts.rows.push_back(
            {.label = "balanced: bytes vs latency",
             .value = fill("%1 vs %2: %3", {formatSi(b.bandwidthS, "s"), formatSi(b.latencyS, "s"),
                                            regimeWords(b)}),
             .source = "α-β cost, (N−1) messages per all-to-all (nccl-tests doc/PERFORMANCE.md)"});
        facts.rows.push_back(
            {.label = "time, collapsed vs balanced",
             .value =
                 fill("%1 vs %2", {formatSi(r.a2aCollapsed.timeS, "s"), formatSi(b.timeS, "s")}),
             .source = fill("dispatch + combine on %1; the busiest GPU sets the pace (GShard)",
                            {linkWords(b.bottleneck)}),
             .emphasis = true});
    }
    return Frames{{collapsed, balanced, facts}, Arrangement::Grid};
}

BarChartFrame servingBars(const MoeRuns& r, const MoeServingBatch& b, const std::string& who,
                          double axisMax) {
    BarChartFrame f = expertBars(r, b.perExpert, axisMax);
    f.title = fill("%1: serving %2 requests", {who, std::to_string(r.requests)});
    f.caption =
        fill("largest expert batch %1 vs mean %2: straggler ×%3, %4 idle",
             {std::to_string(b.largest), formatSignificant(b.mean), formatSignificant(b.straggler),
              formatCount(b.idleExperts, "expert", "experts")});
    f.axisTitle = "tokens per expert batch";
    f.references = {
        {.value = b.mean, .label = fill("mean k·B/E = %1", {formatSignificant(b.mean)})}};
    const auto hottest = std::max_element(b.perExpert.begin(), b.perExpert.end());
    f.emphasis = static_cast<int>(hottest - b.perExpert.begin());
    return f;
}

Frames servingStep(const MoeRuns& r, double) {
    // One value axis for both routers, so the bars compare by height.
    const double axisMax =
        static_cast<double>(std::max(r.serveCollapsed.largest, r.serveBalanced.largest));
    BarChartFrame collapsed = servingBars(r, r.serveCollapsed, r.unbalancedTitle(), axisMax);
    BarChartFrame balanced = servingBars(r, r.serveBalanced, routerName(r.chosen), axisMax);
    FactsFrame facts;
    facts.title = "The layer waits for its largest expert batch";
    const auto row = [&](const std::string& label, const MoeServingBatch& b,
                         const std::string& source, bool emphasis) {
        facts.rows.push_back({.label = label,
                              .value = fill("×%1 (%2 vs %3)",
                                            {formatSignificant(b.straggler),
                                             std::to_string(b.largest), formatSignificant(b.mean)}),
                              .source = source,
                              .emphasis = emphasis});
    };
    row(fill("%1 router", {r.unbalanced}), r.serveCollapsed,
        fill("%1 idle; %2", {formatCount(r.serveCollapsed.idleExperts, "expert", "experts"), kToy}),
        true);
    row(routerName(r.chosen), r.serveBalanced, "routed as in training (noisy top-k)", false);
    row("uniform random routing", r.serveUniform,
        "k distinct experts at random per request: one batch's randomness alone", false);
    return Frames{{collapsed, balanced, facts}, Arrangement::Grid};
}

} // namespace

std::string MoeRoutingScenario::question() const {
    return "Your MoE model's experts are unevenly loaded. Why does a learned router collapse, how "
           "do you balance it, and what does imbalance cost in dropped tokens, all-to-all "
           "traffic and serving latency?";
}

std::string MoeRoutingScenario::answer() const {
    return R"(**A top-k router trained on its own choices is a rich-get-richer loop; balancing is a systems requirement, not a nicety.**
- Collapse: experts that get tokens early get better on them, so the gate sends them more. Without a counter-force a few experts take most tokens; the imbalance is self-reinforcing (Shazeer et al. 2017 §4).
- Switch Transformer's auxiliary loss **α·N·Σ f_i·P_i**, **α = 10⁻²**: f_i is the share of tokens sent to expert i, P_i its mean router probability; it equals α at uniform routing (Fedus et al., Switch Transformer, Eqs. 4–6).
- DeepSeek-V3 drops the loss because its gradient competes with the language-model loss: a coefficient big enough to balance hurts quality. Instead a per-expert bias is added to the scores **for top-k selection only** and moved by **γ** after each step (down when overloaded, up when under); γ = 0.001 for the first 14.3T tokens. 256 routed experts + 1 shared, 8 active per token, at most 4 nodes per token (DeepSeek-V3 §2.1.2).
- Capacity = ⌈k·T/E · C⌉ per expert (Switch Eq. 3); overflow tokens skip the expert through the residual. C = 1.0–1.25 with a balanced router drops under 1 %; GShard used 2. A collapsed router drops most of its tokens at any sane C.
- Expert parallelism moves every token twice (dispatch and combine all-to-all): **2·B·k·h·b·(N−1)/N** bytes per layer whatever the routing, but imbalance piles it onto the GPUs of the hot experts, and the busiest GPU sets the time. At realistic batches the exchange is bandwidth-bound, so the hot GPU's extra bytes are extra time (Lepikhin et al., GShard; all-to-all volume as in nccl-tests doc/PERFORMANCE.md).
- Serving: each expert runs one batched matmul, so a layer waits for its largest expert batch; the straggler factor largest/mean is the slowdown imbalance costs at inference. Even a perfectly uniform router shows some straggler on a small batch, from randomness alone.)";
}

std::vector<SourceRef> MoeRoutingScenario::sources() const {
    return {
        {"Fedus, Zoph & Shazeer, Switch Transformers, Eqs. 3–6",
         "https://arxiv.org/abs/2101.03961"},
        {"DeepSeek-AI, DeepSeek-V3 Technical Report, §2.1.2", "https://arxiv.org/abs/2412.19437"},
        {"Lepikhin et al., GShard", "https://arxiv.org/abs/2006.16668"},
        {"Shazeer et al., Outrageously Large Neural Networks (noisy top-k gating, §4 balancing)",
         "https://arxiv.org/abs/1701.06538"},
        {"nccl-tests, doc/PERFORMANCE.md (all-to-all bytes per rank)",
         "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"},
    };
}

std::vector<ParamSpec> MoeRoutingScenario::parameters() const {
    return {
        ParamSpec::integer("tokens", "Tokens per training batch T (toy router)", "", 64, 1024, 512,
                           true),
        ParamSpec::integer("experts", "Experts E", "", 8, 64, 16, true),
        ParamSpec::integer("top-k", "Experts per token k", "", 1, 8, 2),
        ParamSpec::real("capacity-factor", "Capacity factor C", "", 0.5, 4, 1.25, false,
                        "capacity ⌈k·T/E·C⌉ per expert (Switch Eq. 3)"),
        ParamSpec::choice("balancing", "Balancing for the recovered router", {"aux-loss", "bias"},
                          "aux-loss",
                          "which balanced router the capacity, all-to-all and serving steps use"),
        ParamSpec::integer("steps", "Training steps", "", 80, 400, 200, false,
                           "balancing switches on halfway"),
        ParamSpec::integer("gpus", "Expert-parallel GPUs N", "", 1, 64, 8, true,
                           "must divide the experts; 8 per node"),
        ParamSpec::integer("batch", "Tokens per batch for the all-to-all B", "", 512, 1048576,
                           65536, true,
                           "the routers' shares applied to a batch of this size (assumed)"),
        ParamSpec::integer("seed", "Seed", "", 1, 1000000, 1, false,
                           "tokens, initial gate and router noise"),
    };
}

Story MoeRoutingScenario::build(const Params& p, const ScenarioInputs&) const {
    auto r = std::make_shared<MoeRuns>();
    MoeRoutingConfig& c = r->config;
    c.tokens = static_cast<int>(p.integer("tokens"));
    c.experts = static_cast<int>(p.integer("experts"));
    c.topK = static_cast<int>(p.integer("top-k"));
    c.seed = static_cast<std::uint64_t>(p.integer("seed"));
    c.balancing = Balancing::None;
    c.validate();
    r->steps = static_cast<int>(p.integer("steps"));
    r->switchAt = r->steps / 2;
    r->gpus = static_cast<int>(p.integer("gpus"));
    r->batch = p.integer("batch");
    r->chosen = *parseBalancing(p.text("balancing"));
    r->capacityFactor = p.number("capacity-factor");
    if (c.experts % r->gpus != 0)
        throw std::invalid_argument(fill("expert-parallel GPUs (%1) must divide the experts (%2)",
                                         {std::to_string(r->gpus), std::to_string(c.experts)}));
    // One run of S steps and two of S/2 after the shared first half.
    const double work =
        static_cast<double>(c.tokens) * c.experts * (r->steps + 2.0 * (r->steps - r->switchAt));
    if (work > kWorkBudget)
        throw std::invalid_argument(
            fill("tokens × experts × steps is too much to simulate interactively (%1 router "
                 "updates, at most %2): lower the tokens, experts or steps",
                 {formatSi(work, ""), formatSi(kWorkBudget, "")}));
    r->capacity = expertCapacity(c.tokens, c.experts, c.topK, r->capacityFactor);

    // The router trains without balancing; halfway, copies of it switch balancing on.
    r->none.emplace(c);
    r->none->run(r->switchAt);
    r->aux.emplace(*r->none);
    r->aux->setBalancing(Balancing::AuxLoss);
    r->bias.emplace(*r->none);
    r->bias->setBalancing(Balancing::Bias);
    for (auto* s : {&r->none, &r->aux, &r->bias})
        (*s)->run(r->steps - r->switchAt);
    double top = 0.0;
    for (const auto* s : {&r->none, &r->aux, &r->bias})
        for (const MoeStepRecord& rec : (*s)->history())
            top = std::max(top, rec.maxLoadFraction);
    r->maxLoadAxis = std::min(1.0, top * 1.1);

    // Capacity: the final routing of both routers through ⌈k·T/E·C⌉, and a sweep over C.
    r->capCollapsed = dispatchLastStep(*r->none, r->capacity);
    r->capBalanced = dispatchLastStep(r->balanced(), r->capacity);
    const double cMax = std::max(3.0, r->capacityFactor);
    for (double cf = 0.25; cf <= cMax + 1e-9; cf += 0.0625) {
        const long long cap = expertCapacity(c.tokens, c.experts, c.topK, cf);
        r->dropCollapsed.push_back(
            {cf, droppedFraction(dispatchLastStep(*r->none, cap), c) * 100.0});
        r->dropBalanced.push_back(
            {cf, droppedFraction(dispatchLastStep(r->balanced(), cap), c) * 100.0});
        r->dropUniform.push_back(
            {cf, droppedFraction(dispatchCounts(c.tokens, c.experts, c.topK, cf, 0.0), c) * 100.0});
    }

    // Expert parallelism: N GPUs in 8-GPU nodes, a batch of B tokens routed with each router's
    // final shares (costed in aggregate: only each GPU's share enters the formulas).
    ExpertParallelSetup ep;
    ep.gpus = r->gpus;
    ep.hidden = kMoeScenarioHidden;
    ep.bytesPerValue = kMoeScenarioBytesPerValue;
    ep.topology.nodes = std::max(1, (r->gpus + kMoeGpusPerNode - 1) / kMoeGpusPerNode);
    const auto batch = static_cast<double>(r->batch);
    r->a2aCollapsed = expertParallelAllToAll(r->none->history().back().load, c.topK, ep, batch);
    r->a2aBalanced = expertParallelAllToAll(r->balanced().history().back().load, c.topK, ep, batch);
    r->a2aUniform = expertParallelAllToAll(skewedExpertLoads(c.tokens, c.experts, c.topK, 0.0),
                                           c.topK, ep, batch);

    // Serving: a fresh batch of T one-token requests through each trained router, and through
    // a uniformly random router: the straggler one batch's randomness gives on its own.
    r->requests = c.tokens;
    r->serveCollapsed = r->none->servingBatch(r->requests, c.seed + 1);
    r->serveBalanced = r->balanced().servingBatch(r->requests, c.seed + 1);
    r->serveUniform = uniformServingBatch(r->requests, c.experts, c.topK, c.seed + 2);

    Story story;
    std::vector<ResultValue>& res = story.results;
    story.provenance =
        fill("modeled on CPU: toy router, %1 tokens × d %2, %3 experts, top-%4, %5 "
             "training steps (balancing from step %6), seed %7",
             {std::to_string(c.tokens), std::to_string(c.dim), std::to_string(c.experts),
              std::to_string(c.topK), std::to_string(r->steps), std::to_string(r->switchAt + 1),
              std::to_string(c.seed)});
    const double fair = r->fairShare();
    const auto E = static_cast<double>(c.experts);
    res = {{"fair share k·T/E", fair},
           {"fair fraction 1/E", 1.0 / E},
           {"k·T", c.topK * c.tokens},
           {"dim d", c.dim},
           {"experts per GPU", c.experts / r->gpus},
           {"switch step", r->switchAt},
           {"steps", r->steps},
           {"hidden h", kMoeScenarioHidden},
           {"ln E", std::log(E)},
           {"alpha", c.auxAlpha},
           {"gamma", c.biasGamma},
           {"requests", r->requests},
           {"bytes per value", kMoeScenarioBytesPerValue}};
    // Every record a resting frame shows: the routers' histories, by step.
    const auto addRecord = [&res](const MoeStepRecord& rec) {
        res.insert(res.end(), {{"step", rec.step},
                               {"max load fraction", rec.maxLoadFraction},
                               {"max load", largestOf(rec.load)},
                               {"min load", smallestOf(rec.load)},
                               {"active experts", rec.activeExperts},
                               {"load entropy", rec.loadEntropy},
                               {"aux loss", rec.auxLoss}});
    };

    // Step 1: the first eighth of training, words from the load at rest.
    const MoeStepRecord& early = r->none->history()[toIndex(routingWindow(*r) - 1)];
    addRecord(early);
    const double earlyMax = static_cast<double>(largestOf(early.load));
    const double earlyRatio = earlyMax / fair;
    res.push_back({"early max ÷ fair", earlyRatio});
    const std::string earlyWords =
        earlyRatio <= 1.25
            ? fill("At training step %1 every expert is near its fair share k·T/E = %2: the "
                   "busiest has %3 assignments, the idlest %4.",
                   {std::to_string(early.step), formatSignificant(fair),
                    std::to_string(largestOf(early.load)), std::to_string(smallestOf(early.load))})
            : fill("Already at training step %1 the load is uneven: the busiest expert has %2 "
                   "assignments, %3× the fair share k·T/E = %4, the idlest %5. The gate starts "
                   "near uniform; its noise and first updates tilt it.",
                   {std::to_string(early.step), std::to_string(largestOf(early.load)),
                    formatSignificant(earlyRatio), formatSignificant(fair),
                    std::to_string(smallestOf(early.load))});
    story.steps.push_back(
        {"A learned top-k gate routes tokens to experts on GPUs",
         fill("Each token's gate scores every expert; the k best get the token. Experts are "
              "split over the expert-parallel GPUs (one colour per %1). %2",
              {r->byNode() ? "node of GPUs" : "GPU", earlyWords}),
         5.0, [r](double t) { return routingStep(*r, t); }});

    // Step 2: the collapse, or its absence, as the run ended.
    const MoeStepRecord& collapsed = r->none->history().back();
    const MoeStepRecord& atSwitch = r->none->history()[toIndex(r->switchAt - 1)];
    addRecord(collapsed);
    addRecord(atSwitch);
    const double collapsedRatio = collapsed.maxLoadFraction * E;
    const double inEveryTopK = static_cast<double>(largestOf(collapsed.load)) / c.tokens;
    res.insert(res.end(), {{"collapsed max ÷ fair", collapsedRatio},
                           {"hottest expert's share of tokens", inEveryTopK}});
    const bool didCollapse = collapsedRatio >= 1.5;
    r->unbalanced = didCollapse ? "collapsed" : "unbalanced";
    story.steps.push_back(
        {didCollapse ? fill("Without balancing the hottest expert takes %1 of assignments",
                            {formatShare(collapsed.maxLoadFraction)})
                     : std::string("Without balancing the load stays near fair here"),
         didCollapse
             ? fill("An expert that gets tokens improves on them, so the gate sends it more: by "
                    "step %1 the hottest expert has %2 of the k·T assignments, %3× its fair "
                    "share, and %4 of %5 experts get any token. It sits in the top-%6 of %7 of "
                    "the tokens.",
                    {std::to_string(collapsed.step), formatShare(collapsed.maxLoadFraction),
                     formatSignificant(collapsedRatio), std::to_string(collapsed.activeExperts),
                     std::to_string(c.experts), std::to_string(c.topK), formatShare(inEveryTopK)})
             : fill("By step %1 the hottest expert has %2 of the assignments, %3× its fair "
                    "share: with k = %4 of %5 experts every token already spreads widely, so "
                    "the rich-get-richer loop has little to take.",
                    {std::to_string(collapsed.step), formatShare(collapsed.maxLoadFraction),
                     formatSignificant(collapsedRatio), std::to_string(c.topK),
                     std::to_string(c.experts)}),
         8.0, [r](double t) { return collapseStep(*r, t); }});

    // Step 3: the aux loss from the switch on.
    const MoeStepRecord& auxEnd = r->aux->history().back();
    addRecord(auxEnd);
    const auto changeWords = [](double from, double to) {
        return to < from * 0.97 ? "falls" : to > from * 1.03 ? "rises" : "stays";
    };
    story.steps.push_back(
        {"The Switch auxiliary loss pulls it back",
         fill("From the router as it stood at step %1, the loss α·E·Σ f_i·P_i is added to "
              "training. It is smallest, α = %2, when routing is uniform, so its gradient pushes "
              "probability away from overloaded experts. By step %3 the hottest expert's share "
              "%4 from %5 to %6 (fair %7) and the loss from %8 to %9.",
              {std::to_string(atSwitch.step), formatSignificant(c.auxAlpha),
               std::to_string(auxEnd.step),
               changeWords(atSwitch.maxLoadFraction, auxEnd.maxLoadFraction),
               formatShare(atSwitch.maxLoadFraction), formatShare(auxEnd.maxLoadFraction),
               formatShare(1.0 / E), formatSignificant(atSwitch.auxLoss),
               formatSignificant(auxEnd.auxLoss)}),
         7.0, [r](double t) { return auxLossStep(*r, t); }});

    // Step 4: DeepSeek's bias, and why it has no loss.
    const MoeStepRecord& biasEnd = r->bias->history().back();
    addRecord(biasEnd);
    const std::vector<double>& biasValues = r->bias->bias();
    res.insert(res.end(), {{"bias min", *std::min_element(biasValues.begin(), biasValues.end())},
                           {"bias max", *std::max_element(biasValues.begin(), biasValues.end())}});
    const double biasRatio = biasEnd.maxLoadFraction * E, auxRatio = auxEnd.maxLoadFraction * E;
    res.insert(res.end(), {{"bias max ÷ fair", biasRatio}, {"aux max ÷ fair", auxRatio}});
    const std::string compare = biasRatio < auxRatio * 0.95   ? "tighter than"
                                : biasRatio > auxRatio * 1.05 ? "looser than"
                                                              : "about as tight as";
    const std::string biasResult =
        biasRatio <= 2.0
            ? fill("By step %1 its hottest expert has %2× the fair share, %3 the aux loss's "
                   "%4×.",
                   {std::to_string(biasEnd.step), formatSignificant(biasRatio), compare,
                    formatSignificant(auxRatio)})
            : fill("By step %1 its hottest expert still has %2× the fair share (the aux loss: "
                   "%3×): a step of γ = %4 per training step has not yet undone a collapse over "
                   "%5 experts.",
                   {std::to_string(biasEnd.step), formatSignificant(biasRatio),
                    formatSignificant(auxRatio), formatSignificant(c.biasGamma),
                    std::to_string(c.experts)});
    story.steps.push_back(
        {"DeepSeek's bias balancing, without a loss",
         fill("DeepSeek-V3 drops the auxiliary loss: its gradient competes with the language-"
              "model loss, and a weight large enough to balance the load hurts the model. "
              "Instead a per-expert bias, used only to pick the top k (the gate values stay "
              "the raw scores), is lowered by γ after a step in which an expert was overloaded "
              "and raised when it was underloaded. %1",
              {biasResult}),
         7.0, [r](double t) { return biasStep(*r, t); }});

    // Step 5: capacity.
    const double dropC = droppedFraction(r->capCollapsed, c);
    const double dropB = droppedFraction(r->capBalanced, c);
    for (const ExpertDispatch* d : {&r->capCollapsed, &r->capBalanced})
        res.insert(res.end(), {{"dropped assignments", d->droppedAssignments},
                               {"dropped fraction", droppedFraction(*d, c)},
                               {"tokens fully dropped", d->tokensFullyDropped}});
    res.push_back({"capacity", r->capacity});
    story.steps.push_back(
        {"Capacity factor and dropped tokens",
         fill("Each expert processes at most ⌈k·T/E·C⌉ = %1 assignments at C = %2; those that "
              "arrive after it is full skip it through the residual. The %3 router drops %4 of "
              "the k·T assignments, the %7 one %5, and %6 lose every expert.",
              {std::to_string(r->capacity), formatSignificant(r->capacityFactor),
               routerName(r->chosen), formatShare(dropB), formatShare(dropC),
               formatCount(r->capCollapsed.tokensFullyDropped, "token", "tokens"), r->unbalanced}),
         6.0, [r](double t) { return capacityStep(*r, t); }});

    // Step 6: the all-to-all for a batch of B tokens.
    const ExpertParallelTraffic& a2aB = r->a2aBalanced;
    const ExpertParallelTraffic& a2aC = r->a2aCollapsed;
    for (const ExpertParallelTraffic* a :
         std::initializer_list<const ExpertParallelTraffic*>{&a2aB, &a2aC, &r->a2aUniform})
        res.insert(res.end(), {{"all-to-all bytes", a->totalBytes},
                               {"busiest GPU bytes", busiest(*a)},
                               {"all-to-all time", a->timeS},
                               {"latency term", a->latencyS},
                               {"bandwidth term", a->bandwidthS},
                               {"uniform received", a->receivedPerGpu.front()}});
    const double hotRatio = busiest(a2aB) > 0 ? busiest(a2aC) / busiest(a2aB) : 1.0;
    const double timeRatio = a2aB.timeS > 0 ? a2aC.timeS / a2aB.timeS : 1.0;
    res.insert(res.end(), {{"hot GPU ÷ balanced busiest", hotRatio},
                           {"collapsed ÷ balanced time", timeRatio}});
    std::string a2aTitle, a2aNarration;
    if (r->gpus == 1) {
        a2aTitle = "One GPU holds every expert: no all-to-all";
        a2aNarration = fill("With one expert-parallel GPU every expert sits beside its tokens, "
                            "so none of the batch's %1 tokens crosses a GPU. Raise the GPUs to "
                            "see the all-to-all.",
                            {std::to_string(r->batch)});
    } else {
        a2aTitle =
            fill("All-to-all: %1 per layer, %2", {formatBytes(a2aB.totalBytes), regimeWords(a2aB)});
        const std::string terms =
            fill("moving the bytes takes %1 against %2 of message latency",
                 {formatSi(a2aB.bandwidthS, "s"), formatSi(a2aB.latencyS, "s")});
        const std::string regimeName = regimeWords(a2aB);
        const std::string regime =
            regimeName == "bandwidth-bound"
                ? fill("%1, so the exchange is bandwidth-bound and extra bytes on one GPU are "
                       "extra time",
                       {terms})
            : regimeName == "latency-bound"
                ? fill("%1, so the exchange is latency-bound and hides much of the imbalance; a "
                       "larger batch makes it bandwidth-bound",
                       {terms})
                : fill("%1: near the crossover, bytes and latency cost about the same", {terms});
        const std::string hot =
            timeRatio >= 1.05
                ? fill("Collapsed, the GPU holding the hot experts moves %1, %2× the balanced "
                       "busiest GPU, and the exchange takes %3 instead of %4.",
                       {formatBytes(busiest(a2aC)), formatSignificant(hotRatio),
                        formatSi(a2aC.timeS, "s"), formatSi(a2aB.timeS, "s")})
                : fill("Unbalanced, the busiest GPU moves %1 (%2× the balanced one), and the "
                       "exchange takes %3 against %4: its load lands as evenly on the GPUs.",
                       {formatBytes(busiest(a2aC)), formatSignificant(hotRatio),
                        formatSi(a2aC.timeS, "s"), formatSi(a2aB.timeS, "s")});
        a2aNarration = fill("A batch of %1 tokens (assumed) travels to its experts' GPUs and "
                            "back: %2 cross GPUs per MoE layer, whatever the routing. Balanced, "
                            "%3. %4",
                            {std::to_string(r->batch), formatBytes(a2aB.totalBytes), regime, hot});
    }
    story.steps.push_back(
        {a2aTitle, a2aNarration, 6.0, [r](double t) { return allToAllStep(*r, t); }});

    // Step 7: serving, the balanced straggler explained by one batch's randomness.
    for (const MoeServingBatch* b : {&r->serveCollapsed, &r->serveBalanced, &r->serveUniform})
        res.insert(res.end(), {{"largest expert batch", b->largest},
                               {"mean expert batch", b->mean},
                               {"straggler", b->straggler},
                               {"idle experts", b->idleExperts}});
    const MoeServingBatch& sb = r->serveBalanced;
    const MoeServingBatch& su = r->serveUniform;
    const double spread = std::sqrt(sb.mean * (1.0 - c.topK / E));
    res.push_back({"binomial spread", spread});
    const std::string why =
        su.straggler <= 1.0 && sb.straggler <= 1.0
            ? fill("With k = %1 of %2 experts every request goes to every expert: all expert "
                   "batches are equal and nothing straggles.",
                   {std::to_string(c.topK), std::to_string(c.experts)})
        : sb.straggler <= su.straggler * 1.1
            ? fill("A router picking experts uniformly at random gets ×%1 on this batch too: "
                   "each expert's count varies by about ±%2 around the mean, so the balanced "
                   "router's straggler is one small batch's randomness, not imbalance.",
                   {formatSignificant(su.straggler), formatSignificant(spread)})
            : fill("A router picking experts uniformly at random would get ×%1 from one small "
                   "batch's randomness (±%2 per expert); the rest, up to ×%3, is imbalance "
                   "training left.",
                   {formatSignificant(su.straggler), formatSignificant(spread),
                    formatSignificant(sb.straggler)});
    story.steps.push_back(
        {"Serving: per-expert batch sizes",
         fill("At inference each expert runs one batched matmul on its tokens, so the layer "
              "waits for the largest expert batch. For %1 requests (mean %2 per expert) the "
              "%7 router's straggler is ×%3, the %4's ×%5. %6",
              {std::to_string(r->requests), formatSignificant(sb.mean),
               formatSignificant(r->serveCollapsed.straggler), routerName(r->chosen),
               formatSignificant(sb.straggler), why, r->unbalanced}),
         6.0, [r](double t) { return servingStep(*r, t); }});

    // The whiteboard: this run's numbers, each with its primary source.
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {didCollapse ? fill("A router trained on its own choices collapses: without balancing "
                            "the hottest expert ends with %1 of the assignments (fair %2), %3 "
                            "of %4 experts active.",
                            {formatShare(collapsed.maxLoadFraction), formatShare(1.0 / E),
                             std::to_string(collapsed.activeExperts), std::to_string(c.experts)})
                     : fill("A router trained on its own choices tends to collapse; with k = %1 "
                            "of %2 experts it stays at %3 of the assignments (fair %4).",
                            {std::to_string(c.topK), std::to_string(c.experts),
                             formatShare(collapsed.maxLoadFraction), formatShare(1.0 / E)}),
         kShazeer},
        {fill("Switch's auxiliary loss α·E·Σ f_i·P_i, minimal (α = %1) at uniform routing, brings "
              "the hottest share to %2; DeepSeek's bias, to %3.",
              {formatSignificant(c.auxAlpha), formatShare(auxEnd.maxLoadFraction),
               formatShare(biasEnd.maxLoadFraction)}),
         kSwitchAux},
        {"DeepSeek-V3 drops the loss because its gradient fights the language-model loss; a "
         "per-expert bias, moved by γ each step, steers only which experts are picked.",
         kDeepSeek},
        {fill("Capacity ⌈k·T/E·C⌉ = %1 at C = %2: the %3 router drops %4, the %6 one %5.",
              {std::to_string(r->capacity), formatSignificant(r->capacityFactor),
               routerName(r->chosen), formatShare(dropB), formatShare(dropC), r->unbalanced}),
         kSwitchEq3},
        {r->gpus == 1
             ? std::string("With one GPU there is no all-to-all; with N GPUs each token crosses "
                           "twice, and the busiest GPU sets the time.")
         : timeRatio >= 1.05
             ? fill("The all-to-all moves %1 per layer for %2 tokens whatever the routing; "
                    "%6, the busiest GPU makes it %3 instead of %4 (%5).",
                    {formatBytes(a2aB.totalBytes), std::to_string(r->batch),
                     formatSi(a2aC.timeS, "s"), formatSi(a2aB.timeS, "s"), regimeWords(a2aB),
                     r->unbalanced})
             : fill("The all-to-all moves %1 per layer for %2 tokens whatever the routing; here "
                    "both routers spread it alike and take %3 (%4).",
                    {formatBytes(a2aB.totalBytes), std::to_string(r->batch),
                     formatSi(a2aB.timeS, "s"), regimeWords(a2aB)}),
         "Lepikhin et al. 2020 (GShard, arXiv:2006.16668); nccl-tests doc/PERFORMANCE.md"},
        {fill("Serving waits for the largest expert batch: ×%1 %5, ×%2 balanced, ×%3 "
              "for uniform random routing of the same %4 requests.",
              {formatSignificant(r->serveCollapsed.straggler), formatSignificant(sb.straggler),
               formatSignificant(su.straggler), std::to_string(r->requests), r->unbalanced}),
         ""},
    };

    const double a2aMB = a2aB.totalBytes / 1e6;
    story.checks = {
        {fill("With T = %1 tokens, E = %2 experts, top-%3 and capacity factor C = %4, how many "
              "assignments can each expert keep?",
              {std::to_string(c.tokens), std::to_string(c.experts), std::to_string(c.topK),
               formatSignificant(r->capacityFactor)}),
         static_cast<double>(r->capacity), "assignments", 0.0,
         fill("⌈k·T/E·C⌉ = ⌈%1 × %2 / %3 × %4⌉ = %5 (Switch Eq. 3).",
              {std::to_string(c.topK), std::to_string(c.tokens), std::to_string(c.experts),
               formatSignificant(r->capacityFactor), std::to_string(r->capacity)})},
        {fill("How many megabytes cross GPUs per MoE layer (dispatch + combine) for B = %1 "
              "tokens, top-%2, h = %3 in BF16 (2 bytes) over N = %4 GPUs?",
              {std::to_string(r->batch), std::to_string(c.topK), std::to_string(kMoeScenarioHidden),
               std::to_string(r->gpus)}),
         a2aMB, "MB", 0.05,
         fill("2·B·k·h·b·(N−1)/N = 2 × %1 × %2 × %3 × 2 B × (%4 − 1)/%4 = %5, whatever the "
              "routing.",
              {std::to_string(r->batch), std::to_string(c.topK), std::to_string(kMoeScenarioHidden),
               std::to_string(r->gpus), formatBytes(a2aB.totalBytes)})},
    };
    addWhiteboardStep(
        story,
        didCollapse
            ? fill("Balance is a systems requirement: this run's %4 router drops %1 at C = %2 "
                   "and serves with a ×%3 straggler.",
                   {formatShare(dropC), formatSignificant(r->capacityFactor),
                    formatSignificant(r->serveCollapsed.straggler), r->unbalanced})
            : fill("This run's router never collapsed (its hottest expert ended at %1× a fair "
                   "share), so imbalance cost little here; lower k or raise E to see the bill.",
                   {formatSignificant(collapsedRatio)}));
    return story;
}

} // namespace wb
