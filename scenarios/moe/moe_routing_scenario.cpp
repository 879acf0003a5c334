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

const char* kSwitch = "Fedus et al., Switch Transformer, Eqs. 3–6";
const char* kDeepSeek = "DeepSeek-V3 (arXiv:2412.19437) §2.1.2";
const char* kGShard = "Lepikhin et al., GShard: expert parallelism by all-to-all";
const char* kToy = "toy router simulated here, this run";

// Router updates (tokens × experts × simulated steps) one build may cost: about a second on
// one core, so a slider stays interactive; the defaults use a fifth of it.
constexpr double kWorkBudget = 16.8e6;

// Chart colours (the theme's palette): one per router, grey for references.
constexpr int kNoneColour = 3, kAuxColour = 0, kBiasColour = 2, kRefColour = 7, kOneOfKColour = 4;

// Everything the steps show, simulated once in build().
struct MoeRuns {
    MoeRoutingConfig config;
    int steps = 0;    // S, per router
    int switchAt = 0; // balancing on from history index switchAt (training step switchAt + 1)
    int gpus = 1;     // EP degree N
    Balancing chosen = Balancing::AuxLoss;
    double capacityFactor = 1.0;
    long long capacity = 0;
    std::optional<MoeRoutingSim> none, aux, bias;
    double maxLoadAxis = 1.0; // y range of the max-load charts, fixed for the whole story
    ExpertDispatch capCollapsed, capBalanced;
    std::vector<ChartPoint> dropCollapsed, dropBalanced, dropUniform; // % dropped vs C
    ExpertParallelTraffic a2aCollapsed, a2aBalanced, a2aUniform;
    MoeServingBatch serveCollapsed, serveBalanced;
    int requests = 0;

