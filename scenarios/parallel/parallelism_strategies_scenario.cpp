#include "parallel/parallelism_strategies_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "parallel/pipeline_schedule.h"
#include "parallel/strategy_timeline.h"
#include "roofline/roofline_model.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

const char* kMegatron = "Narayanan et al. SC'21 (Megatron-LM) §2.2, §3.2";
const char* kZero = "Rajbhandari et al. SC'20 (ZeRO) §7";
const char* kRing = "ring α-β model (collective_cost), on the GPUs' link";

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

std::string perStep(const StrategyTimeline& t) {
    return t.microbatchesPerGpu == 1
               ? "one micro-batch per GPU"
               : fill("%1 micro-batches", {std::to_string(t.microbatchesPerGpu)});
}

ScheduleFrame schedule(const StrategyTimeline& t, int ways, double tPlay) {
    ScheduleFrame f;
    f.title =
        fill("%1 on %2 GPUs · %3", {strategyKindName(t.kind), std::to_string(ways), perStep(t)});
    f.rows = t.rows;
    f.endS = t.stepS;
    f.cursorS = tPlay >= 1.0 ? -1.0 : tPlay * t.stepS;
    f.caption =
        fill("step %1 · compute %2 · %3 · %4 sent by GPU 0",
             {formatSi(t.stepS, "s"), formatSi(t.computeS, "s"),
              t.bubbleS > 0 ? fill("bubble %1", {formatSi(t.bubbleS, "s")})
                            : fill("exposed communication %1", {formatSi(t.exposedCommS, "s")}),
              formatBytes(commBytes(t))});
    return f;
}

FactsFrame commTable(const StrategyTimeline& t, const char* source) {
    FactsFrame f;
    f.title = fill("%1: what GPU 0 communicates", {strategyKindName(t.kind)});
    for (const StrategyComm& c : t.comm)
        f.rows.push_back({fill("%1: %2", {scheduleKindName(c.kind), c.what}),
                          fill("%1 × %2 = %3", {formatBytes(c.messageBytes),
                                                std::to_string(c.count), formatBytes(c.bytesSent)}),
                          fill("%1 · %2 on %3 · %4",
                               {c.frequency, formatSi(c.timeS, "s"), linkName(c.link), source})});
    if (t.comm.empty())
        f.rows.push_back({"communication", "none", "one GPU"});
    f.rows.push_back(
        {.label = "exposed communication",
         .value = fill("%1 of %2", {formatSi(t.exposedCommS, "s"), formatSi(t.stepS, "s")}),
         .source = "the timeline: step − compute − bubble",
         .emphasis = true});
    f.rows.push_back({"splits", t.splitsShort, t.splits});
    return f;
}

FactsFrame bubbleTable(const Timelines& all, StrategyKind k, int P, int M, int V) {
    const StrategyTimeline& t = of(all, k);
    const int v = k == StrategyKind::Interleaved ? V : 1;
    const PipelineBubble formula = pipelineBubble(P, M, v);
    FactsFrame f;
    f.title = fill("%1: the bubble", {strategyKindName(k)});
    f.rows.push_back(
        {.label = v > 1 ? "bubble ÷ ideal, (P−1)/(V·M)" : "bubble ÷ ideal, (P−1)/M",
         .value = fill("%1 %", {formatSignificant(formula.ofIdeal * 100, 3)}),
         .source = fill("%1 · P = %2, M = %3%4",
                        {kMegatron, std::to_string(P), std::to_string(M),
                         v > 1 ? fill(", V = %1", {std::to_string(v)}) : std::string()}),
         .emphasis = true});
    f.rows.push_back(
        {"bubble ÷ ideal, simulated",
         fill("%1 %", {formatSignificant(t.computeS > 0 ? t.bubbleS / t.computeS * 100 : 0, 3)}),
         "the schedule above, op by op, sends included"});
    f.rows.push_back({"bubble ÷ total, (P−1)/(V·M+P−1)",
                      fill("%1 %", {formatSignificant(formula.ofTotal * 100, 3)}),
                      "GPipe's form of the same bubble (Huang et al. 2019)"});
    f.rows.push_back({"activations held on stage 0",
                      fill("%1 micro-batches", {formatSignificant(t.peakActivations, 3)}),
                      "simulated: GPipe holds all M, 1F1B at most P"});
    for (const StrategyComm& c : t.comm)
        f.rows.push_back({"send/recv per stage",
                          fill("%1 × %2", {formatBytes(c.messageBytes), std::to_string(c.count)}),
                          fill("%1 · %2", {c.frequency, c.what})});
    f.rows.push_back({"splits", t.splitsShort, t.splits});
    return f;
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
                          "dense BF16 peak and HBM bandwidth from the catalogue"),
        ParamSpec::integer("ways", "GPUs per strategy N", "", 2, 64, 4, false,
                           "group size: DP replicas, TP ranks, pipeline stages, ..."),
        ParamSpec::integer("layers", "Layers L", "", 1, 256, 16),
        ParamSpec::integer("hidden", "Hidden size h", "", 64, 65536, 4096, true),
        ParamSpec::integer("seq", "Sequence s", "tokens", 128, 1048576, 4096, true),
        ParamSpec::integer("micro-batch", "Micro-batch b", "sequences", 1, 64, 1),
        ParamSpec::integer("microbatches", "Micro-batches M (pipeline)", "", 1, 256, 8),
        ParamSpec::integer("interleave", "Model chunks V (interleaved)", "", 2, 4, 2),
        ParamSpec::integer("experts", "Experts E (EP)", "", 2, 256, 8),
        ParamSpec::integer("top-k", "Top-k (EP)", "", 1, 8, 2),
        ParamSpec::real("efficiency", "Fraction of peak reached", "", 0.05, 1.0, 0.5, false,
                        "an assumption: real kernels reach 40–60 % of the dense peak"),
    };
}

