#include "parallel/parallelism_strategies_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"
#include "parallel/pipeline_schedule.h"
#include "parallel/strategy_timeline.h"
#include "roofline/roofline_model.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

const char* kMegatron = "Narayanan et al. SC'21 (Megatron-LM) §2.2, §3.2";
const char* kMegatronTp = "Shoeybi et al. 2019 (Megatron-LM) §3; Narayanan et al. SC'21 §3.2";
const char* kZero = "Rajbhandari et al. SC'20 (ZeRO) §7";
const char* kRing = "derived: ring α-β model (Thakur, Rabenseifner & Gropp 2005) on the GPUs' link";
const char* kSp = "Korthikanti et al. 2022 §4.2.2";
const char* kCp = "Liu et al. 2023 (ring attention); derived: ring α-β model";
const char* kEp = "Lepikhin et al. 2020 (GShard) §2; derived: α-β all-to-all";
const char* kMemory = "ZeRO §3.1 (model states); Korthikanti et al. 2022 Table 2, Eq. 5 "
                      "(activations)";

// What one group of N GPUs may be: one 8-GPU NVLink node at most, so every strategy splits
// the sizes below (heads, layers, experts, sequence) evenly; a group spanning nodes is the
// fabric-mapping lesson's subject.
const std::vector<std::string> kWays = {"2", "4", "8"};
// Multiples of 1024, so h/128 heads divide by every N above (TP).
const std::vector<std::string> kHidden = {"1024",  "2048",  "4096",  "8192",
                                          "12288", "16384", "32768", "65536"};
// Multiples of N·V = 32 (8 stages × 4 chunks), so every pipeline schedule splits them.
const std::vector<std::string> kLayers = {"32", "64", "96", "128", "192", "256"};
const std::vector<std::string> kExperts = {"8", "16", "32", "64", "128", "256"};
// Powers of two, so the sequence divides by every CP group.
const std::vector<std::string> kSeq = {"1024",  "2048",  "4096",   "8192",  "16384",
                                       "32768", "65536", "131072", "262144"};
// Buffers (CUDA context, NCCL, gradient buckets, allocator slack): an assumption, as in `calc
// memory-fit`.
constexpr double kBufferBytes = 2e9;

using Timelines = std::vector<StrategyTimeline>;

const StrategyTimeline& of(const Timelines& all, StrategyKind k) {
    for (const StrategyTimeline& t : all)
        if (t.kind == k)
            return t;
    throw std::logic_error("strategy timeline missing"); // every kind is built below
}

double commBytes(const StrategyTimeline& t) {
    double b = 0;
    for (const StrategyComm& c : t.comm)
        b += c.bytesSent;
    return b;
}

double commTime(const StrategyTimeline& t) {
    double s = 0;
    for (const StrategyComm& c : t.comm)
        s += c.timeS;
    return s;
}

// Operations of one kind per layer in a step ("4 all-reduces per layer" for TP).
double opsPerLayer(const StrategyTimeline& t, ScheduleKind k, int layers) {
    long long n = 0;
    for (const StrategyComm& c : t.comm)
        n += c.kind == k ? c.count : 0;
    return static_cast<double>(n) / layers;
}

int microbatches(const StrategyTimeline& t) {
    return t.microbatchesPerGroup;
}

// Sequences the group finishes in the step: micro-batches × b.
long long sequences(const StrategyTimeline& t, int b) {
    return static_cast<long long>(t.microbatchesPerGroup) * b;
}

double perSequenceS(const StrategyTimeline& t, int b) {
    return t.stepS / static_cast<double>(sequences(t, b));
}

// Share of the communication time the step hid behind compute (PP: its sends sit between
// stages, inside the bubble).
double hiddenShare(const StrategyTimeline& t) {
    const double c = commTime(t);
    return c > 0 ? std::clamp(1.0 - t.exposedCommS / c, 0.0, 1.0) : 1.0;
}

// Share of the step that waits on communication nothing hid.
double exposedShare(const StrategyTimeline& t) {
    return t.stepS > 0 ? t.exposedCommS / t.stepS : 0.0;
}

double simulatedBubble(const StrategyTimeline& t) {
    return t.computeS > 0 ? t.bubbleS / t.computeS : 0.0;
}

bool isPipeline(StrategyKind k) {
    return k == StrategyKind::GPipe || k == StrategyKind::OneFOneB ||
           k == StrategyKind::Interleaved;
}

std::string overlapWords(const StrategyTimeline& t) {
    if (t.comm.empty())
        return "no communication";
    if (isPipeline(t.kind))
        return "between stages";
    const double h = hiddenShare(t);
    if (h >= 0.95)
        return "overlapped";
    if (h <= 0.05)
        return "on the critical path";
    return fill("%1 overlapped", {formatShare(h)});
}

