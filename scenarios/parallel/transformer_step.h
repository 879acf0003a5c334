#pragma once
// One training step of a dense transformer under TP × PP × DP (+ ZeRO stage): FLOPs, the
// bytes each strategy communicates (kind, size, count per step, which group of ranks),
// activation memory, and the step time on a cluster topology.
//
// Sources (FACTS.md §6, §7, §9):
//  - FLOPs: 6·N·D per step with D = G·S tokens (Kaplan et al. 2020); Megatron's
//    96·G·S·L·h²·(1 + S/(6h) + V/(16·L·h)) (Narayanan et al. 2021, includes recompute).
//  - TP: 2 all-reduces forward + 2 backward per layer per micro-batch, each of b·s·h values
//    (Megatron-LM §3.2), i.e. 8·b·s·h·(t−1)/t values sent per device per layer.
//  - PP: one activation send forward and one gradient send backward per micro-batch per
//    stage boundary, b·s·h values each, V times with V interleaved chunks.
//  - DP: gradients of the local shard, Ψ = N/(t·p) values; ring all-reduce moves 2Ψ(d−1)/d
//    (ZeRO 0), reduce-scatter + all-gather the same 2Ψ (ZeRO-1/2), and ZeRO-3 adds a second
//    parameter all-gather: 3Ψ (Rajbhandari et al. §7).
//  - Activations: Korthikanti et al. Eq. 5, (s·b·h·L/t)(34 + 5·a·s/h) bytes for the first
//    1F1B stage with TP + SP, no recomputation; model states: ZeRO §3.1 (memory_budget.h).
#include "parallel/cluster_topology.h"

#include <string>
#include <vector>

namespace wb {

struct TransformerConfig {
    double params = 7e9;        // N
    int layers = 32;            // L
    int hidden = 4096;          // h
    int heads = 32;             // a
    int seq = 4096;             // s, tokens per sequence
    int microBatch = 1;         // b, sequences
    int globalBatch = 1024;     // G, sequences per step
    int vocab = 0;              // V; 0 leaves the logits term out of Megatron's formula
    double bytesPerValue = 2.0; // BF16 activations and gradients
};

// Training FLOPs ≈ 6·N·D: forward 2N and backward 4N per token (Kaplan et al. 2020 §2.1).
double trainingFlops(double params, double tokens);

enum class Strategy { TP, PP, DP };
std::string strategyName(Strategy s); // "tp", "pp", "dp"

// Which dimension varies fastest along the global rank; "tp-pp-dp" (the default) puts a TP
// group on consecutive ranks, i.e. inside a node when t ≤ GPUs per node.
struct ParallelLayout {
    int tp = 1, pp = 1, dp = 1;
    int zero = 0;       // ZeRO stage 0…3
    int interleave = 1; // V, model chunks per pipeline device
    std::vector<Strategy> order = {Strategy::TP, Strategy::PP, Strategy::DP}; // fastest first
    int gpus() const { return tp * pp * dp; }
    int size(Strategy s) const { return s == Strategy::TP ? tp : s == Strategy::PP ? pp : dp; }
    // Distance in global ranks between neighbours of `s` (product of the faster dimensions).
    int stride(Strategy s) const;
};
// "tp-pp-dp", "dp-tp-pp", ...; throws std::invalid_argument.
std::vector<Strategy> parseRankOrder(const std::string& text);
std::string rankOrderName(const std::vector<Strategy>& order);
// "TP 8 × PP 16 × DP 128 (tp-pp-dp)".
std::string layoutName(const ParallelLayout& l);

struct Traffic {
    Strategy strategy = Strategy::TP;
    Collective op = Collective::AllReduce; // unused when sendRecv
    bool sendRecv = false;
    std::string what;           // "activations, forward", "gradients", ...
    double bytes = 0.0;         // message size K of one operation
    long long count = 0;        // operations per step (per GPU)
    std::string frequency;      // "per layer per micro-batch", "per step", ...
    RankGroup group;            // rank 0's group
    ClusterCollectiveCost cost; // one operation
    double bytesPerStep() const { return cost.cost.bytesSentPerRank * static_cast<double>(count); }
    double timePerStep() const { return cost.cost.timeS * static_cast<double>(count); }
};

struct StepEstimate {
    double flops6nd = 0.0;      // 6·N·G·S
    double flopsMegatron = 0.0; // 96·G·S·L·h²(1 + s/6h + V/16Lh)
    int microbatches = 0;       // M = G / (b·d)
    double bubbleOfIdeal = 0.0; // (P−1)/(V·M)
    double activationBytesPerGpu = 0.0;
    double modelStateBytesPerGpu = 0.0; // ZeRO §3.1: 16Ψ, divided per stage
    double bufferBytesPerGpu = 0.0;     // memory_budget.h's assumed buffers
    double memoryBytesPerGpu = 0.0;     // states + activations + buffers (memoryBudget)
    // Whether one GPU's share fits its HBM: a layout that does not cannot run at any speed.
    bool fitsIn(double hbmBytes) const { return memoryBytesPerGpu <= hbmBytes; }
    std::vector<Traffic> traffic;
    double computeS = 0.0; // 6ND FLOPs per GPU at peak × efficiency
    double bubbleS = 0.0;
    double commS[3] = {0.0, 0.0, 0.0}; // TP, PP, DP per step
    double stepS = 0.0;                // compute + bubble + all communication, serialized
    double stepOverlappedS = 0.0;      // DP hidden under the backward pass (⅔ of compute)
    double hiddenDpS = 0.0;            // the DP time the backward pass hides
    double mfu = 0.0;                  // 6ND ÷ (step × GPUs × peak)
    double mfuOverlapped = 0.0;
};

// Throws std::invalid_argument with a plain message when the layout does not fit the model
// or the cluster (TP×PP×DP ≠ GPUs, heads not divisible by TP, layers by PP, the global batch
// by micro-batch × DP, ...). `peakFlops` is the dense BF16 peak per GPU in FLOP/s;
// `computeEfficiency` the fraction of it the kernels reach (an assumption, stated).
StepEstimate estimateStep(const TransformerConfig& m, const ParallelLayout& l,
                          const ClusterTopology& t, double peakFlops, double computeEfficiency);

} // namespace wb
