#include "parallel/transformer_step.h"

#include "engine/require.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"
#include "parallel/pipeline_schedule.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace wb {

double trainingFlops(double params, double tokens) {
    return 6.0 * params * tokens;
}

std::string strategyName(Strategy s) {
    return s == Strategy::TP ? "tp" : s == Strategy::PP ? "pp" : "dp";
}

int ParallelLayout::stride(Strategy s) const {
    int st = 1;
    for (Strategy o : order) {
        if (o == s)
            return st;
        st *= size(o);
    }
    return st;
}

std::vector<Strategy> parseRankOrder(const std::string& text) {
    std::vector<Strategy> out;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, '-')) {
        if (part == "tp")
            out.push_back(Strategy::TP);
        else if (part == "pp")
            out.push_back(Strategy::PP);
        else if (part == "dp")
            out.push_back(Strategy::DP);
        else
            throw std::invalid_argument(fill("rank order '%1' must name tp, pp and dp once each, "
                                             "fastest first (e.g. tp-pp-dp)",
                                             {text}));
    }
    auto has = [&](Strategy s) { return std::count(out.begin(), out.end(), s) == 1; };
    if (out.size() != 3 || !has(Strategy::TP) || !has(Strategy::PP) || !has(Strategy::DP))
        throw std::invalid_argument(fill("rank order '%1' must name tp, pp and dp once each, "
                                         "fastest first (e.g. tp-pp-dp)",
                                         {text}));
    return out;
}

std::string rankOrderName(const std::vector<Strategy>& order) {
    std::string s;
    for (Strategy o : order) {
        if (!s.empty())
            s += '-';
        s += strategyName(o);
    }
    return s;
}

namespace {} // namespace

