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

Precision trainingMathPrecision(TrainingPrecision p) {
    return p == TrainingPrecision::Bf16Mixed ? Precision::BF16 : Precision::FP32;
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

ClusterTopology clusterOfGpus(const LayoutCostBasis& basis, int gpus) {
    require(gpus >= 1 && basis.cluster.gpusPerNode >= 1,
            "GPUs and GPUs per node must be at least 1");
    ClusterTopology t = basis.cluster;
    if (gpus < t.gpusPerNode) {
        t.gpusPerNode = gpus;
        t.nodes = 1;
    } else {
        require(gpus % t.gpusPerNode == 0,
                fill("%1 GPUs do not fill whole nodes of %2",
                     {std::to_string(gpus), std::to_string(t.gpusPerNode)}));
        t.nodes = gpus / t.gpusPerNode;
    }
    return t;
}

double recomputeComputeOverhead(Recompute r, const TransformerConfig& m) {
    require(m.seq >= 1 && m.hidden >= 1, "sequence and hidden size must be at least 1");
    const double attention = m.seq / (6.0 * m.hidden); // s/6h
    switch (r) {
    case Recompute::Full:
        return 2.0 / 6.0;
    case Recompute::Selective:
        return attention / (1.0 + attention);
    case Recompute::None:
        break;
    }
    return 0.0;
}

LayoutCost layoutCost(const MemoryModel& m, const MemoryLayout& l, const LayoutCostBasis& basis) {
    TransformerConfig shape = m.shape;
    // DP moves gradients and TP / PP activations in the training precision's bytes.
    shape.bytesPerValue = stateBytesPerParam(m.optimizer, m.precision).gradients;
    const ParallelLayout p{.tp = l.tp, .pp = l.pp, .dp = l.dp, .zero = l.zero};
    LayoutCost c;
    c.step =
        estimateStep(shape, p, clusterOfGpus(basis, l.gpus()), basis.peakFlops, basis.efficiency);
    c.recomputeS = c.step.computeS * recomputeComputeOverhead(l.recompute, shape);
    return c;
}

std::vector<LayoutFit> rankLayouts(const MemoryModel& model, int gpus, double hbmBytes,
                                   const LayoutCostBasis& basis) {
    const TransformerConfig& m = model.shape;
    require(positive(hbmBytes), "HBM must be a positive number of bytes");
    const int perNode = clusterOfGpus(basis, gpus).gpusPerNode;
    std::vector<LayoutFit> all;
    for (int tp = 1; tp <= perNode; ++tp) {
        if (perNode % tp != 0 || m.heads % tp != 0)
            continue;
        for (int pp = 1; pp <= gpus / tp; ++pp) {
            if ((gpus / tp) % pp != 0 || m.layers % pp != 0)
                continue;
            const int dp = gpus / (tp * pp);
            if (m.globalBatch % (static_cast<long long>(m.microBatch) * dp) != 0)
                continue;
            for (int zero = 0; zero <= (dp > 1 ? 3 : 0); ++zero)
                for (int sp = 0; sp <= (tp > 1 ? 1 : 0); ++sp)
                    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                        const MemoryLayout l{tp, pp, dp, zero, sp == 1, r};
                        const MemoryBudget b = memoryBudget(model, l);
                        all.push_back({l, b, layoutCost(model, l, basis), b.total() <= hbmBytes});
                    }
        }
    }
    // Cheapest first. Equal costs (ZeRO-1 and -2 move what DP moves; SP what TP moves) fall to
    // the simpler layout; the cost is compared to a millionth so rounding cannot reorder them.
    auto key = [](const LayoutFit& f) {
        const MemoryLayout& l = f.layout;
        return std::make_tuple(std::llround(f.cost.overhead() * 1e6), l.zero,
                               static_cast<int>(l.recompute), l.sequenceParallel, l.tp, l.pp);
    };
    std::stable_sort(all.begin(), all.end(),
                     [&](const LayoutFit& a, const LayoutFit& b) { return key(a) < key(b); });
    return all;
}

std::vector<LayoutFit> layoutsThatFit(const MemoryModel& model, int gpus, double hbmBytes,
                                      const LayoutCostBasis& basis) {
    std::vector<LayoutFit> fits;
    for (LayoutFit& f : rankLayouts(model, gpus, hbmBytes, basis))
        if (f.fits)
            fits.push_back(std::move(f));
    return fits;
}

} // namespace wb
