#include "parallel/memory_budget.h"

#include "engine/require.h"
#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace wb {

namespace {

bool positive(double v) {
    return v > 0 && std::isfinite(v);
}

// Names in enum order, so one table serves printing and parsing.
const std::vector<std::string> kOptimizers = {"adam", "sgd"};
const std::vector<std::string> kPrecisions = {"bf16-mixed", "fp32"};
const std::vector<std::string> kRecomputes = {"none", "selective", "full"};

template <typename E>
E parseName(const std::string& text, const std::vector<std::string>& names, const char* what) {
    const auto it = std::find(names.begin(), names.end(), text);
    if (it != names.end())
        return static_cast<E>(it - names.begin());
    std::string allowed;
    for (const auto& n : names)
        allowed += (allowed.empty() ? "" : ", ") + n;
    throw std::invalid_argument(fill("%1 '%2' must be one of %3", {what, text, allowed}));
}

} // namespace

std::string optimizerName(Optimizer o) {
    return kOptimizers[static_cast<std::size_t>(o)];
}

std::string trainingPrecisionName(TrainingPrecision p) {
    return kPrecisions[static_cast<std::size_t>(p)];
}

std::string recomputeName(Recompute r) {
    return kRecomputes[static_cast<std::size_t>(r)];
}

Optimizer parseOptimizer(const std::string& text) {
    return parseName<Optimizer>(text, kOptimizers, "optimizer");
}

TrainingPrecision parseTrainingPrecision(const std::string& text) {
    return parseName<TrainingPrecision>(text, kPrecisions, "precision");
}

Recompute parseRecompute(const std::string& text) {
    return parseName<Recompute>(text, kRecomputes, "recompute");
}

StateBytesPerParam stateBytesPerParam(Optimizer o, TrainingPrecision p) {
    const bool mixed = p == TrainingPrecision::Bf16Mixed;
    StateBytesPerParam k;
    k.weights = mixed ? 2.0 : 4.0;
    k.gradients = mixed ? 2.0 : 4.0;
    // Adam: momentum + variance (8) plus, under mixed precision, the fp32 master copy (4).
    // SGD with momentum: the momentum (4) plus the master copy under mixed precision.
    const double moments = o == Optimizer::Adam ? 8.0 : 4.0;
    k.optimizer = moments + (mixed ? 4.0 : 0.0);
    return k;
}

ModelStates modelStatesPerGpu(double psi, int zeroStage, int dp, const StateBytesPerParam& k) {
    require(positive(psi), "parameters must be a positive number");
    require(zeroStage >= 0 && zeroStage <= 3, "ZeRO stage must be 0, 1, 2 or 3");
    require(dp >= 1, "data-parallel degree must be at least 1");
    // ZeRO §5: stage 1 (P_os) shards the optimizer state, stage 2 (P_os+g) also the gradients,
    // stage 3 (P_os+g+p) also the weights; each shard is 1/N_d of the replica's.
    const double nd = dp;
    ModelStates s;
    s.optimizer = k.optimizer * psi / (zeroStage >= 1 ? nd : 1.0);
    s.gradients = k.gradients * psi / (zeroStage >= 2 ? nd : 1.0);
    s.weights = k.weights * psi / (zeroStage >= 3 ? nd : 1.0);
    return s;
}

double activationBytesPerLayer(const ActivationShape& x) {
    require(positive(x.seq) && positive(x.microBatch) && positive(x.hidden) && positive(x.heads),
            "sequence, micro-batch, hidden size and heads must be positive");
    require(x.tp >= 1, "TP must be at least 1");
    const double s = x.seq, b = x.microBatch, h = x.hidden, a = x.heads, t = x.tp;
    const double sbh = s * b * h;
    // Korthikanti Table 2. Per layer: attention 11sbh + 5as²b, MLP 19sbh, two LayerNorms 4sbh.
    // TP splits 24sbh of the 34 (and the 5as²b of attention scores) over t; SP also splits
    // the 10sbh left (LayerNorms, dropouts, the layer inputs). Selective recomputation drops
    // the 5as²b attention term; full recomputation keeps only each layer's 2sbh input.
    const double attention = 5.0 * a * s / h; // 5as²b ÷ sbh
    switch (x.recompute) {
    case Recompute::Full:
        return 2.0 * sbh;
    case Recompute::Selective:
        return x.sequenceParallel ? sbh * 34.0 / t : sbh * (10.0 + 24.0 / t);
    case Recompute::None:
        break;
    }
    return x.sequenceParallel ? sbh / t * (34.0 + attention)
                              : sbh * (10.0 + 24.0 / t + attention / t);
}