StepEstimate estimateStep(const TransformerConfig& m, const ParallelLayout& l,
                          const ClusterTopology& t, double peakFlops, double computeEfficiency) {
    t.validate();
    require(m.params > 0 && std::isfinite(m.params), "parameters must be a positive number");
    require(m.layers >= 1 && m.hidden >= 1 && m.heads >= 1 && m.seq >= 1 && m.microBatch >= 1 &&
                m.globalBatch >= 1,
            "layers, hidden size, heads, sequence and batch sizes must be at least 1");
    require(l.tp >= 1 && l.pp >= 1 && l.dp >= 1, "TP, PP and DP must each be at least 1");
    require(l.zero >= 0 && l.zero <= 3, "ZeRO stage must be 0, 1, 2 or 3");
    require(l.interleave >= 1, "interleaving must be at least 1");
    require(static_cast<long long>(l.tp) * l.pp * l.dp == t.gpus(),
            fill("TP×PP×DP = %1 but the cluster has %2 GPUs",
                 {std::to_string(static_cast<long long>(l.tp) * l.pp * l.dp),
                  std::to_string(t.gpus())}));
    require(m.heads % l.tp == 0, fill("%1 attention heads do not divide by TP %2",
                                      {std::to_string(m.heads), std::to_string(l.tp)}));
    require(m.hidden % m.heads == 0, "the hidden size must divide by the number of heads");
    require(m.layers % (l.pp * l.interleave) == 0,
            fill("%1 layers do not divide into PP × interleave = %2 chunks",
                 {std::to_string(m.layers), std::to_string(l.pp * l.interleave)}));
    require(m.globalBatch % (m.microBatch * l.dp) == 0,
            fill("the global batch %1 does not divide by micro-batch × DP = %2",
                 {std::to_string(m.globalBatch), std::to_string(m.microBatch * l.dp)}));
    require(peakFlops > 0 && computeEfficiency > 0 && computeEfficiency <= 1,
            "peak FLOP/s must be positive and the compute efficiency in (0, 1]");

    StepEstimate e;
    const double s = m.seq, b = m.microBatch, h = m.hidden, L = m.layers;
    const double G = m.globalBatch;
    e.flops6nd = trainingFlops(m.params, G * s);
    e.flopsMegatron = 96.0 * G * s * L * h * h *
                      (1.0 + s / (6.0 * h) + static_cast<double>(m.vocab) / (16.0 * L * h));
    e.microbatches = m.globalBatch / (m.microBatch * l.dp);
    e.bubbleOfIdeal = pipelineBubble(l.pp, e.microbatches, l.interleave).ofIdeal;
    // What one GPU holds comes from the memory model (`calc memory-fit` and memory-budget use
    // it too): bf16-mixed Adam states under ZeRO, first-stage activations with TP + SP and no
    // recomputation, and its assumed buffers.
    MemoryModel memoryModel;
    memoryModel.shape = m;
    const MemoryBudget memory = memoryBudget(memoryModel, {.tp = l.tp,
                                                           .pp = l.pp,
                                                           .dp = l.dp,
                                                           .zero = l.zero,
                                                           .sequenceParallel = l.tp > 1,
                                                           .recompute = Recompute::None});
    e.activationBytesPerGpu = memory.activations;
    e.modelStateBytesPerGpu = memory.states.total();
    e.bufferBytesPerGpu = memory.buffers;
    e.memoryBytesPerGpu = memory.total();
    const double psiLocal = m.params / (l.tp * l.pp); // values held by one model replica slice

    const double activation = b * s * h * m.bytesPerValue; // one b·s·h tensor
    const double layersPerStage = L / l.pp;
    const auto M = static_cast<long long>(e.microbatches);
    if (l.tp > 1) {
        Traffic tr;
        tr.strategy = Strategy::TP;
        tr.op = Collective::AllReduce;
        tr.what = "layer outputs (2 forward, 2 backward per layer)";
        tr.bytes = activation;
        tr.count = 4LL * static_cast<long long>(layersPerStage) * M;
        tr.frequency = "4 per layer per micro-batch";
        tr.group = {0, l.tp, l.stride(Strategy::TP)};
        tr.cost = clusterCollective(t, tr.op, tr.group, tr.bytes);
        e.traffic.push_back(tr);
    }
    if (l.pp > 1) {
        Traffic tr;
        tr.strategy = Strategy::PP;
        tr.sendRecv = true;
        tr.what = "activations forward, their gradients backward";
        tr.bytes = activation / l.tp; // Megatron's scatter/gather: b·s·h/t per TP rank
        tr.count = 2LL * M * l.interleave;
        tr.frequency = l.interleave > 1 ? "2 per micro-batch per model chunk" : "2 per micro-batch";
        tr.group = {0, 2, l.stride(Strategy::PP)};
        tr.cost = clusterSendRecv(t, 0, l.stride(Strategy::PP), tr.bytes);
        e.traffic.push_back(tr);
    }
    if (l.dp > 1) {
        const RankGroup g{0, l.dp, l.stride(Strategy::DP)};
        const double grads = psiLocal * m.bytesPerValue;
        auto add = [&](Collective op, const std::string& what) {
            Traffic tr;
            tr.strategy = Strategy::DP;
            tr.op = op;
            tr.what = what;
            tr.bytes = grads;
            tr.count = 1;
            tr.frequency = "once per step";
            tr.group = g;
            tr.cost = clusterCollective(t, op, g, grads);
            e.traffic.push_back(tr);
        };
        if (l.zero == 0) {
            add(Collective::AllReduce, "gradients");
        } else {
            add(Collective::ReduceScatter, "gradients to their owners");
            add(Collective::AllGather,
                l.zero == 3 ? "parameters before forward" : "updated parameters");
            if (l.zero == 3)
                add(Collective::AllGather, "parameters again before backward");
        }
    }

    e.computeS = e.flops6nd / (t.gpus() * peakFlops * computeEfficiency);
    e.bubbleS = e.computeS * e.bubbleOfIdeal;
    for (const Traffic& tr : e.traffic)
        e.commS[static_cast<int>(tr.strategy)] += tr.timePerStep();
    const double comm = e.commS[0] + e.commS[1] + e.commS[2];
    e.stepS = e.computeS + e.bubbleS + comm;
    // DP traffic overlaps the backward pass (⅔ of the compute); TP and PP sit on the critical
    // path in this model.
    e.hiddenDpS = std::min(e.commS[2], e.computeS * 2.0 / 3.0);
    e.stepOverlappedS = e.stepS - e.hiddenDpS;
    e.mfu = e.flops6nd / (e.stepS * t.gpus() * peakFlops);
    e.mfuOverlapped = e.flops6nd / (e.stepOverlappedS * t.gpus() * peakFlops);
    return e;
}

std::string layoutName(const ParallelLayout& l) {
    return fill("TP %1 × PP %2 × DP %3 (%4)", {std::to_string(l.tp), std::to_string(l.pp),
                                               std::to_string(l.dp), rankOrderName(l.order)});
}
} // namespace wb
