#include "parallel/strategy_timeline.h"

#include "engine/number_format.h"
#include "engine/require.h"
#include "engine/sentence.h"
#include "parallel/pipeline_simulator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

namespace wb {

const std::vector<StrategyKind>& allStrategyKinds() {
    static const std::vector<StrategyKind> kinds = {
        StrategyKind::DP,       StrategyKind::Zero12,     StrategyKind::Zero3, StrategyKind::TP,
        StrategyKind::SP,       StrategyKind::CP,         StrategyKind::EP,    StrategyKind::GPipe,
        StrategyKind::OneFOneB, StrategyKind::Interleaved};
    return kinds;
}

std::string strategyKindName(StrategyKind k) {
    switch (k) {
    case StrategyKind::DP:
        return "DP";
    case StrategyKind::Zero12:
        return "ZeRO-1/2";
    case StrategyKind::Zero3:
        return "ZeRO-3 (FSDP)";
    case StrategyKind::TP:
        return "TP";
    case StrategyKind::SP:
        return "TP + SP";
    case StrategyKind::CP:
        return "CP";
    case StrategyKind::EP:
        return "EP";
    case StrategyKind::GPipe:
        return "PP GPipe";
    case StrategyKind::OneFOneB:
        return "PP 1F1B";
    case StrategyKind::Interleaved:
        break;
    }
    return "PP interleaved";
}

namespace {

Collective collectiveOf(ScheduleKind k) {
    switch (k) {
    case ScheduleKind::ReduceScatter:
        return Collective::ReduceScatter;
    case ScheduleKind::AllGather:
        return Collective::AllGather;
    case ScheduleKind::AllToAll:
        return Collective::AllToAll;
    default:
        return Collective::AllReduce;
    }
}

// GPU 0's two streams. Each placement starts when its stream is free and its input is ready
// (`notBefore`), and returns the end time, which the next dependent placement waits for.
class StreamBuilder {
public:
    StreamBuilder(const StrategySetup& s)
        : m_setup(s) {
        m_compute.label = "GPU 0 compute";
        m_comm.label = "GPU 0 communication";
    }

    double compute(ScheduleKind kind, double durationS, double notBefore, const std::string& label,
                   const std::string& what) {
        const double start = std::max(m_computeFree, notBefore);
        m_computeFree = start + durationS;
        m_computeBusy += durationS;
        m_compute.bars.push_back(
            bar(start, m_computeFree, kind, label,
                fill("%1 · %2 at %3", {what, formatSi(durationS, "s"), formatSi(start, "s")})));
        m_lastComputeStart = start;
        return m_computeFree;
    }
    double lastComputeStart() const { return m_lastComputeStart; }

    // One collective over ranks 0…N−1, costed on the topology, recorded in the summary.
    double collective(ScheduleKind kind, double bytes, double notBefore, const std::string& label,
                      const std::string& what, const std::string& frequency) {
        const ClusterCollectiveCost c =
            clusterCollective(m_setup.topology, collectiveOf(kind),
                              {.first = 0, .count = m_setup.ways, .stride = 1}, bytes);
        const double start = std::max(m_commFree, notBefore);
        m_commFree = start + c.cost.timeS;
        m_comm.bars.push_back(bar(
            start, m_commFree, kind, label,
            fill("%1 of %2: %3 over %4 GPUs on %5 · %6",
                 {scheduleKindName(kind), what, formatBytes(bytes), std::to_string(m_setup.ways),
                  linkName(c.span.bottleneck), formatSi(c.cost.timeS, "s")})));
        const std::string key = fill("%1|%2", {scheduleKindName(kind), what});
        auto [it, fresh] = m_index.try_emplace(key, m_summary.size());
        if (fresh)
            m_summary.push_back({.kind = kind,
                                 .what = what,
                                 .messageBytes = bytes,
                                 .count = 0,
                                 .frequency = frequency,
                                 .bytesSent = 0.0,
                                 .timeS = 0.0,
                                 .link = c.span.bottleneck});
        StrategyComm& sc = m_summary[it->second];
        ++sc.count;
        sc.bytesSent += c.cost.bytesSentPerRank;
        sc.timeS += c.cost.timeS;
        return m_commFree;
    }