double activationBytesFirstStage(const ActivationShape& s, int layers, int pp, int interleave,
                                 int microbatches) {
    require(layers >= 1 && pp >= 1 && interleave >= 1 && microbatches >= 1,
            "layers, PP, interleave and micro-batches must be at least 1");
    // Eq. 5: p micro-batches in flight × L/p layers per stage = L layers' worth.
    const double interleaving =
        interleave > 1 ? 1.0 + (pp - 1.0) / (static_cast<double>(pp) * microbatches) : 1.0;
    return activationBytesPerLayer(s) * layers * interleaving;
}

MemoryBudget memoryBudget(const MemoryModel& model, const MemoryLayout& l) {
    const TransformerConfig& m = model.shape;
    require(l.tp >= 1 && l.pp >= 1 && l.dp >= 1, "TP, PP and DP must each be at least 1");
    require(m.layers >= 1 && m.hidden >= 1 && m.heads >= 1 && m.seq >= 1 && m.microBatch >= 1,
            "layers, hidden size, heads, sequence and micro-batch must be at least 1");
    require(m.heads % l.tp == 0, fill("%1 attention heads do not divide by TP %2",
                                      {std::to_string(m.heads), std::to_string(l.tp)}));
    require(m.layers % l.pp == 0, fill("%1 layers do not divide by PP %2",
                                       {std::to_string(m.layers), std::to_string(l.pp)}));
    require(model.bufferBytes >= 0 && std::isfinite(model.bufferBytes),
            "buffers must be 0 or more bytes");
    require(!l.sequenceParallel || l.tp > 1, "sequence parallelism needs TP > 1");
    MemoryBudget b;
    const double psi = m.params / (static_cast<double>(l.tp) * l.pp);
    b.states =
        modelStatesPerGpu(psi, l.zero, l.dp, stateBytesPerParam(model.optimizer, model.precision));
    ActivationShape a;
    a.seq = m.seq;
    a.microBatch = m.microBatch;
    a.hidden = m.hidden;
    a.heads = m.heads;
    a.tp = l.tp;
    a.sequenceParallel = l.sequenceParallel;
    a.recompute = l.recompute;
    b.activations = activationBytesFirstStage(a, m.layers, l.pp);
    b.buffers = model.bufferBytes;
    return b;
}

std::string layoutName(const MemoryLayout& l) {
    return fill("TP %1 · PP %2 · DP %3 · ZeRO-%4%5%6",
                {std::to_string(l.tp), std::to_string(l.pp), std::to_string(l.dp),
                 std::to_string(l.zero), l.sequenceParallel ? " · SP" : "",
                 l.recompute != Recompute::None
                     ? fill(" · %1 recompute", {recomputeName(l.recompute)})
                     : std::string()});
}

std::vector<LayoutFit> layoutsThatFit(const MemoryModel& model, int gpus, double hbmBytes,
                                      int gpusPerNode) {
    const TransformerConfig& m = model.shape;
    require(gpus >= 1 && gpusPerNode >= 1, "GPUs and GPUs per node must be at least 1");
    require(positive(hbmBytes), "HBM must be a positive number of bytes");
    std::vector<LayoutFit> fits;
    for (int tp = 1; tp <= std::min(gpus, gpusPerNode); ++tp) {
        if (gpusPerNode % tp != 0 || gpus % tp != 0 || m.heads % tp != 0)
            continue;
        for (int pp = 1; pp <= gpus / tp; ++pp) {
            if ((gpus / tp) % pp != 0 || m.layers % pp != 0)
                continue;
            const int dp = gpus / (tp * pp);
            for (int zero = 0; zero <= (dp > 1 ? 3 : 0); ++zero)
                for (int sp = 0; sp <= (tp > 1 ? 1 : 0); ++sp)
                    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                        const MemoryLayout l{tp, pp, dp, zero, sp == 1, r};
                        const MemoryBudget b = memoryBudget(model, l);
                        if (b.total() <= hbmBytes)
                            fits.push_back({l, b});
                    }
        }
    }
    // Least intrusive first: model parallelism costs communication on the critical path,
    // ZeRO-3 adds 50 % DP traffic, recomputation adds FLOPs (+7 % selective, +39 % full,
    // Korthikanti Table 4); SP is free with TP (same bandwidth as TP's all-reduces).
    auto key = [](const LayoutFit& f) {
        const MemoryLayout& l = f.layout;
        return std::make_tuple(l.tp * l.pp, l.zero, static_cast<int>(l.recompute),
                               !l.sequenceParallel, -l.tp);
    };
    std::stable_sort(fits.begin(), fits.end(),
                     [&](const LayoutFit& a, const LayoutFit& b) { return key(a) < key(b); });
    return fits;
}

} // namespace wb