    const MoeRoutingSim& balanced() const { return chosen == Balancing::AuxLoss ? *aux : *bias; }
    int experts() const { return config.experts; }
    int gpuOf(int expert) const { return expert / (config.experts / gpus); }
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

std::string expertLabel(const MoeRuns& r, int e) {
    // Lanes narrow as experts grow: all named as e0… up to 16, every 4th number up to 32,
    // every 8th beyond; the tips name every expert.
    const int n = r.experts();
    const int every = n <= 16 ? 1 : n <= 32 ? 4 : 8;
    if (e % every != 0)
        return {};
    return n <= 16 ? fill("e%1", {std::to_string(e)}) : std::to_string(e);
}

// Colours and legend by GPU: the experts of one GPU share a colour.
void colourByGpu(const MoeRuns& r, BarChartFrame& f) {
    f.series.clear();
    for (int g = 0; g < std::min(r.gpus, 10); ++g)
        f.series.push_back(fill("GPU %1", {std::to_string(g)}));
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
             .series = r.gpuOf(e) % 10,
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
    for (int i = lo; i <= hi; ++i) {
        const std::vector<long long>& load = s.history()[toIndex(i)].load;
        m = std::max(m, *std::max_element(load.begin(), load.end()));
    }
    return static_cast<double>(m);
}

BarChartFrame loadBarsAt(const MoeRuns& r, const MoeRoutingSim& s, int i, const std::string& who,
                         int lo, int hi) {
    const MoeStepRecord& rec = s.history()[toIndex(i)];
    BarChartFrame f = expertBars(r, rec.load, maxLoadOf(s, lo, hi));
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
    line.colorIndex = b == Balancing::None      ? kNoneColour
                      : b == Balancing::AuxLoss ? kAuxColour
                                                : kBiasColour;
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
        const MoeRoutingSim& s = b == Balancing::None      ? *r.none
                                 : b == Balancing::AuxLoss ? *r.aux
                                                           : *r.bias;
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

Frames routingStep(const MoeRuns& r, double t) {
    const int window = std::max(2, r.steps / 8);
    const int i = indexAt(t, 0, window - 1);
    BarChartFrame bars = loadBarsAt(r, *r.none, i, "Top-k routing", 0, window - 1);
    ChartFrame chart = maxLoadChart(r, {Balancing::None}, i);
    chart.x.max = window;
    chart.footnote = "the first steps: every expert near its fair share 1/E";
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
         .value = fill("%1 GPUs × %2 experts",
                       {std::to_string(r.gpus), std::to_string(c.experts / r.gpus)}),
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
    BarChartFrame bars = loadBarsAt(r, *r.none, i, "No balancing", 0, r.steps - 1);
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

Frames auxLossStep(const MoeRuns& r, double t) {
    const int i = indexAt(t, r.switchAt, r.steps - 1);
    BarChartFrame bars = loadBarsAt(r, *r.aux, i, "Switch aux loss", r.switchAt, r.steps - 1);
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
    BarChartFrame bars = loadBarsAt(r, *r.bias, i, "DeepSeek bias", r.switchAt, r.steps - 1);
    ChartFrame chart = maxLoadChart(r, {Balancing::None, Balancing::AuxLoss, Balancing::Bias}, i);
    FactsFrame facts;
    facts.title =
        fill("Step %1: three routers", {std::to_string(r.bias->history()[toIndex(i)].step)});
    for (Balancing b : {Balancing::None, Balancing::AuxLoss, Balancing::Bias}) {
        const MoeRoutingSim& s = b == Balancing::None      ? *r.none
                                 : b == Balancing::AuxLoss ? *r.aux
                                                           : *r.bias;
        const MoeStepRecord& rec = s.history()[toIndex(i)];
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
         .source = fill("±γ = %1 per step, selection only; DeepSeek used 0.001",
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
        std::max(*std::max_element(r.capCollapsed.routed.begin(), r.capCollapsed.routed.end()),
                 *std::max_element(r.capBalanced.routed.begin(), r.capBalanced.routed.end())));
    BarChartFrame collapsed = capacityBars(r, r.capCollapsed, "Collapsed router", axisMax);
    BarChartFrame balanced = capacityBars(r, r.capBalanced, routerName(r.chosen), axisMax);
    ChartFrame c;
    c.title = "Dropped assignments vs capacity factor";
    c.x = {.title = "capacity factor C",
           .min = r.dropUniform.front().x,
           .max = r.dropUniform.back().x};
    c.y = {.title = "dropped (% of k·T)", .min = 0.0, .max = 100.0};
    ChartSeries a{.name = "collapsed router",
                  .points = r.dropCollapsed,
                  .style = ChartSeries::Style::Line,
                  .colorIndex = kNoneColour};
    ChartSeries b{.name = routerName(r.chosen),
                  .points = r.dropBalanced,
                  .style = ChartSeries::Style::Line,
                  .colorIndex = r.chosen == Balancing::AuxLoss ? kAuxColour : kBiasColour};
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
    return Frames{{collapsed, balanced, c}};
}

BarChartFrame trafficBars(const MoeRuns& r, const ExpertParallelTraffic& a, const std::string& who,
                          double axisMax) {
    BarChartFrame f;
    f.title = fill("%1: all-to-all dispatch into each GPU", {who});
    f.caption =
        r.gpus == 1
            ? std::string("one GPU holds every expert: nothing crosses a GPU")
            : fill("%1 dispatch + combine, %2 on %3 per layer",
                   {formatBytes(a.totalBytes), formatSi(a.timeS, "s"), linkName(a.bottleneck)});
    colourByGpu(r, f);
    f.axisTitle = "bytes received per GPU";
    f.unit = BarValueUnit::Bytes;
    f.axisMax = axisMax;
    for (int g = 0; g < r.gpus; ++g) {
        BarCategory c;
        c.label = r.gpus <= 16 || g % (r.gpus / 4) == 0 ? std::to_string(g) : std::string();
        c.tip = fill("GPU %1: sends %2, receives %3",
                     {std::to_string(g), formatBytes(a.sentPerGpu[toIndex(g)]),
                      formatBytes(a.receivedPerGpu[toIndex(g)])});
        c.segments.push_back(
            {.value = a.receivedPerGpu[toIndex(g)], .series = g % 10, .tip = c.tip});
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

Frames allToAllStep(const MoeRuns& r, double) {
    const double axisMax = std::max(busiest(r.a2aCollapsed), busiest(r.a2aBalanced));
    BarChartFrame collapsed = trafficBars(r, r.a2aCollapsed, "Collapsed router", axisMax);
    BarChartFrame balanced = trafficBars(r, r.a2aBalanced, routerName(r.chosen), axisMax);
    FactsFrame facts;
    facts.title = fill("All-to-all per MoE layer, %1-way EP", {std::to_string(r.gpus)});
    const std::string shape = fill("h = %1, BF16", {std::to_string(kMoeScenarioHidden)});
    facts.rows = {
        {.label = "bytes crossing GPUs",
         .value = formatBytes(r.a2aBalanced.totalBytes),
         .source = fill("2·T·k·h·b·(N−1)/N, the same for any routing; %1", {shape}),
         .emphasis = true},
        {.label = "busiest GPU, collapsed",
         .value = formatBytes(busiest(r.a2aCollapsed)),
         .source = "the GPU holding the hot experts receives their tokens"},
        {.label = fill("busiest GPU, %1", {routerName(r.chosen)}),
         .value = formatBytes(busiest(r.a2aBalanced)),
         .source = "≈ (T/N)·k·h·b·(N−1)/N when balanced"},
        {.label = "time, collapsed vs balanced",
         .value = fill("%1 vs %2",
                       {formatSi(r.a2aCollapsed.timeS, "s"), formatSi(r.a2aBalanced.timeS, "s")}),
         .source = fill("dispatch + combine on %1 (GShard; nccl-tests doc/PERFORMANCE.md)",
                        {linkName(r.a2aBalanced.bottleneck)})},
    };
    return Frames{{collapsed, balanced, facts}};
}

BarChartFrame servingBars(const MoeRuns& r, const MoeServingBatch& b, const std::string& who,
                          double axisMax) {
    BarChartFrame f = expertBars(r, b.perExpert, axisMax);
    f.title = fill("%1: serving %2 requests", {who, std::to_string(r.requests)});
    f.caption = fill("largest expert batch %1 vs mean %2: straggler ×%3, %4 experts idle",
                     {std::to_string(b.largest), formatSignificant(b.mean),
                      formatSignificant(b.straggler), std::to_string(b.idleExperts)});
    f.axisTitle = "tokens per expert batch";
    f.references = {
        {.value = b.mean, .label = fill("mean k·B/E = %1", {formatSignificant(b.mean)})}};
    const auto hottest = std::max_element(b.perExpert.begin(), b.perExpert.end());
    f.emphasis = static_cast<int>(hottest - b.perExpert.begin());
    return f;
}

Frames servingStep(const MoeRuns& r, double) {
    const double axisMax =
        static_cast<double>(std::max(r.serveCollapsed.largest, r.serveBalanced.largest));
    BarChartFrame collapsed = servingBars(r, r.serveCollapsed, "Collapsed router", axisMax);
    BarChartFrame balanced = servingBars(r, r.serveBalanced, routerName(r.chosen), axisMax);
    FactsFrame facts;
    facts.title = "The layer waits for its largest expert batch";
    for (const auto* b : {&r.serveCollapsed, &r.serveBalanced})
        facts.rows.push_back(
            {.label = b == &r.serveCollapsed ? "collapsed router" : routerName(r.chosen),
             .value =
                 fill("×%1 (%2 vs %3)", {formatSignificant(b->straggler),
                                         std::to_string(b->largest), formatSignificant(b->mean)}),
             .source = fill("%1 experts idle; %2", {std::to_string(b->idleExperts), kToy}),
             .emphasis = b == &r.serveCollapsed});
    facts.rows.push_back(
        {.label = "the largest batch sets",
         .value = "the layer's time",
         .source = "the other experts' GPUs wait; a capacity limit drops tokens instead"});
    return Frames{{collapsed, balanced, facts}};
}

} // namespace

std::string MoeRoutingScenario::question() const {
    return "Your MoE model's experts are unevenly loaded. Why does a learned router collapse, how "
           "do you balance it, and what does imbalance cost in dropped tokens, all-to-all "
           "traffic and serving latency?";
}

std::string MoeRoutingScenario::answer() const {
    return R"(**A top-k router trained on its own choices is a rich-get-richer loop; balancing is a systems requirement, not a nicety.**
- Collapse: experts that get tokens early get better on them, so the gate sends them more. Without a counter-force a few experts take most tokens (here the hottest reaches 1/k of all assignments: it is in every token's top-k).
- Switch Transformer's auxiliary loss **α·N·Σ f_i·P_i**, **α = 10⁻²**: f_i is the share of tokens sent to expert i, P_i its mean router probability; it equals α at uniform routing (Fedus et al., Switch Transformer, Eqs. 4–6).
- DeepSeek-V3 drops the loss: a per-expert bias is added to the scores **for top-k selection only** and moved by **γ** after each step (down when overloaded, up when under); γ = 0.001 for the first 14.3T tokens. 256 routed experts + 1 shared, 8 active per token, at most 4 nodes per token (DeepSeek-V3 §2.1.2).
- Capacity = ⌈k·T/E · C⌉ per expert (Switch Eq. 3); overflow tokens skip the expert through the residual. C = 1.0–1.25 with a balanced router drops under 1 %; GShard used 2. A collapsed router drops most of its tokens at any sane C.
- Expert parallelism moves every token twice (dispatch and combine all-to-all): **2·T·k·h·b·(N−1)/N** bytes per layer whatever the routing, but imbalance piles it onto the GPUs of the hot experts, and the busiest GPU sets the time (Lepikhin et al., GShard; all-to-all volume as in nccl-tests doc/PERFORMANCE.md).
- Serving: each expert runs one batched matmul, so a layer waits for its largest expert batch; the straggler factor largest/mean is the slowdown imbalance costs at inference.)";
}

std::vector<SourceRef> MoeRoutingScenario::sources() const {
    return {
        {"Fedus, Zoph & Shazeer, Switch Transformers, Eqs. 3–6",
         "https://arxiv.org/abs/2101.03961"},
        {"DeepSeek-AI, DeepSeek-V3 Technical Report, §2.1.2", "https://arxiv.org/abs/2412.19437"},
        {"Lepikhin et al., GShard", "https://arxiv.org/abs/2006.16668"},
        {"Shazeer et al., Outrageously Large Neural Networks (noisy top-k gating)",
         "https://arxiv.org/abs/1701.06538"},
    };
}

std::vector<ParamSpec> MoeRoutingScenario::parameters() const {
    return {
        ParamSpec::integer("tokens", "Tokens per batch T", "", 64, 1024, 512, true),
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

    // Expert parallelism: N GPUs in 8-GPU nodes.
    ExpertParallelSetup ep;
    ep.gpus = r->gpus;
    ep.hidden = kMoeScenarioHidden;
    ep.bytesPerValue = kMoeScenarioBytesPerValue;
    ep.topology.nodes = std::max(1, (r->gpus + 7) / 8);
    r->a2aCollapsed = expertParallelAllToAll(r->none->history().back().load, c.topK, ep);
    r->a2aBalanced = expertParallelAllToAll(r->balanced().history().back().load, c.topK, ep);
    r->a2aUniform =
        expertParallelAllToAll(skewedExpertLoads(c.tokens, c.experts, c.topK, 0.0), c.topK, ep);

    // Serving: a fresh batch of T one-token requests through each trained router.
    r->requests = c.tokens;
    r->serveCollapsed = r->none->servingBatch(r->requests, c.seed + 1);
    r->serveBalanced = r->balanced().servingBatch(r->requests, c.seed + 1);

    Story story;
    story.provenance =
        fill("modeled on CPU: toy router, %1 tokens × d %2, %3 experts, top-%4, %5 "
             "training steps (balancing from step %6), seed %7",
             {std::to_string(c.tokens), std::to_string(c.dim), std::to_string(c.experts),
              std::to_string(c.topK), std::to_string(r->steps), std::to_string(r->switchAt + 1),
              std::to_string(c.seed)});
    story.steps.push_back(
        {"A learned top-k gate routes tokens to experts on GPUs",
         "Each token's gate scores every expert; the k best get the token. Experts are split "
         "over the expert-parallel GPUs (one colour per GPU). At first every expert gets "
         "about its fair share k·T/E.",
         5.0, [r](double t) { return routingStep(*r, t); }});
    story.steps.push_back(
        {"Without balancing the router collapses",
         "An expert that gets tokens improves on them, so the gate sends it more: a few "
         "experts take over and the rest starve. The hottest expert's share climbs from 1/E "
         "towards 1/k.",
         8.0, [r](double t) { return collapseStep(*r, t); }});
    story.steps.push_back(
        {"The Switch auxiliary loss pulls it back",
         "From the collapsed router, the loss α·E·Σ f_i·P_i is added to training: it is "
         "smallest (α) when routing is uniform, so its gradient pushes probability away from "
         "overloaded experts.",
         7.0, [r](double t) { return auxLossStep(*r, t); }});
    story.steps.push_back(
        {"DeepSeek's bias balancing, without a loss",
         "The same collapsed router, balanced instead by a per-expert bias used only to pick "
         "the top k: lowered by γ after a step in which an expert was overloaded, raised when "
         "it was underloaded.",
         7.0, [r](double t) { return biasStep(*r, t); }});
    story.steps.push_back(
        {"Capacity factor and dropped tokens",
         "Each expert processes at most ⌈k·T/E·C⌉ assignments; tokens that arrive after it "
         "is full skip it. A balanced router drops little at C = 1.25; a collapsed one drops "
         "most of what its hot experts were sent.",
         6.0, [r](double t) { return capacityStep(*r, t); }});
    story.steps.push_back(
        {"Expert-parallel all-to-all",
         "Every token travels to its experts' GPUs and back. The total is the same for any "
         "routing, but a collapsed router aims it at the GPUs of the hot experts, and the "
         "busiest GPU sets the time.",
         6.0, [r](double t) { return allToAllStep(*r, t); }});
    story.steps.push_back(
        {"Serving: per-expert batch sizes",
         "At inference each expert runs one batched matmul on the tokens routed to it, so "
         "the layer waits for the largest expert batch: the straggler factor is the "
         "slowdown imbalance costs.",
         6.0, [r](double t) { return servingStep(*r, t); }});
    return story;
}

} // namespace wb