// Bytes on the wire per byte of message: 2(N−1)/N for a ring all-reduce, (N−1)/N for the
// others, 1 for a send; read back from the cost model rather than written twice.
double wireFactor(const StrategyComm& c) {
    return c.messageBytes > 0 && c.count > 0
               ? c.bytesSent / (c.messageBytes * static_cast<double>(c.count))
               : 0.0;
}

std::string wireFormula(ScheduleKind k) {
    switch (k) {
    case ScheduleKind::AllReduce:
        return "2(N−1)/N on a ring";
    case ScheduleKind::SendRecv:
        return "one send";
    default:
        return "(N−1)/N";
    }
}

// Per GPU: model states, activations and buffers under this strategy's split, from the
// memory-budget model `calc memory-fit` uses.
struct Fit {
    MemoryBudget budget;
    double hbm = 0.0;
    bool fits() const { return budget.total() <= hbm; }
};

Fit fitOf(const StrategyTimeline& t, const StrategySetup& s, double hbm) {
    MemoryModel m;
    m.shape = s.model;
    m.bufferBytes = kBufferBytes;
    MemoryLayout l;
    switch (t.kind) {
    case StrategyKind::DP:
        l.dp = s.ways;
        break;
    case StrategyKind::Zero12:
        l.dp = s.ways;
        l.zero = 2;
        break;
    case StrategyKind::Zero3:
        l.dp = s.ways;
        l.zero = 3;
        break;
    case StrategyKind::TP:
        l.tp = s.ways;
        break;
    case StrategyKind::SP:
        l.tp = s.ways;
        l.sequenceParallel = true;
        break;
    case StrategyKind::CP: // weights replicated, each GPU holds s/N tokens' activations
        m.shape.seq = s.model.seq / s.ways;
        break;
    case StrategyKind::EP: // attention (a third) replicated, E/N of the experts' MLPs per GPU
        m.shape.params = s.model.params / 3.0 +
                         s.model.params * 2.0 / 3.0 * s.experts / static_cast<double>(s.ways);
        break;
    default:
        l.pp = s.ways;
    }
    Fit f{memoryBudget(m, l), hbm};
    // GPipe keeps every micro-batch's activations until the backwards start; the budget's
    // first stage holds 1F1B's min(P, M) (Eq. 5).
    if (t.kind == StrategyKind::GPipe)
        f.budget.activations *= t.peakActivations / std::min(s.ways, s.microbatches);
    return f;
}

FactRow fitRow(const Fit& f) {
    return {.label = f.fits() ? "memory per GPU: states + activations + buffers"
                              : "memory per GPU: does not fit in HBM",
            .value = fill("%1 of %2", {formatBytes(f.budget.total()), formatBytes(f.hbm)}),
            .source = fill("%1 (%2 assumed)", {kMemory, formatBytes(kBufferBytes)}),
            .emphasis = !f.fits()};
}

// A model that does not fit leads the table, where a short panel cannot cut it off; one that
// fits closes it.
void placeFitRow(FactsFrame& f, const Fit& fit) {
    if (fit.fits())
        f.rows.push_back(fitRow(fit));
    else
        f.rows.insert(f.rows.begin(), fitRow(fit));
}

std::string groupWork(const StrategyTimeline& t, int b) {
    const std::string seqs = formatCount(sequences(t, b), "sequence", "sequences");
    if (isPipeline(t.kind))
        return fill("%1 in %2",
                    {seqs, formatCount(microbatches(t), "micro-batch", "micro-batches")});
    if (microbatches(t) == 1)
        return fill("%1 shared by the group", {seqs});
    return fill("%1, one micro-batch per GPU", {seqs});
}

ScheduleFrame schedule(const StrategyTimeline& t, int ways, int b, double tPlay) {
    ScheduleFrame f;
    f.title = fill("%1 on %2 GPUs · %3 per step",
                   {strategyKindName(t.kind), std::to_string(ways), groupWork(t, b)});
    f.rows = t.rows;
    f.endS = t.stepS;
    f.cursorS = tPlay >= 1.0 ? -1.0 : tPlay * t.stepS;
    f.caption =
        fill("step %1 ÷ %2 = %3 per sequence · compute %4 · %5 · %6 sent by GPU 0",
             {formatSi(t.stepS, "s"), formatCount(sequences(t, b), "sequence", "sequences"),
              formatSi(perSequenceS(t, b), "s"), formatSi(t.computeS, "s"),
              t.bubbleS > 0 ? fill("bubble %1", {formatSi(t.bubbleS, "s")})
                            : fill("exposed communication %1", {formatSi(t.exposedCommS, "s")}),
              formatBytes(commBytes(t))});
    return f;
}