Story ParallelismStrategiesScenario::build(const Params& p, const ScenarioInputs&) const {
    const GpuSpec& gpu = *HardwareCatalogue::builtin().find(p.text("gpu"));
    StrategySetup s;
    s.model.layers = static_cast<int>(p.integer("layers"));
    s.model.hidden = static_cast<int>(p.integer("hidden"));
    // Head dimension 128 (GPT-3, Llama): heads only constrain TP here, they add no FLOPs.
    s.model.heads = std::max(1, s.model.hidden / 128);
    s.model.seq = static_cast<int>(p.integer("seq"));
    s.model.microBatch = static_cast<int>(p.integer("micro-batch"));
    // 12·L·h² weights (Megatron-LM's count without embeddings), so per-layer sizes agree.
    s.model.params = 12.0 * s.model.layers * static_cast<double>(s.model.hidden) * s.model.hidden;
    s.ways = static_cast<int>(p.integer("ways"));
    s.microbatches = static_cast<int>(p.integer("microbatches"));
    s.interleave = static_cast<int>(p.integer("interleave"));
    s.experts = static_cast<int>(p.integer("experts"));
    s.topK = static_cast<int>(p.integer("top-k"));
    s.efficiency = p.number("efficiency");
    s.peakFlops = peakTflops(gpu, Precision::BF16).value_or(0.0) * 1e12;
    s.hbmBytesPerS = bandwidthTBs(gpu) * 1e12;
    if (s.ways > 8 && s.ways % 8 != 0)
        throw std::invalid_argument("above one 8-GPU node, N must be a multiple of 8");
    s.topology.gpusPerNode = std::min(s.ways, 8);
    s.topology.nodes = (s.ways + 7) / 8;

    auto all = std::make_shared<Timelines>();
    for (StrategyKind k : allStrategyKinds())
        all->push_back(strategyTimeline(k, s));
    const int N = s.ways, M = s.microbatches, V = s.interleave;
    const std::string where = s.topology.nodes == 1 ? std::string("one NVLink node")
                                                    : fill("%1 nodes (the network bounds groups)",
                                                           {std::to_string(s.topology.nodes)});

    Story story;
    story.provenance =
        fill("modeled on CPU: %1 at %2 % of dense BF16 peak, %3 GPUs in %4, L=%5 h=%6 s=%7 "
             "(%8parameters)",
             {gpu.name, formatSignificant(s.efficiency * 100, 3), std::to_string(N), where,
              std::to_string(s.model.layers), std::to_string(s.model.hidden),
              std::to_string(s.model.seq), formatSi(s.model.params, "")});
    auto step = [&](std::string title, std::string narration,
                    std::vector<std::pair<StrategyKind, const char*>> shown, bool bubble) {
        story.steps.push_back(
            {std::move(title), std::move(narration), 6.0, [all, shown, bubble, N, M, V](double t) {
                 Frames f;
                 for (const auto& [k, src] : shown)
                     f.items.push_back(schedule(of(*all, k), N, t));
                 const auto& [k0, src0] = shown.front();
                 f.items.push_back(bubble ? bubbleTable(*all, k0, N, M, V)
                                          : commTable(of(*all, k0), src0));
                 return f;
             }});
    };
    step("DP: one all-reduce of the gradients, hidden under backward",
         "Every GPU runs the whole model on its share of the batch. As each layer's backward "
         "finishes, its gradients are all-reduced on the communication stream while the next "
         "layer's backward runs, so most of the 2Ψ only costs what sticks out at the end.",
         {{StrategyKind::DP, kRing}}, false);
    step("ZeRO-1/2 and ZeRO-3 (FSDP): the same bytes, or 1.5× for sharded weights",
         "ZeRO-1/2 turns the all-reduce into a reduce-scatter and an all-gather: the same 2Ψ, "
         "but each GPU updates only its shard. ZeRO-3 also shards the weights, so every layer "
         "is gathered before its forward and again before its backward: 3Ψ, prefetched one "
         "layer ahead.",
         {{StrategyKind::Zero12, kZero}, {StrategyKind::Zero3, kZero}}, false);
    step("TP: four all-reduces per layer, on the critical path",
         "Each layer's matrices are split N ways. After attention and after the MLP the "
         "partial results must be summed before the next block can start: two all-reduces "
         "forward and two backward per layer, with nothing to hide behind. This is why TP stays "
         "on NVLink.",
         {{StrategyKind::TP, kMegatron}, {StrategyKind::SP, "Korthikanti et al. 2022 §4.2.2"}},
         false);
    step("CP: keys and values travel while attention runs",
         "Context parallelism splits the sequence. Each GPU's queries need every GPU's keys "
         "and values, gathered layer by layer while the local attention runs; the weights are "
         "replicated, so their gradients are all-reduced as in DP.",
         {{StrategyKind::CP, "Liu et al. 2023 (ring attention); the ring α-β model"}}, false);
    step("EP: two all-to-alls forward and two backward per MoE layer",
         "Experts live on different GPUs. Every token is sent to its top-k experts and the "
         "results are sent back: a dispatch and a combine all-to-all per layer, each way, "
         "between compute that cannot start without them.",
         {{StrategyKind::EP, "Lepikhin et al. 2020 (GShard); the ring α-β model"}}, false);
    step("PP with GPipe and 1F1B: the same bubble, different memory",
         "Layers are split into P stages and the batch into M micro-batches. The hatched idle "
         "time is the bubble, (P−1)/M of the useful time for both schedules; 1F1B starts "
         "backwards early, so a stage holds at most P micro-batches' activations instead of M.",
         {{StrategyKind::GPipe, kMegatron}, {StrategyKind::OneFOneB, kMegatron}}, true);
    step("Interleaved 1F1B: the bubble ÷ V, the sends × V",
         "Each device holds V smaller chunks of layers, so a micro-batch visits it V times. The "
         "pipeline fills V times faster, dividing the bubble by V, at the price of V times the "
         "point-to-point sends.",
         {{StrategyKind::Interleaved, kMegatron}, {StrategyKind::OneFOneB, kMegatron}}, true);
    story.steps.push_back(
        {"All strategies side by side",
         "The table is read off the timelines above: the collective each strategy needs, how "
         "often, the bytes GPU 0 sends in one step and how much of it the step could not hide.",
         6.0, [all, N](double) {
             FactsFrame f;
             f.title = fill("Per step on GPU 0, N = %1", {std::to_string(N)});
             for (const StrategyTimeline& t : *all) {
                 // Operations per kind, whatever they carry ("all-gather × 16").
                 std::vector<std::pair<ScheduleKind, long long>> counts;
                 for (const StrategyComm& c : t.comm) {
                     auto it = std::find_if(counts.begin(), counts.end(),
                                            [&](const auto& k) { return k.first == c.kind; });
                     if (it == counts.end())
                         counts.emplace_back(c.kind, c.count);
                     else
                         it->second += c.count;
                 }
                 std::string ops;
                 for (const auto& [kind, count] : counts) {
                     if (!ops.empty())
                         ops += ", ";
                     ops += fill("%1 × %2", {scheduleKindName(kind), std::to_string(count)});
                 }
                 f.rows.push_back(
                     {strategyKindName(t.kind),
                      fill("%1 · %2 sent · %3 of %4",
                           {ops.empty() ? std::string("none") : ops, formatBytes(commBytes(t)),
                            t.bubbleS > 0 ? fill("bubble %1", {formatSi(t.bubbleS, "s")})
                                          : fill("exposed %1", {formatSi(t.exposedCommS, "s")}),
                            formatSi(t.stepS, "s")}),
                      t.splits});
             }
             return Frames{{f}};
         }});
    return story;
}

} // namespace wb
