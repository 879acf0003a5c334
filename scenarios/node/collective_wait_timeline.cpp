#include "node/collective_wait_timeline.h"

#include "engine/require.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace wb {

namespace {

// Compute kernels back to back with launch gaps from `start` for `length` seconds.
double addCompute(RankTimeline& r, const CollectiveWaitConfig& c, double start, double length,
                  int iteration) {
    double t = start;
    const double end = start + length;
    while (t < end - 1e-12) {
        const double e = std::min(end, t + c.kernelS);
        r.spans.push_back({t, e, SpanKind::Compute, iteration});
        t = e + c.launchGapS;
    }
    return std::max(end, t - c.launchGapS);
}

} // namespace

void CollectiveWaitConfig::validate() const {
    require(iterations >= 1 && iterations <= 1000, "iterations must be between 1 and 1000");
    require(std::isfinite(computeS) && computeS > 0 && computeS <= 100,
            "compute time must be in (0, 100] s");
    require(std::isfinite(kernelS) && kernelS > 0 && kernelS <= computeS,
            "a compute kernel must last more than 0 and at most the compute time");
    require(std::isfinite(launchGapS) && launchGapS >= 0 && launchGapS < kernelS,
            "the launch gap must be ≥ 0 and shorter than a kernel");
    require(std::isfinite(slowdownS) && slowdownS >= 0 && slowdownS <= 100,
            "the slowdown must be in [0, 100] s");
    require(std::isfinite(transferS) && transferS > 0 && transferS <= 100,
            "the transfer time must be in (0, 100] s");
    require(smCount >= 1 && ncclSms >= 1 && ncclSms <= smCount,
            "NCCL's SMs must be between 1 and the GPU's SM count");
}

double RankTimeline::smFraction(SpanKind k) const {
    // Compute kernels are taken to fill the GPU; NCCL's kernel holds one block per channel.
    return k == SpanKind::Compute ? 1.0 : ncclShare;
}

std::vector<KernelSpan> RankTimeline::kernels() const {
    std::vector<KernelSpan> out;
    out.reserve(spans.size());
    for (const RankSpan& s : spans)
        out.push_back({s.startS, s.endS, smFraction(s.kind)});
    return out;
}

CollectiveWaitTimeline collectiveWaitTimeline(const CollectiveWaitConfig& c) {
    c.validate();
    CollectiveWaitTimeline w;
    w.config = c;
    // Only a rank that really is slower is called slow.
    w.fast.label = c.slowdownS > 0 ? "rank 0 (on time)" : "rank 0";
    w.slow.label = c.slowdownS > 0 ? "rank 1 (slow)" : "rank 1";
    w.fast.ncclShare = w.slow.ncclShare = static_cast<double>(c.ncclSms) / c.smCount;
    double t = 0;
    for (int i = 0; i < c.iterations; ++i) {
        const double fastDone = addCompute(w.fast, c, t, c.computeS, i);
        const double slowDone = addCompute(w.slow, c, t, c.computeS + c.slowdownS, i);
        const double meet = std::max(fastDone, slowDone);
        const double done = meet + c.transferS;
        // Each rank's NCCL kernel starts when it calls the collective and ends for both at once.
        if (meet > fastDone)
            w.fast.spans.push_back({fastDone, meet, SpanKind::Waiting, i});
        if (meet > slowDone)
            w.slow.spans.push_back({slowDone, meet, SpanKind::Waiting, i});
        w.fast.spans.push_back({meet, done, SpanKind::Transfer, i});
        w.slow.spans.push_back({meet, done, SpanKind::Transfer, i});
        w.waitingS += meet - fastDone;
        t = done;
    }
    w.endS = t;
    return w;
}

} // namespace wb
