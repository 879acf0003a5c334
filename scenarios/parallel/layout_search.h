#pragma once
// The "best layout" search of fabric-mapping: every TP × PP × DP factorisation of the cluster's
// GPUs that the model allows (heads divide by TP, layers by PP, the global batch by micro-batch ×
// DP), in every rank order, costed by estimateStep. Layouts whose share does not fit one GPU's
// HBM rank after every one that does (they cannot run; the least memory first); among those
// that fit the fastest step with
// DP overlapped wins, the time the lesson shows (ties: the smaller TP, then PP). Nothing is
// ranked by rule of thumb: "TP inside the node" falls out of the costs.
#include "parallel/transformer_step.h"

#include <limits>
#include <vector>

namespace wb {

struct LayoutCandidate {
    ParallelLayout layout;
    double stepS = 0.0;           // serialized step time (estimateStep's stepS)
    double stepOverlappedS = 0.0; // DP under the backward pass: what the ranking compares
    double mfu = 0.0;
    double mfuOverlapped = 0.0;
    double memoryBytes = 0.0; // per GPU: states + activations + buffers
    bool fits = true;         // memoryBytes within the HBM searched with
};

struct LayoutSearch {
    std::vector<LayoutCandidate> ranked; // fastest first
    int evaluated = 0;                   // layouts costed (valid ones)
    int rejected = 0;                    // factorisations the model refused
    int tooBig = 0;                      // evaluated layouts that do not fit in HBM
};

// `zero` and `interleave` are kept as given; `maxPp` bounds the pipeline depth searched;
// `hbmBytes` is one GPU's memory (infinity: memory is not checked).
LayoutSearch searchLayouts(const TransformerConfig& m, const ClusterTopology& t, double peakFlops,
                           double computeEfficiency, int zero = 1, int maxPp = 64,
                           double hbmBytes = std::numeric_limits<double>::infinity());

} // namespace wb