FactsFrame commTable(const StrategyTimeline& t, const Fit& fit, const char* source) {
    FactsFrame f;
    f.title = fill("%1: what GPU 0 communicates", {strategyKindName(t.kind)});
    for (const StrategyComm& c : t.comm)
        f.rows.push_back(
            {fill("%1: %2, %3", {scheduleKindName(c.kind), c.what, c.frequency}),
             fill("%1 × %2 × %3 = %4",
                  {formatSignificant(wireFactor(c), 3), formatBytes(c.messageBytes),
                   std::to_string(c.count), formatBytes(c.bytesSent)}),
             fill("bytes on the wire = %1 × message × count · %2 on %3 · %4",
                  {wireFormula(c.kind), formatSi(c.timeS, "s"), linkWords(c.link), source})});
    if (t.comm.empty())
        f.rows.push_back({"communication", "none", "one GPU"});
    f.rows.push_back(
        {.label = "exposed communication",
         .value = fill("%1 of %2", {formatSi(t.exposedCommS, "s"), formatSi(t.stepS, "s")}),
         .source = "derived: the timeline's step − compute − bubble",
         .emphasis = true});
    placeFitRow(f, fit);
    return f;
}

FactsFrame bubbleTable(const Timelines& all, StrategyKind k, const Fit& fit, int P, int M, int V) {
    const StrategyTimeline& t = of(all, k);
    const int v = k == StrategyKind::Interleaved ? V : 1;
    const PipelineBubble formula = pipelineBubble(P, M, v);
    FactsFrame f;
    f.title = fill("%1: the bubble", {strategyKindName(k)});
    f.rows.push_back(
        {.label = v > 1 ? "bubble ÷ ideal, (P−1)/(V·M)" : "bubble ÷ ideal, (P−1)/M",
         .value = formatShare(formula.ofIdeal),
         .source = fill("%1 · P = %2, M = %3%4",
                        {kMegatron, std::to_string(P), std::to_string(M),
                         v > 1 ? fill(", V = %1", {std::to_string(v)}) : std::string()}),
         .emphasis = true});
    f.rows.push_back({"bubble ÷ ideal, simulated", formatShare(simulatedBubble(t)),
                      "derived: the schedule above, op by op, sends included"});
    f.rows.push_back({"bubble ÷ total, (P−1)/(V·M+P−1)", formatShare(formula.ofTotal),
                      "GPipe's form of the same bubble (Huang et al. 2019 §2.3)"});
    f.rows.push_back(
        {"activations held on stage 0",
         formatCount(static_cast<long long>(t.peakActivations), "micro-batch", "micro-batches"),
         "simulated: GPipe holds all M, 1F1B at most P"});
    for (const StrategyComm& c : t.comm)
        f.rows.push_back({fill("send/recv per stage, %1", {c.frequency}),
                          fill("%1 × %2 = %3", {formatBytes(c.messageBytes),
                                                std::to_string(c.count), formatBytes(c.bytesSent)}),
                          fill("derived: one b·s·h tensor per send · %1", {c.what})});
    placeFitRow(f, fit);
    return f;
}

// Every value the slides may quote, in the unit of its quantity.
void timelineResults(std::vector<ResultValue>& r, const StrategyTimeline& t, const Fit& fit,
                     int b) {
    const std::string n = strategyKindName(t.kind);
    r.push_back({n + " step", t.stepS});
    r.push_back({n + " compute", t.computeS});
    r.push_back({n + " exposed communication", t.exposedCommS});
    r.push_back({n + " bubble", t.bubbleS});
    r.push_back({n + " bubble ÷ compute, simulated", simulatedBubble(t)});
    r.push_back({n + " sequences per step", sequences(t, b)});
    r.push_back({n + " micro-batches per step", microbatches(t)});
    r.push_back({n + " time per sequence", perSequenceS(t, b)});
    r.push_back({n + " bytes sent by GPU 0", commBytes(t)});
    r.push_back({n + " communication time", commTime(t)});
    r.push_back({n + " communication hidden", hiddenShare(t)});
    r.push_back({n + " exposed share of the step", exposedShare(t)});
    r.push_back({n + " activations held", t.peakActivations});
    r.push_back({n + " memory per GPU", fit.budget.total()});
    for (const StrategyComm& c : t.comm) {
        r.push_back({n + " message", c.messageBytes});
        r.push_back({n + " operations", c.count});
        r.push_back({n + " bytes of one kind", c.bytesSent});
        r.push_back({n + " wire factor", wireFactor(c)});
        r.push_back({n + " time of one kind", c.timeS});
    }
}

