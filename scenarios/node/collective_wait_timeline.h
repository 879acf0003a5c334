#pragma once
// Two data-parallel ranks, one slower, meeting in an all-reduce every iteration (nccl-topology):
// the fast rank launches NCCL's kernel when its compute ends, and that kernel stays resident,
// spinning on a flag, until the slow rank arrives; then both move the data. Kernels are laid out
// exactly, so GpuUtilSampler can read NVML's GPU-Util and the SM activity off them.
#include "node/gpu_util_sampler.h"

#include <string>
#include <vector>

namespace wb {

struct CollectiveWaitConfig {
    int iterations = 6;
    double computeS = 0.12;    // the fast rank's forward + backward per iteration
    double kernelS = 4e-3;     // one compute kernel
    double launchGapS = 40e-6; // idle between compute kernels
    double slowdownS = 0.25;   // extra compute per iteration on the slow rank
    double transferS = 0.02;   // the all-reduce once both ranks are in it
    int ncclSms = 16;          // SMs NCCL's kernel occupies: one block per channel
    int smCount = 132;
    // Throws std::invalid_argument naming the field when a value is out of range.
    void validate() const;
};

enum class SpanKind { Compute, Waiting, Transfer };

struct RankSpan {
    double startS = 0, endS = 0;
    SpanKind kind = SpanKind::Compute;
    int iteration = 0;
};

struct RankTimeline {
    std::string label;           // "rank 0 (waits)"
    std::vector<RankSpan> spans; // compute kernels, then the collective split at the slow arrival
    std::vector<KernelSpan> kernels() const; // for the sampler: SM share per span kind
    double smFraction(SpanKind k) const;
    double ncclShare = 0; // ncclSms / smCount
};

struct CollectiveWaitTimeline {
    CollectiveWaitConfig config;
    RankTimeline fast, slow;
    double endS = 0;
    double waitingS = 0; // fast rank's time spinning, all iterations
};

CollectiveWaitTimeline collectiveWaitTimeline(const CollectiveWaitConfig& config);

} // namespace wb
