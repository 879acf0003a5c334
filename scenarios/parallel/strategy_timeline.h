#pragma once
// One training step of a small transformer under one parallel strategy, laid out pass by
// pass and collective by collective on GPU 0's streams (compute, and NCCL's communication
// stream), with the times the cost models give: compute from FLOPs at a fraction of the
// GPU's peak, every collective from clusterCollective() on the topology, pipelines from
// simulatePipeline(). A collective waits for the pass that produces its data, a pass waits
// for the collective it needs; so what overlaps and what sits on the critical path falls out
// of the dependencies, it is not drawn by hand.
//
// Per-layer sizes (Megatron-LM, Narayanan et al. SC'21; Korthikanti et al. 2022): 12h²
// weights per layer (4h² attention, 8h² MLP), forward FLOPs 2·weights·tokens, backward
// twice that; one activation tensor is b·s·h values.
#include "frames/schedule_frame.h"
#include "parallel/cluster_topology.h"
#include "parallel/transformer_step.h"

#include <string>
#include <vector>

namespace wb {

enum class StrategyKind { DP, Zero12, Zero3, TP, SP, CP, EP, GPipe, OneFOneB, Interleaved };
const std::vector<StrategyKind>& allStrategyKinds();
std::string strategyKindName(StrategyKind k); // "DP", "ZeRO-1/2", "ZeRO-3 (FSDP)", ...

struct StrategySetup {
    TransformerConfig model;       // params should be 12·L·h² for the per-layer sizes to agree
    int ways = 4;                  // N: ranks in the strategy's group (pipeline stages for PP)
    int microbatches = 8;          // M, pipeline schedules
    int interleave = 2;            // V, interleaved schedule
    int experts = 8;               // EP: experts per MoE layer (every layer is MoE here)
    int topK = 2;                  // EP: experts each token is routed to
    ClusterTopology topology;      // where the N ranks sit (ranks 0…N−1)
    double peakFlops = 989e12;     // dense BF16 per GPU
    double efficiency = 0.5;       // fraction of peak the kernels reach (an assumption, stated)
    double hbmBytesPerS = 3.35e12; // the optimizer step is memory-bound
};

// One kind of communication the strategy does, summed over the step for GPU 0.
struct StrategyComm {
    ScheduleKind kind = ScheduleKind::AllReduce;
    std::string what;          // "gradients", "layer outputs", ...
    double messageBytes = 0.0; // one operation's message K
    long long count = 0;       // operations per step
    std::string frequency;     // "per layer per micro-batch", ...
    double bytesSent = 0.0;    // by GPU 0 over the step
    double timeS = 0.0;        // all operations, back to back
    LinkClass link = LinkClass::NvLink;
};

struct StrategyTimeline {
    StrategyKind kind = StrategyKind::DP;
    std::vector<ScheduleRow> rows; // GPU 0 compute + communication, or one row per stage
    double stepS = 0.0;            // last bar's end
    double computeS = 0.0;         // GPU 0's passes (and optimizer), back to back
    double exposedCommS = 0.0;     // step − compute − bubble: communication nothing hid
    double bubbleS = 0.0;          // pipeline idle per stage (0 for the others)
    int microbatchesPerGpu = 1;    // micro-batches in the step shown
    // Micro-batches the whole group of N GPUs finishes in the step shown: DP, ZeRO and EP give
    // each GPU its own (N), TP, SP and CP share one, a pipeline pushes M through. Step times
    // compare only per micro-batch (or per sequence), not per step.
    int microbatchesPerGroup = 1;
    std::vector<StrategyComm> comm;
    std::string splits;           // what the strategy divides across its N GPUs
    std::string splitsShort;      // the same in two or three words: "the batch", "the layers"
    double peakActivations = 1.0; // micro-batches' activations held at once (PP: simulated)
};

// Throws std::invalid_argument for what the strategy cannot do with these sizes (heads not
// divisible by N for TP, layers by N·V for PP, experts by N for EP, N above the topology's
// GPUs, ...), naming the numbers.
StrategyTimeline strategyTimeline(StrategyKind kind, const StrategySetup& setup);

} // namespace wb
