#pragma once
// The "best layout" search of fabric-mapping: every TP × PP × DP factorisation of the cluster's
// GPUs that the model allows (heads divide by TP, layers by PP, the global batch by micro-batch ×
// DP), in every rank order, costed by estimateStep; the fastest step wins (ties: the smaller TP,
// then PP). Nothing is ranked by rule of thumb: "TP inside the node" falls out of the costs.
#include "parallel/transformer_step.h"

#include <vector>

namespace wb {

struct LayoutCandidate {
    ParallelLayout layout;
    double stepS = 0.0; // serialized step time (estimateStep's stepS)
    double mfu = 0.0;
};

struct LayoutSearch {
    std::vector<LayoutCandidate> ranked; // fastest first
    int evaluated = 0;                   // layouts costed (valid ones)
    int rejected = 0;                    // factorisations the model refused
};

// `zero` and `interleave` are kept as given; `maxPp` bounds the pipeline depth searched.
LayoutSearch searchLayouts(const TransformerConfig& m, const ClusterTopology& t, double peakFlops,
                           double computeEfficiency, int zero = 1, int maxPp = 64);

} // namespace wb