    StrategyTimeline finish(StrategyKind kind, std::string splitsShort, std::string splits) {
        StrategyTimeline t;
        t.kind = kind;
        t.rows = {m_compute, m_comm};
        t.stepS = std::max(m_computeFree, m_commFree);
        t.computeS = m_computeBusy;
        t.exposedCommS = std::max(0.0, t.stepS - t.computeS);
        t.comm = m_summary;
        t.splits = std::move(splits);
        t.splitsShort = std::move(splitsShort);
        return t;
    }

private:
    // Both streams draw in full colour; only the pipeline's model chunks are shaded.
    static ScheduleBar bar(double start, double end, ScheduleKind kind, const std::string& label,
                           std::string tip) {
        return {.startS = start,
                .endS = end,
                .kind = kind,
                .label = label,
                .shade = 0,
                .tip = std::move(tip),
                .category = -1};
    }

    const StrategySetup& m_setup;
    ScheduleRow m_compute, m_comm;
    double m_computeFree = 0.0, m_commFree = 0.0, m_computeBusy = 0.0, m_lastComputeStart = 0.0;
    std::vector<StrategyComm> m_summary;
    std::map<std::string, std::size_t> m_index;
};

struct Sizes {
    int L = 1;
    double layerWeights = 0.0; // 12h² values
    double forwardS = 0.0;     // one layer, one micro-batch, whole (unsplit) layer
    double tensorBytes = 0.0;  // one b·s·h activation tensor
    double optimizerS = 0.0;   // Adam over all weights (divide by what is sharded)
};

Sizes sizesOf(const StrategySetup& s) {
    Sizes z;
    const TransformerConfig& m = s.model;
    z.L = m.layers;
    z.layerWeights = m.params / m.layers;
    const double tokens = static_cast<double>(m.microBatch) * m.seq;
    z.forwardS = 2.0 * z.layerWeights * tokens / (s.peakFlops * s.efficiency);
    z.tensorBytes = tokens * m.hidden * m.bytesPerValue;
    // Mixed-precision Adam reads and writes about 28 bytes per weight (FP32 master, m, v,
    // the BF16 gradient and the BF16 copy): memory-bound, so bytes over HBM bandwidth.
    z.optimizerS = 28.0 * m.params / s.hbmBytesPerS;
    return z;
}

std::string layerLabel(int l) {
    return fill("L%1", {std::to_string(l)});
}

// DP and ZeRO: the whole model per GPU, gradients reduced per layer as soon as the layer's
// backward produced them (PyTorch DDP's buckets), on the communication stream.
StrategyTimeline dataParallel(StrategyKind kind, const StrategySetup& s) {
    const Sizes z = sizesOf(s);
    const double grads = z.layerWeights * s.model.bytesPerValue;
    StreamBuilder b(s);
    const bool zero3 = kind == StrategyKind::Zero3;
    double gathered = 0.0;
    if (zero3)
        gathered = b.collective(ScheduleKind::AllGather, grads, 0.0, layerLabel(0),
                                "layer weights before forward", "per layer, forward");
    double t = 0.0;
    for (int l = 0; l < z.L; ++l) {
        t = b.compute(ScheduleKind::Forward, z.forwardS, zero3 ? gathered : t, layerLabel(l),
                      fill("forward of layer %1", {std::to_string(l)}));
        if (zero3 && l + 1 < z.L) // prefetch the next layer while this one runs
            gathered = b.collective(ScheduleKind::AllGather, grads, b.lastComputeStart(),
                                    layerLabel(l + 1), "layer weights before forward",
                                    "per layer, forward");
    }
    if (zero3)
        gathered = b.collective(ScheduleKind::AllGather, grads, t, layerLabel(z.L - 1),
                                "layer weights before backward", "per layer, backward");
    double lastComm = 0.0;
    for (int l = z.L - 1; l >= 0; --l) {
        t = b.compute(ScheduleKind::Backward, 2.0 * z.forwardS, zero3 ? gathered : t, layerLabel(l),
                      fill("backward of layer %1", {std::to_string(l)}));
        const double started = b.lastComputeStart();
        if (zero3 && l > 0)
            gathered = b.collective(ScheduleKind::AllGather, grads, started, layerLabel(l - 1),
                                    "layer weights before backward", "per layer, backward");
        lastComm = b.collective(kind == StrategyKind::DP ? ScheduleKind::AllReduce
                                                         : ScheduleKind::ReduceScatter,
                                grads, t, layerLabel(l), "layer gradients", "per layer per step");
    }
    const double shard = kind == StrategyKind::DP ? 1.0 : 1.0 / s.ways;
    t = b.compute(ScheduleKind::Optimizer, z.optimizerS * shard, lastComm, "Adam",
                  kind == StrategyKind::DP ? "optimizer step on all weights"
                                           : "optimizer step on this GPU's 1/N shard");
    if (kind == StrategyKind::Zero12)
        for (int l = 0; l < z.L; ++l)
            b.collective(ScheduleKind::AllGather, grads, t, layerLabel(l), "updated weights",
                         "per layer per step");
    switch (kind) {
    case StrategyKind::DP:
        return b.finish(kind, "the batch",
                        "nothing: every GPU holds all weights, gradients and optimizer "
                        "state (16Ψ bytes); the batch is split");
    case StrategyKind::Zero12:
        return b.finish(kind, "optimizer state, gradients",
                        "optimizer state (ZeRO-1) and gradients (ZeRO-2) across the N "
                        "GPUs; same bytes on the wire as DP (2Ψ)");
    default:
        return b.finish(kind, "weights too",
                        "weights too (ZeRO-3/FSDP): gathered layer by layer, twice per "
                        "step, so 3Ψ on the wire");
    }
}

// TP, TP + SP: each layer's matrices split N ways; two all-reduces forward and two backward
// per layer sit between the passes (Megatron-LM §3.2), or with SP an all-gather before and a
// reduce-scatter after each block, the same bytes.
StrategyTimeline tensorParallel(StrategyKind kind, const StrategySetup& s) {
    const Sizes z = sizesOf(s);
    const double n = s.ways;
    const bool sp = kind == StrategyKind::SP;
    StreamBuilder b(s);
    const std::string freq = "2 per layer forward, 2 backward";
    double t = 0.0;
    auto block = [&](ScheduleKind pass, double share, int l, const char* part, bool backward) {
        const std::string what =
            fill("%1 of layer %2 %3", {backward ? "backward" : "forward", std::to_string(l), part});
        const double dur = (backward ? 2.0 : 1.0) * z.forwardS * share / n;
        if (sp) {
            // Entering a block the sequence-sharded activations are gathered; leaving it the
            // partial sums are reduce-scattered (backward: the conjugates swap).
            t = b.collective(backward ? ScheduleKind::ReduceScatter : ScheduleKind::AllGather,
                             z.tensorBytes, t, layerLabel(l), "activations into the block",
                             fill("%1 (each of AG and RS)", {freq}));
            t = b.compute(pass, dur, t, layerLabel(l), what);
            t = b.collective(backward ? ScheduleKind::AllGather : ScheduleKind::ReduceScatter,
                             z.tensorBytes, t, layerLabel(l), "block outputs",
                             fill("%1 (each of AG and RS)", {freq}));
        } else {
            t = b.compute(pass, dur, t, layerLabel(l), what);
            t = b.collective(ScheduleKind::AllReduce, z.tensorBytes, t, layerLabel(l),
                             "block outputs", freq);
        }
    };
    for (int l = 0; l < z.L; ++l) {
        block(ScheduleKind::Forward, 1.0 / 3.0, l, "attention", false);
        block(ScheduleKind::Forward, 2.0 / 3.0, l, "MLP", false);
    }
    for (int l = z.L - 1; l >= 0; --l) {
        block(ScheduleKind::Backward, 2.0 / 3.0, l, "MLP", true);
        block(ScheduleKind::Backward, 1.0 / 3.0, l, "attention", true);
    }
    b.compute(ScheduleKind::Optimizer, z.optimizerS / n, t, "Adam",
              "optimizer step on 1/N of "
              "the weights");
    return b.finish(kind, sp ? "matrices and sequence" : "layer matrices",
                    sp ? "weights and activations: the layer's matrices N ways, and the "
                         "layer-norm/dropout activations along the sequence too"
                       : "weights: each layer's matrices N ways (activations inside the "
                         "blocks too)");
}

// CP: the sequence split N ways; attention needs every rank's keys and values, gathered
// while the rank's own attention runs (ring attention), and the gradients of the replicated
// weights are all-reduced across the CP group like DP's.
StrategyTimeline contextParallel(const StrategySetup& s) {
    const Sizes z = sizesOf(s);
    const double n = s.ways;
    const double grads = z.layerWeights * s.model.bytesPerValue;
    const double kv = 2.0 * z.tensorBytes; // K and V for the whole sequence
    StreamBuilder b(s);
    double t = 0.0;
    for (int l = 0; l < z.L; ++l) {
        const double gathered = b.collective(ScheduleKind::AllGather, kv, t, layerLabel(l),
                                             "keys and values", "per layer, forward and backward");
        const double attn =
            b.compute(ScheduleKind::Forward, z.forwardS / 3.0 / n, t, layerLabel(l),
                      fill("forward attention of layer %1 (own chunk)", {std::to_string(l)}));
        t = b.compute(ScheduleKind::Forward, z.forwardS * 2.0 / 3.0 / n, std::max(attn, gathered),
                      layerLabel(l), fill("forward MLP of layer %1", {std::to_string(l)}));
    }
    double lastComm = t;
    for (int l = z.L - 1; l >= 0; --l) {
        t = b.compute(ScheduleKind::Backward, 2.0 * z.forwardS * 2.0 / 3.0 / n, t, layerLabel(l),
                      fill("backward MLP of layer %1", {std::to_string(l)}));
        const double gathered = b.collective(ScheduleKind::AllGather, kv, t, layerLabel(l),
                                             "keys and values", "per layer, forward and backward");
        const double attn =
            b.compute(ScheduleKind::Backward, 2.0 * z.forwardS / 3.0 / n, t, layerLabel(l),
                      fill("backward attention of layer %1", {std::to_string(l)}));
        t = std::max(attn, b.collective(ScheduleKind::ReduceScatter, kv, gathered, layerLabel(l),
                                        "key and value gradients", "per layer backward"));
        lastComm = b.collective(ScheduleKind::AllReduce, grads, t, layerLabel(l), "layer gradients",
                                "per layer per step");
    }
    b.compute(ScheduleKind::Optimizer, z.optimizerS, lastComm, "Adam", "optimizer step");
    return b.finish(StrategyKind::CP, "the sequence",
                    "activations: the sequence N ways (long context); "
                    "weights are replicated");
}

// EP: every layer's MLP is a mixture of E experts, E/N per GPU; tokens go to their top-k
// experts' GPUs and back (all-to-all dispatch and combine), forward and backward. Attention
// weights are replicated and their gradients all-reduced.
StrategyTimeline expertParallel(const StrategySetup& s) {
    const Sizes z = sizesOf(s);
    const double k = s.topK;
    const double attnGrads = z.layerWeights / 3.0 * s.model.bytesPerValue;
    const double routed = z.tensorBytes * k; // each token's hidden state to k experts
    // Per direction of data: dispatch and combine each run once forward and once backward.
    const std::string freq = "1 per layer forward, 1 backward";
    StreamBuilder b(s);
    double t = 0.0;
    for (int l = 0; l < z.L; ++l) {
        t = b.compute(ScheduleKind::Forward, z.forwardS / 3.0, t, layerLabel(l),
                      fill("forward attention of layer %1", {std::to_string(l)}));
        t = b.collective(ScheduleKind::AllToAll, routed, t, layerLabel(l), "tokens to experts",
                         freq);
        t = b.compute(ScheduleKind::Forward, z.forwardS * 2.0 / 3.0 * k, t, layerLabel(l),
                      fill("forward of the experts of layer %1", {std::to_string(l)}));
        t = b.collective(ScheduleKind::AllToAll, routed, t, layerLabel(l), "expert outputs back",
                         freq);
    }
    double lastComm = t;
    for (int l = z.L - 1; l >= 0; --l) {
        t = b.collective(ScheduleKind::AllToAll, routed, t, layerLabel(l), "expert outputs back",
                         freq);
        t = b.compute(ScheduleKind::Backward, 2.0 * z.forwardS * 2.0 / 3.0 * k, t, layerLabel(l),
                      fill("backward of the experts of layer %1", {std::to_string(l)}));
        t = b.collective(ScheduleKind::AllToAll, routed, t, layerLabel(l), "tokens to experts",
                         freq);
        t = b.compute(ScheduleKind::Backward, 2.0 * z.forwardS / 3.0, t, layerLabel(l),
                      fill("backward attention of layer %1", {std::to_string(l)}));
        lastComm = b.collective(ScheduleKind::AllReduce, attnGrads, t, layerLabel(l),
                                "attention gradients", "per layer per step");
    }
    b.compute(ScheduleKind::Optimizer,
              z.optimizerS / 3.0 + z.optimizerS * 2.0 / 3.0 * s.experts / s.ways,
              std::max(t, lastComm), "Adam", "optimizer step (attention + this GPU's experts)");
    return b.finish(StrategyKind::EP, "the experts",
                    "experts: E/N of each MoE layer's experts per GPU; "
                    "attention is replicated");
}

StrategyTimeline pipeline(StrategyKind kind, const StrategySetup& s) {
    const Sizes z = sizesOf(s);
    const int P = s.ways, M = s.microbatches;
    const int V = kind == StrategyKind::Interleaved ? s.interleave : 1;
    require(z.L % (P * V) == 0, fill("%1 layers do not divide into %2 stages × %3 chunks",
                                     {std::to_string(z.L), std::to_string(P), std::to_string(V)}));
    const ClusterCollectiveCost send =
        clusterSendRecv(s.topology, 0, std::min(1, P - 1), z.tensorBytes);
    const double sendS = P > 1 ? send.cost.timeS : 0.0;
    const PipelineScheduleKind sk = kind == StrategyKind::GPipe ? PipelineScheduleKind::GPipe
                                    : kind == StrategyKind::OneFOneB
                                        ? PipelineScheduleKind::OneFOneB
                                        : PipelineScheduleKind::Interleaved;
    const double stageForward = z.forwardS * z.L / P;
    const PipelineRun run =
        simulatePipeline(sk, P, M, V, {stageForward, 2.0 * stageForward, sendS});
    StrategyTimeline t;
    t.kind = kind;
    t.microbatchesPerGpu = M;
    for (int d = 0; d < P; ++d) {
        ScheduleRow row;
        row.label = fill("stage %1", {std::to_string(d)});
        row.idleIsBubble = true;
        t.rows.push_back(row);
    }
    for (const PipelineOp& op : run.ops) {
        ScheduleBar bar;
        bar.startS = op.startS;
        bar.endS = op.endS;
        bar.kind = op.backward ? ScheduleKind::Backward : ScheduleKind::Forward;
        bar.label = std::to_string(op.microbatch + 1);
        bar.shade = op.chunk;
        bar.tip =
            fill("stage %1 · micro-batch %2 %3%4 · %5–%6",
                 {std::to_string(op.device), std::to_string(op.microbatch + 1),
                  op.backward ? "backward" : "forward",
                  V > 1 ? fill(" · model chunk %1", {std::to_string(op.chunk)}) : std::string(),
                  formatSi(op.startS, "s"), formatSi(op.endS, "s")});
        t.rows[static_cast<std::size_t>(op.device)].bars.push_back(bar);
    }
    t.peakActivations = run.peakActivationsInFlight;
    t.splitsShort = "the layers";
    t.stepS = run.makespanS;
    t.computeS = run.busyPerDeviceS;
    t.bubbleS = run.bubbleS;
    t.exposedCommS = 0.0; // the sends show up inside the bubble (they delay the next stage)
    if (P > 1) {
        // A middle stage receives and sends one activation per micro-batch per chunk forward,
        // and one gradient backward.
        StrategyComm c;
        c.kind = ScheduleKind::SendRecv;
        c.what = "activations forward, their gradients backward";
        c.messageBytes = z.tensorBytes;
        c.count = 2LL * M * V;
        c.frequency = V > 1 ? "2 per micro-batch per model chunk" : "2 per micro-batch";
        c.bytesSent = z.tensorBytes * static_cast<double>(c.count);
        c.timeS = sendS * static_cast<double>(c.count);
        c.link = send.span.bottleneck;
        t.comm.push_back(c);
    }
    t.splits = kind == StrategyKind::GPipe
                   ? "layers: L/P per stage; holds all M micro-batches' activations at once"
               : kind == StrategyKind::OneFOneB
                   ? "layers: L/P per stage; at most P micro-batches in flight"
                   : "layers: V chunks of L/(P·V) per stage; bubble ÷ V for V× the sends";
    return t;
}

// The timeline of one strategy, before the group's micro-batch count is set beside it.
StrategyTimeline strategyTimelineOf(StrategyKind kind, const StrategySetup& s) {
    s.topology.validate();
    const TransformerConfig& m = s.model;
    require(m.params > 0 && std::isfinite(m.params), "parameters must be a positive number");
    require(m.layers >= 1 && m.hidden >= 1 && m.heads >= 1 && m.seq >= 1 && m.microBatch >= 1,
            "layers, hidden size, heads, sequence and micro-batch must each be at least 1");
    require(s.ways >= 1 && s.ways <= s.topology.gpus(),
            fill("the group of %1 GPUs does not fit in the topology's %2",
                 {std::to_string(s.ways), std::to_string(s.topology.gpus())}));
    require(s.microbatches >= 1 && s.interleave >= 1,
            "micro-batches and chunks must be at least 1");
    require(std::isfinite(s.peakFlops) && s.peakFlops > 0 && s.efficiency > 0 &&
                s.efficiency <= 1 && std::isfinite(s.hbmBytesPerS) && s.hbmBytesPerS > 0,
            "peak FLOP/s and HBM bandwidth must be positive, the efficiency in (0, 1]");
    require(static_cast<long long>(m.layers) * std::max(s.microbatches, 1) <= 100000,
            "layers × micro-batches above 100,000 is too many passes to draw");
    switch (kind) {
    case StrategyKind::TP:
    case StrategyKind::SP:
        require(m.heads % s.ways == 0, fill("%1 attention heads do not divide by TP %2",
                                            {std::to_string(m.heads), std::to_string(s.ways)}));
        return tensorParallel(kind, s);
    case StrategyKind::CP:
        require(m.seq % s.ways == 0, fill("the sequence of %1 tokens does not divide by CP %2",
                                          {std::to_string(m.seq), std::to_string(s.ways)}));
        return contextParallel(s);
    case StrategyKind::EP:
        require(s.topK >= 1 && s.topK <= s.experts && s.experts % s.ways == 0,
                fill("%1 experts do not divide by EP %2 (or top-k is not between 1 and the "
                     "experts)",
                     {std::to_string(s.experts), std::to_string(s.ways)}));
        return expertParallel(s);
    case StrategyKind::GPipe:
    case StrategyKind::OneFOneB:
    case StrategyKind::Interleaved:
        return pipeline(kind, s);
    default:
        return dataParallel(kind, s);
    }
}

} // namespace

StrategyTimeline strategyTimeline(StrategyKind kind, const StrategySetup& s) {
    StrategyTimeline t = strategyTimelineOf(kind, s);
    switch (kind) {
    case StrategyKind::TP:
    case StrategyKind::SP:
    case StrategyKind::CP:
        t.microbatchesPerGroup = 1;
        break;
    case StrategyKind::GPipe:
    case StrategyKind::OneFOneB:
    case StrategyKind::Interleaved:
        t.microbatchesPerGroup = s.microbatches;
        break;
    default: // DP, ZeRO and EP: every GPU runs its own micro-batch
        t.microbatchesPerGroup = s.ways;
    }
    return t;
}

} // namespace wb