// The summary's row for one strategy: what it splits and sends, how often, whether the step
// hides it, over which link.
FactRow summaryRow(const StrategyTimeline& t, const Fit& fit, int b, int layers) {
    // Per kind of operation, counted from the step: "all-to-all × 4 per layer"; the pipeline's
    // sends go per micro-batch, not per layer.
    std::string ops;
    std::vector<ScheduleKind> seen;
    for (const StrategyComm& c : t.comm) {
        if (std::find(seen.begin(), seen.end(), c.kind) != seen.end())
            continue;
        seen.push_back(c.kind);
        const std::string op = isPipeline(t.kind)
                                   ? fill("%1 %2", {scheduleKindName(c.kind), c.frequency})
                                   : fill("%1 × %2 per layer per step",
                                          {scheduleKindName(c.kind),
                                           formatSignificant(opsPerLayer(t, c.kind, layers), 3)});
        ops += (ops.empty() ? "" : "; ") + op;
    }
    const std::string link = t.comm.empty() ? std::string() : linkWords(t.comm.front().link);
    return {.label = fill("%1 (%2)", {strategyKindName(t.kind), t.splitsShort}),
            .value = fill("%1 per sequence · %2 sent%3",
                          {formatSi(perSequenceS(t, b), "s"), formatBytes(commBytes(t)),
                           fit.fits()
                               ? std::string()
                               : fill(" · needs %1: over HBM", {formatBytes(fit.budget.total())})}),
            .source = fill("%1 · %2 · %3",
                           {ops.empty() ? std::string("none") : ops, overlapWords(t), link}),
            .emphasis = !fit.fits()};
}

} // namespace

std::string ParallelismStrategiesScenario::question() const {
    return "Compare data parallelism, ZeRO/FSDP, tensor, pipeline, sequence/context and expert "
           "parallelism: what does each one communicate, how big is it and how often?";
}

std::string ParallelismStrategiesScenario::answer() const {
    return R"(**Each strategy splits something different, and pays for it with a different collective.** Ψ = parameters, b·s·h = one activation tensor.
- **DP**: splits the batch. Gradients all-reduced once per step (bucketed per layer, overlapped with backward): **2Ψ** on the wire per GPU (ring: 2(N−1)/N·Ψ). Memory: 16Ψ bytes per GPU with mixed-precision Adam (ZeRO §3.1).
- **ZeRO-1/2**: shards optimizer state (and gradients): reduce-scatter + all-gather = **2Ψ, same as DP**. **ZeRO-3/FSDP** shards weights too: all-gather before forward and again before backward + reduce-scatter = **3Ψ (1.5×)** (ZeRO §7).
- **TP** (Megatron): splits each layer's matrices; **2 all-reduces forward + 2 backward per layer per micro-batch**, b·s·h each, **on the critical path**: 8bsh(t−1)/t per layer per device. Keep it inside the NVLink domain.
- **SP** (with TP): each all-reduce becomes an all-gather + a reduce-scatter, **same bytes**, and layer-norm/dropout activations are split too.
- **CP**: splits the sequence; keys/values gathered per layer (ring attention overlaps it with attention), gradients all-reduced like DP.
- **EP**: experts spread over GPUs; **two all-to-alls forward and two backward per MoE layer** (dispatch, combine), k·b·s·h each with top-k routing.
- **PP**: splits layers; **send/recv** of b·s·h (b·s·h/t with TP) per micro-batch per stage boundary. The bubble is **(P−1)/M of the ideal time** for GPipe and 1F1B alike; 1F1B holds at most P micro-batches' activations instead of M; interleaving with V chunks divides the bubble by V for V× the sends (Megatron-LM §2.2). GPipe quotes the same bubble as (P−1)/(M+P−1) of the total.
Rule of thumb (Megatron takeaway #1): TP inside a node, PP across nodes, DP over the rest.)";
}

std::vector<SourceRef> ParallelismStrategiesScenario::sources() const {
    return {
        {"Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters "
         "Using Megatron-LM (SC'21)",
         "https://arxiv.org/abs/2104.04473"},
        {"Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter "
         "Models (SC'20)",
         "https://arxiv.org/abs/1910.02054"},
        {"Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models",
         "https://arxiv.org/abs/2205.05198"},
        {"Huang et al., GPipe (NeurIPS'19)", "https://arxiv.org/abs/1811.06965"},
        {"Shoeybi et al., Megatron-LM (2019)", "https://arxiv.org/abs/1909.08053"},
        {"Liu et al., Ring Attention with Blockwise Transformers",
         "https://arxiv.org/abs/2310.01889"},
        {"Lepikhin et al., GShard (expert parallelism)", "https://arxiv.org/abs/2006.16668"},
    };
}

std::vector<ParamSpec> ParallelismStrategiesScenario::parameters() const {
    return {
        ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm",
                          "dense BF16 peak, HBM bandwidth and capacity from the catalogue"),
        ParamSpec::choice("ways", "GPUs per strategy N", kWays, "4",
                          "group size inside one NVLink node: DP replicas, TP ranks, pipeline "
                          "stages, ..."),
        ParamSpec::choice("layers", "Layers L", kLayers, "32",
                          "multiples of 32, so 8 stages × 4 chunks split them"),
        ParamSpec::choice("hidden", "Hidden size h", kHidden, "2048",
                          "multiples of 1024: h/128 heads divide by every TP group"),
        ParamSpec::choice("seq", "Sequence s (tokens)", kSeq, "2048"),
        ParamSpec::integer("micro-batch", "Micro-batch b", "sequences", 1, 64, 1),
        ParamSpec::integer("microbatches", "Micro-batches M (pipeline)", "", 1, 256, 8),
        ParamSpec::choice("interleave", "Model chunks V (interleaved)", {"2", "4"}, "2"),
        ParamSpec::choice("experts", "Experts E (EP)", kExperts, "8"),
        ParamSpec::integer("top-k", "Top-k (EP)", "", 1, 8, 2),
        ParamSpec::real("efficiency", "Fraction of peak reached", "", 0.05, 1.0, 0.5, false,
                        "an assumption: real kernels reach 40–60 % of the dense peak"),
    };
}

