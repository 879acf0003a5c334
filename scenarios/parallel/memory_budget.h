#pragma once
// Bytes per GPU of training a dense transformer: model states (weights, gradients, optimizer
// state) under ZeRO, activations under TP / SP / recomputation, and the budget against a GPU's
// HBM with the cheapest layouts that fit (ranked by estimated step time). The one place these
// formulas live: the step model, the memory-budget scenario and `calc memory` / `calc activations`
// all call them.
//
// Sources (FACTS.md §6, §7):
//  - Model states: Rajbhandari et al., "ZeRO", SC'20 §3.1: mixed-precision Adam holds 2Ψ bf16
//    weights, 2Ψ bf16 gradients and KΨ optimizer state (fp32 master weights, momentum,
//    variance: K = 12), 16Ψ in all; P_os divides the optimizer state by N_d, P_os+g also the
//    gradients, P_os+g+p everything (§5.1–5.3, Figure 1, Table 1).
//  - Activations: Korthikanti et al., arXiv:2205.05198, Table 2, bytes per layer with 16-bit
//    activations and 1-byte dropout masks; the first 1F1B stage holds L layers' worth (Eq. 5).
#include "parallel/transformer_step.h"
#include "roofline/roofline_model.h"

#include <string>
#include <vector>

namespace wb {

enum class Optimizer { Adam, Sgd };
enum class TrainingPrecision { Bf16Mixed, Fp32 };
enum class Recompute { None, Selective, Full };

// "adam" | "sgd", "bf16-mixed" | "fp32", "none" | "selective" | "full"; the parsers throw
// std::invalid_argument naming the allowed values.
std::string optimizerName(Optimizer o);
std::string trainingPrecisionName(TrainingPrecision p);
std::string recomputeName(Recompute r);
Optimizer parseOptimizer(const std::string& text);
TrainingPrecision parseTrainingPrecision(const std::string& text);
Recompute parseRecompute(const std::string& text);

// Bytes held per parameter before any sharding. ZeRO §3.1 derives bf16-mixed Adam as 2 + 2 + 12.
// The others follow the same accounting (DERIVED, not in the paper): fp32 Adam 4 + 4 + 8
// (momentum and variance, no separate master copy); SGD with momentum keeps one fp32 momentum
// (4) beside the fp32 master copy under mixed precision (K = 8), or the momentum alone in fp32.
struct StateBytesPerParam {
    double weights = 2.0;
    double gradients = 2.0;
    double optimizer = 12.0; // ZeRO's K
    double total() const { return weights + gradients + optimizer; }
};
StateBytesPerParam stateBytesPerParam(Optimizer o, TrainingPrecision p);
// The math the step runs in, whose dense peak the time estimate uses: BF16 tensor cores under
// mixed precision, FP32 otherwise.
Precision trainingMathPrecision(TrainingPrecision p);

struct ModelStates {
    double weights = 0.0;
    double gradients = 0.0;
    double optimizer = 0.0;
    double total() const { return weights + gradients + optimizer; }
};
// Per GPU for `psi` parameters held by one data-parallel replica slice (N/(t·p)), sharded over
// `dp` ranks by ZeRO stage 0…3. Throws std::invalid_argument on a bad stage or count.
ModelStates modelStatesPerGpu(double psi, int zeroStage, int dp,
                              const StateBytesPerParam& k = StateBytesPerParam{});

// One transformer layer's activations for a micro-batch (Korthikanti Table 2).
struct ActivationShape {
    double seq = 2048;     // s
    double microBatch = 1; // b
    double hidden = 4096;  // h
    double heads = 32;     // a
    int tp = 1;            // t
    bool sequenceParallel = false;
    Recompute recompute = Recompute::None;
};
// Throws std::invalid_argument for non-positive sizes or TP.
double activationBytesPerLayer(const ActivationShape& s);
// The first pipeline stage under 1F1B stores L layers' worth whatever p (Eq. 5); interleaving
// V chunks multiplies by 1 + (p−1)/(p·m) with m micro-batches.
double activationBytesFirstStage(const ActivationShape& s, int layers, int pp = 1,
                                 int interleave = 1, int microbatches = 1);

// A model (the step model's description: N, L, h, a, s, b), how it is trained, and a layout:
// everything one GPU must hold.
struct MemoryModel {
    TransformerConfig shape;
    Optimizer optimizer = Optimizer::Adam;
    TrainingPrecision precision = TrainingPrecision::Bf16Mixed;
    // Buffers: CUDA context, NCCL and fused-gradient buckets, allocator slack. An assumption
    // the user sets (illustrative default), not a paper's number.
    double bufferBytes = 2e9;
};
struct MemoryLayout {
    int tp = 1, pp = 1, dp = 1, zero = 0;
    bool sequenceParallel = false;
    Recompute recompute = Recompute::None;
    int gpus() const { return tp * pp * dp; }
    bool operator==(const MemoryLayout&) const = default;
};
struct MemoryBudget {
    ModelStates states;
    double activations = 0.0;
    double buffers = 0.0;
    double total() const { return states.total() + activations + buffers; }
};
// Throws std::invalid_argument when the layout does not divide the model (heads by TP,
// layers by PP) or a value is out of range.
MemoryBudget memoryBudget(const MemoryModel& m, const MemoryLayout& l);
std::string layoutName(const MemoryLayout& l); // "TP 8 · PP 2 · DP 4 · ZeRO-1 · SP · selective"

// What a layout costs in time, so that layouts are ranked by their cost rather than by a rule:
// estimateStep (transformer_step.h) gives compute at an assumed fraction of peak, the pipeline
// bubble, TP's per-layer all-reduces on NVLink or the network, PP's sends and DP's gradient
// traffic (ZeRO-3 moves 1.5× DP's volume, ZeRO §7) with DP hidden under the backward pass;
// recomputation adds its forward FLOPs on top.
struct LayoutCostBasis {
    ClusterTopology cluster; // gpusPerNode, NVLink and network per GPU; nodes follow the GPUs
    double peakFlops = 0.0;  // dense peak per GPU, FLOP/s (the catalogue's)
    double efficiency = 0.5; // fraction of peak the kernels reach: an assumption
};
// The cluster of `gpus` GPUs: whole nodes of cluster.gpusPerNode, or one smaller node when
// fewer GPUs than a node. Throws std::invalid_argument when the GPUs do not fill whole nodes.
ClusterTopology clusterOfGpus(const LayoutCostBasis& basis, int gpus);

// Extra compute of recomputation, as a fraction of the step's compute without it. Full
// recomputation runs every layer's forward again: 2 of the 6 FLOPs per parameter per token,
// +1/3 (Korthikanti et al. §5 measure +39 % in time on 22B, Table 4). Selective recomputes
// the attention scores: 72·b·s·L·h²·(s/6h) extra on 72·b·s·L·h²·(1 + s/6h), i.e.
// (s/6h) / (1 + s/6h): 2.7 % for GPT-3 as §5 states.
double recomputeComputeOverhead(Recompute r, const TransformerConfig& m);

struct LayoutCost {
    StepEstimate step;       // compute, bubble, traffic; DP overlapped with the backward pass
    double recomputeS = 0.0; // compute of the recomputed forward passes
    double computeS() const { return step.computeS; }
    double tpS() const { return step.commS[0]; }
    // The bubble grows with everything a stage computes, recomputation included.
    double ppS() const { return step.bubbleS + step.commS[1] + recomputeS * step.bubbleOfIdeal; }
    double dpExposedS() const { return step.commS[2] - step.hiddenDpS; }
    double stepS() const { return step.stepOverlappedS + recomputeS * (1.0 + step.bubbleOfIdeal); }
    // Time beyond compute alone, as a fraction of it: what the layout costs.
    double overhead() const { return stepS() / step.computeS - 1.0; }
};
// Throws std::invalid_argument when the layout does not fit the model, the cluster or the
// global batch (m.shape.globalBatch must divide by micro-batch × DP).
LayoutCost layoutCost(const MemoryModel& m, const MemoryLayout& l, const LayoutCostBasis& basis);

// "What layout does this force": every layout of `gpus` GPUs (TP within one node, dividing the
// heads; PP dividing the layers; DP dividing the global batch into micro-batches; ZeRO 0…3; SP
// with TP; recompute none/selective/full) costed and budgeted, cheapest first: the lowest
// estimated step time (to a millionth), then the lower ZeRO stage, less recomputation, no SP,
// smaller TP, smaller PP. `fits` says whether its budget is within `hbmBytes`.
struct LayoutFit {
    MemoryLayout layout;
    MemoryBudget budget;
    LayoutCost cost;
    bool fits = false;
};
std::vector<LayoutFit> rankLayouts(const MemoryModel& m, int gpus, double hbmBytes,
                                   const LayoutCostBasis& basis);
// rankLayouts' layouts that fit, in the same order.
std::vector<LayoutFit> layoutsThatFit(const MemoryModel& m, int gpus, double hbmBytes,
                                      const LayoutCostBasis& basis);

} // namespace wb
