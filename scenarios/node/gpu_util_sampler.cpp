#include "node/gpu_util_sampler.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace wb {

namespace {

void check(const std::vector<KernelSpan>& kernels) {
    for (const KernelSpan& k : kernels)
        if (!std::isfinite(k.startS) || !std::isfinite(k.endS) || k.endS < k.startS ||
            !std::isfinite(k.smFraction) || k.smFraction < 0 || k.smFraction > 1)
            throw std::invalid_argument("a kernel span must have finite start ≤ end and an SM "
                                        "share in [0, 1]");
}

} // namespace

UtilisationSample utilisationOver(const std::vector<KernelSpan>& kernels, double fromS,
                                  double toS) {
    check(kernels);
    if (!std::isfinite(fromS) || !std::isfinite(toS) || toS <= fromS)
        throw std::invalid_argument("a sample window must be finite and not empty");
    // Sweep the kernel boundaries inside the window: between two boundaries the set of running
    // kernels is fixed, so "any kernel" and "SMs busy" are constant there.
    struct Boundary {
        double t;
        double share; // Δ SM share
        int count;    // Δ kernels running
        bool operator<(const Boundary& o) const { return t < o.t; }
    };
    std::vector<Boundary> bounds;
    for (const KernelSpan& k : kernels) {
        const double s = std::max(k.startS, fromS), e = std::min(k.endS, toS);
        if (e <= s)
            continue;
        bounds.push_back({.t = s, .share = k.smFraction, .count = 1});
        bounds.push_back({.t = e, .share = -k.smFraction, .count = -1});
    }
    std::sort(bounds.begin(), bounds.end());
    double busy = 0, smTime = 0, share = 0, at = fromS;
    int running = 0;
    for (const Boundary& b : bounds) {
        if (running > 0)
            busy += b.t - at;
        smTime += std::clamp(share, 0.0, 1.0) * (b.t - at);
        at = b.t;
        share += b.share;
        running += b.count;
    }
    UtilisationSample s;
    s.startS = fromS;
    s.endS = toS;
    s.gpuUtilPercent = 100.0 * busy / (toS - fromS);
    s.smActivityPercent = 100.0 * smTime / (toS - fromS);
    return s;
}

std::vector<UtilisationSample> sampleUtilisation(const std::vector<KernelSpan>& kernels,
                                                 double periodS, double endS) {
    if (!std::isfinite(periodS) || periodS <= 0 || !std::isfinite(endS) || endS <= 0)
        throw std::invalid_argument("the sample period and the time span must be positive");
    if (endS / periodS > 1e6)
        throw std::invalid_argument("more than a million samples: raise the sample period");
    std::vector<UtilisationSample> out;
    for (double t = 0; t < endS - 1e-12; t += periodS)
        out.push_back(utilisationOver(kernels, t, std::min(endS, t + periodS)));
    return out;
}

} // namespace wb