Story ParallelismStrategiesScenario::build(const Params& p, const ScenarioInputs&) const {
    const GpuSpec& gpu = *HardwareCatalogue::builtin().find(p.text("gpu"));
    auto whole = [&](const char* name) { return std::stoi(p.text(name)); };
    StrategySetup s;
    s.model.layers = whole("layers");
    s.model.hidden = whole("hidden");
    // Head dimension 128 (GPT-3, Llama): heads only constrain TP here, they add no FLOPs.
    s.model.heads = std::max(1, s.model.hidden / 128);
    s.model.seq = whole("seq");
    s.model.microBatch = static_cast<int>(p.integer("micro-batch"));
    // 12·L·h² weights (Megatron-LM's count without embeddings), so per-layer sizes agree.
    s.model.params = 12.0 * s.model.layers * static_cast<double>(s.model.hidden) * s.model.hidden;
    s.ways = whole("ways");
    s.microbatches = static_cast<int>(p.integer("microbatches"));
    s.interleave = whole("interleave");
    s.experts = whole("experts");
    s.topK = static_cast<int>(p.integer("top-k"));
    s.efficiency = p.number("efficiency");
    s.peakFlops = peakTflops(gpu, Precision::BF16).value_or(0.0) * 1e12;
    s.hbmBytesPerS = bandwidthTBs(gpu) * 1e12;
    s.topology.gpusPerNode = s.ways; // one node holds the group (kWays)
    s.topology.nodes = 1;
    const double hbm = gpu.value("memory_gb") * 1e9;

    auto all = std::make_shared<Timelines>();
    auto fits = std::make_shared<std::vector<Fit>>();
    for (StrategyKind k : allStrategyKinds()) {
        all->push_back(strategyTimeline(k, s));
        fits->push_back(fitOf(all->back(), s, hbm));
    }
    const int N = s.ways, M = s.microbatches, V = s.interleave, b = s.model.microBatch;
    const int L = s.model.layers;
    auto fitFor = [all, fits](StrategyKind k) {
        for (std::size_t i = 0; i < all->size(); ++i)
            if ((*all)[i].kind == k)
                return (*fits)[i];
        throw std::logic_error("strategy fit missing");
    };
    const StrategyTimeline &dp = of(*all, StrategyKind::DP), &z12 = of(*all, StrategyKind::Zero12),
                           &z3 = of(*all, StrategyKind::Zero3), &tp = of(*all, StrategyKind::TP),
                           &cp = of(*all, StrategyKind::CP), &ep = of(*all, StrategyKind::EP),
                           &gp = of(*all, StrategyKind::GPipe),
                           &fb = of(*all, StrategyKind::OneFOneB),
                           &il = of(*all, StrategyKind::Interleaved);
    const PipelineBubble bubble = pipelineBubble(N, M, 1), bubbleV = pipelineBubble(N, M, V);
    const double tpOpsPerLayer = opsPerLayer(tp, ScheduleKind::AllReduce, L);
    const double epOpsPerLayer = opsPerLayer(ep, ScheduleKind::AllToAll, L);

    Story story;
    story.provenance =
        fill("modeled on CPU: %1 at %2 of dense BF16 peak, %3 GPUs in one NVLink node, L = %4, "
             "h = %5, s = %6 (%7 parameters)",
             {gpu.name, formatShare(s.efficiency), std::to_string(N), std::to_string(L),
              std::to_string(s.model.hidden), std::to_string(s.model.seq),
              formatSi(s.model.params, "")});
    for (std::size_t i = 0; i < all->size(); ++i)
        timelineResults(story.results, (*all)[i], (*fits)[i], b);
    story.results.insert(story.results.end(), {{"parameters", s.model.params},
                                               {"HBM per GPU", hbm},
                                               {"buffers (assumed)", kBufferBytes},
                                               {"bubble ÷ ideal", bubble.ofIdeal},
                                               {"bubble ÷ total", bubble.ofTotal},
                                               {"interleaved bubble ÷ ideal", bubbleV.ofIdeal},
                                               {"interleaved bubble ÷ total", bubbleV.ofTotal},
                                               {"TP all-reduces per layer", tpOpsPerLayer},
                                               {"EP all-to-alls per layer", epOpsPerLayer},
                                               {"ZeRO-3 ÷ DP bytes", commBytes(z3) / commBytes(dp)},
                                               {"heads", s.model.heads}});
    for (const Fit& f : *fits)
        story.results.push_back({"share of HBM", f.budget.total() / hbm});

    // One sentence that names the strategies of a step that do not fit in HBM, or nothing.
    auto memoryNote = [&](std::initializer_list<StrategyKind> kinds) {
        std::string names;
        double need = 0;
        int over = 0;
        for (StrategyKind k : kinds)
            if (!fitFor(k).fits()) {
                names += (names.empty() ? "" : " and ") + strategyKindName(k);
                need = std::max(need, fitFor(k).budget.total());
                ++over;
            }
        return names.empty()
                   ? std::string()
                   : fill(" Beware: %1 %2 %3 per GPU, more than the %4 of HBM on %5; "
                          "%6 not fit.",
                          {names, over == 1 ? "needs" : "need up to", formatBytes(need),
                           formatBytes(hbm), gpu.name, over == 1 ? "it does" : "they do"});
    };
    auto step = [&](std::string title, std::string narration,
                    std::vector<std::pair<StrategyKind, const char*>> shown, bool isBubble) {
        std::vector<StrategyKind> kinds;
        for (const auto& [k, src] : shown)
            kinds.push_back(k);
        const Fit fit0 = fitFor(shown.front().first);
        story.steps.push_back({std::move(title), std::move(narration), 6.0,
                               [all, shown, isBubble, fit0, N, M, V, b](double t) {
                                   Frames f;
                                   for (const auto& [k, src] : shown)
                                       f.items.push_back(schedule(of(*all, k), N, b, t));
                                   const auto& [k0, src0] = shown.front();
                                   f.items.push_back(isBubble
                                                         ? bubbleTable(*all, k0, fit0, N, M, V)
                                                         : commTable(of(*all, k0), fit0, src0));
                                   return f;
                               }});
    };

    step(fill("DP: %1 of gradients per GPU per step, %2 of it hidden under backward",
              {formatBytes(commBytes(dp)), formatShare(hiddenShare(dp))}),
         fill("Every GPU runs the whole model on its own micro-batch, so the group finishes %1 "
              "per step. As each layer's backward finishes, its gradients are all-reduced on the "
              "communication stream while the next layer's backward runs; only %2 sticks out at "
              "the end.%3",
              {formatCount(sequences(dp, b), "sequence", "sequences"),
               formatSi(dp.exposedCommS, "s"), memoryNote({StrategyKind::DP})}),
         {{StrategyKind::DP, kRing}}, false);
    const double zRatio = commBytes(z3) / commBytes(dp);
    step(fill("ZeRO-1/2 sends %1 like DP; ZeRO-3 (FSDP) sends %2, %3× as much",
              {formatBytes(commBytes(z12)), formatBytes(commBytes(z3)),
               formatSignificant(zRatio, 3)}),
         fill("ZeRO-1/2 turns the all-reduce into a reduce-scatter and an all-gather: the same "
              "bytes, but each GPU updates only its shard. ZeRO-3 also shards the weights, so "
              "every layer is gathered before its forward and again before its backward, "
              "prefetched one layer ahead: per GPU the model needs %1 instead of DP's %2.%3",
              {formatBytes(fitFor(StrategyKind::Zero3).budget.total()),
               formatBytes(fitFor(StrategyKind::DP).budget.total()),
               memoryNote({StrategyKind::Zero12, StrategyKind::Zero3})}),
         {{StrategyKind::Zero12, kZero}, {StrategyKind::Zero3, kZero}}, false);
    const double tpExposed = exposedShare(tp);
    step(fill("TP: %1 all-reduces per layer on the critical path, %2 of the step",
              {formatSignificant(tpOpsPerLayer, 3), formatShare(tpExposed)}),
         fill("Each layer's matrices are split %1 ways. After attention and after the MLP the "
              "partial results must be summed before the next block can start: all-reduces of "
              "%2 each, forward and backward, with nothing to hide behind. TP + SP sends the "
              "same bytes as all-gathers and reduce-scatters. This is why TP stays on "
              "NVLink.%3",
              {std::to_string(N), formatBytes(tp.comm.front().messageBytes),
               memoryNote({StrategyKind::TP, StrategyKind::SP})}),
         {{StrategyKind::TP, kMegatronTp}, {StrategyKind::SP, kSp}}, false);
    step(fill("CP: keys and values travel while attention runs, %1 of the communication hidden",
              {formatShare(hiddenShare(cp))}),
         fill("Context parallelism splits the sequence %1 ways, so the group shares one "
              "micro-batch. Each GPU's queries need every GPU's keys and values, gathered layer "
              "by layer while the local attention runs; the weights are replicated, so their "
              "gradients are all-reduced as in DP.%2",
              {std::to_string(N), memoryNote({StrategyKind::CP})}),
         {{StrategyKind::CP, kCp}}, false);
    const double epExposed = exposedShare(ep);
    step(fill("EP: %1 all-to-alls per MoE layer, %2 of the step waiting on them",
              {formatSignificant(epOpsPerLayer, 3), formatShare(epExposed)}),
         fill("Experts live on different GPUs. Every token is sent to its top-%1 experts and "
              "the results are sent back: a dispatch and a combine all-to-all per layer, each "
              "way, between compute that cannot start without them.%2",
              {std::to_string(s.topK), memoryNote({StrategyKind::EP})}),
         {{StrategyKind::EP, kEp}}, false);
    step(fill("PP: the same %1 bubble for GPipe and 1F1B; 1F1B holds %2 of %3 micro-batches",
              {formatShare(bubble.ofIdeal),
               std::to_string(static_cast<long long>(fb.peakActivations)), std::to_string(M)}),
         fill("Layers are split into %1 stages and the batch into %2. The hatched idle time is "
              "the bubble, %3 of the useful time for both schedules; 1F1B starts backwards "
              "early, so a stage holds %4 instead of %5.%6",
              {std::to_string(N), formatCount(M, "micro-batch", "micro-batches"),
               formatShare(bubble.ofIdeal),
               formatCount(static_cast<long long>(fb.peakActivations), "micro-batch's activations",
                           "micro-batches' activations"),
               formatCount(static_cast<long long>(gp.peakActivations), "micro-batch",
                           "micro-batches"),
               memoryNote({StrategyKind::GPipe, StrategyKind::OneFOneB})}),
         {{StrategyKind::GPipe, kMegatron}, {StrategyKind::OneFOneB, kMegatron}}, true);
    const double sendRatio = fb.comm.empty() ? 1.0
                                             : static_cast<double>(il.comm.front().count) /
                                                   static_cast<double>(fb.comm.front().count);
    story.results.push_back({"interleaved sends ÷ 1F1B sends", sendRatio});
    step(fill("Interleaved 1F1B: the bubble %1 → %2, the sends × %3",
              {formatShare(bubble.ofIdeal), formatShare(bubbleV.ofIdeal),
               formatSignificant(sendRatio, 3)}),
         fill("Each device holds %1 smaller chunks of layers, so a micro-batch visits it %1 "
              "times. The pipeline fills %1 times faster, dividing the bubble by %1, at the "
              "price of %1 times the point-to-point sends.%2",
              {std::to_string(V), memoryNote({StrategyKind::Interleaved})}),
         {{StrategyKind::Interleaved, kMegatron}, {StrategyKind::OneFOneB, kMegatron}}, true);

    // The summary compares per sequence: DP finishes N micro-batches a step, TP one, PP M.
    std::size_t fastest = 0;
    for (std::size_t i = 1; i < all->size(); ++i)
        if (perSequenceS((*all)[i], b) < perSequenceS((*all)[fastest], b))
            fastest = i;
    int notFitting = 0;
    for (const Fit& f : *fits)
        notFitting += f.fits() ? 0 : 1;
    story.steps.push_back(
        {"All strategies side by side, per sequence",
         fill("Read off the timelines above, per sequence so that a step of %1 (DP) and one of "
              "%2 (TP) compare: %3 is quickest here at %4 per sequence. %5",
              {formatCount(sequences(dp, b), "sequence", "sequences"),
               formatCount(sequences(tp, b), "sequence", "sequences"),
               strategyKindName((*all)[fastest].kind),
               formatSi(perSequenceS((*all)[fastest], b), "s"),
               notFitting == 0 ? fill("Every strategy fits in the %1 of HBM.", {formatBytes(hbm)})
               : notFitting == static_cast<int>(all->size())
                   ? fill("None of the %1 fits in the %2 of HBM: this model needs more GPUs "
                          "or strategies combined.",
                          {std::to_string(all->size()), formatBytes(hbm)})
                   : fill("%1 of %2 do not fit in the %3 of HBM (marked).",
                          {std::to_string(notFitting), std::to_string(all->size()),
                           formatBytes(hbm)})}),
         6.0, [all, fits, N, b, L](double) {
             FactsFrame f;
             f.title = fill("%1 GPUs: time per sequence, bytes GPU 0 sends · what, how often, "
                            "hidden or not, link",
                            {std::to_string(N)});
             for (std::size_t i = 0; i < all->size(); ++i)
                 f.rows.push_back(summaryRow((*all)[i], (*fits)[i], b, L));
             return Frames{{f}};
         }});
    story.results.push_back({"strategies", all->size()});
    story.results.push_back({"strategies that do not fit", notFitting});

    // Check yourself: the DP ring's bytes, the bubble formula, TP's message.
    const StrategyComm& dpGrads = dp.comm.front();
    story.checks = {
        {fill("With DP on %1 GPUs and a ring all-reduce, how many GB does GPU 0 send for one "
              "step's gradients (%2 parameters in BF16)?",
              {std::to_string(N), formatSi(s.model.params, "")}),
         dpGrads.bytesSent / 1e9, "GB", 0.05,
         fill("2(N−1)/N × 2 bytes × Ψ = %1 × %2 = %3.",
              {formatSignificant(wireFactor(dpGrads), 3),
               formatBytes(dpGrads.messageBytes * static_cast<double>(dpGrads.count)),
               formatBytes(dpGrads.bytesSent)})},
        {fill("What is the 1F1B bubble as a share of the ideal time with P = %1 stages and M = "
              "%2 micro-batches?",
              {std::to_string(N), std::to_string(M)}),
         bubble.ofIdeal * 100.0, "%", 0.02,
         fill("(P−1)/M = %1/%2 = %3 (Narayanan et al. SC'21 §2.2).",
              {std::to_string(N - 1), std::to_string(M), formatShare(bubble.ofIdeal)})},
        {fill("How big is one TP all-reduce's message, b·s·h in BF16, for b = %1, s = %2, h = "
              "%3? (MB)",
              {std::to_string(b), std::to_string(s.model.seq), std::to_string(s.model.hidden)}),
         tp.comm.front().messageBytes / 1e6, "MB", 0.02,
         fill("%1 × %2 × %3 × 2 bytes = %4.",
              {std::to_string(b), std::to_string(s.model.seq), std::to_string(s.model.hidden),
               formatBytes(tp.comm.front().messageBytes)})},
    };

    const Fit dpFit = fitFor(StrategyKind::DP), z3Fit = fitFor(StrategyKind::Zero3);
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("DP all-reduces %1 of gradients per GPU per step, %2 hidden behind backward; "
              "ZeRO-1/2 sends the same, ZeRO-3 (FSDP) %3× as much to shard the weights too.",
              {formatBytes(commBytes(dp)), formatShare(hiddenShare(dp)),
               formatSignificant(zRatio, 3)}),
         "Rajbhandari et al. SC'20 (ZeRO) §7; derived: ring 2(N−1)/N × 2Ψ bytes"},
        {fill("TP puts %1 all-reduces of %2 per layer on the critical path, %3 of the step: keep "
              "TP inside the NVLink domain.",
              {formatSignificant(tpOpsPerLayer, 3), formatBytes(tp.comm.front().messageBytes),
               formatShare(tpExposed)}),
         kMegatronTp},
        {fill("CP gathers keys and values per layer while attention runs (%1 hidden); EP waits on "
              "%2 all-to-alls per MoE layer (%3 of the step).",
              {formatShare(hiddenShare(cp)), formatSignificant(epOpsPerLayer, 3),
               formatShare(epExposed)}),
         "Liu et al. 2023 (ring attention); Lepikhin et al. 2020 (GShard) §2"},
        {fill("The pipeline bubble is %1 of the ideal time for GPipe and 1F1B alike; "
              "interleaving %2 chunks cuts it to %3 for %4× the sends.",
              {formatShare(bubble.ofIdeal), std::to_string(V), formatShare(bubbleV.ofIdeal),
               formatSignificant(sendRatio, 3)}),
         "Narayanan et al. SC'21 (Megatron-LM) §2.2: (P−1)/M and (P−1)/(V·M)"},
        {fill("Memory per GPU: %1 under DP (%2), %3 under ZeRO-3 (%4), against %5 of HBM on "
              "%6.",
              {formatBytes(dpFit.budget.total()), dpFit.fits() ? "fits" : "does not fit",
               formatBytes(z3Fit.budget.total()), z3Fit.fits() ? "fits" : "does not fit",
               formatBytes(hbm), gpu.name}),
         kMemory},
        {"Rule of thumb: TP inside a node, PP across nodes, DP over the rest.",
         "Narayanan et al. SC'21 (Megatron-LM) §3, takeaway #1"},
    };
    addWhiteboardStep(story, fill("Each strategy splits something different and pays with a "
                                  "different collective; compare them per sequence, on %1 GPUs.",
                                  {std::to_string(N)}));
    return story;
}

} // namespace wb
