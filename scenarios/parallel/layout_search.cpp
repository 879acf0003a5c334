#include "parallel/layout_search.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace wb {

LayoutSearch searchLayouts(const TransformerConfig& m, const ClusterTopology& t, double peakFlops,
                           double computeEfficiency, int zero, int maxPp, double hbmBytes) {
    LayoutSearch out;
    const int gpus = t.gpus();
    static const std::array<std::array<Strategy, 3>, 6> orders{{
        {Strategy::TP, Strategy::PP, Strategy::DP},
        {Strategy::TP, Strategy::DP, Strategy::PP},
        {Strategy::PP, Strategy::TP, Strategy::DP},
        {Strategy::PP, Strategy::DP, Strategy::TP},
        {Strategy::DP, Strategy::TP, Strategy::PP},
        {Strategy::DP, Strategy::PP, Strategy::TP},
    }};
    for (int tp = 1; tp <= gpus; ++tp) {
        if (gpus % tp != 0 || m.heads % tp != 0)
            continue;
        for (int pp = 1; pp <= std::min(maxPp, gpus / tp); ++pp) {
            if ((gpus / tp) % pp != 0 || m.layers % pp != 0)
                continue;
            const int dp = gpus / tp / pp;
            if (m.globalBatch % (m.microBatch * dp) != 0) {
                ++out.rejected;
                continue;
            }
            for (const auto& order : orders) {
                ParallelLayout l;
                l.tp = tp;
                l.pp = pp;
                l.dp = dp;
                l.zero = zero;
                l.order.assign(order.begin(), order.end());
                // Orders that only permute size-1 dimensions give the same ranks: skip them.
                ParallelLayout canonical = l;
                canonical.order.erase(std::remove_if(canonical.order.begin(), canonical.order.end(),
                                                     [&](Strategy s) { return l.size(s) == 1; }),
                                      canonical.order.end());
                const bool duplicate = std::any_of(
                    out.ranked.begin(), out.ranked.end(), [&](const LayoutCandidate& c) {
                        if (c.layout.tp != tp || c.layout.pp != pp)
                            return false;
                        std::vector<Strategy> o = c.layout.order;
                        o.erase(std::remove_if(o.begin(), o.end(),
                                               [&](Strategy s) { return l.size(s) == 1; }),
                                o.end());
                        return o == canonical.order;
                    });
                if (duplicate)
                    continue;
                try {
                    const StepEstimate e = estimateStep(m, l, t, peakFlops, computeEfficiency);
                    out.ranked.push_back({.layout = l,
                                          .stepS = e.stepS,
                                          .stepOverlappedS = e.stepOverlappedS,
                                          .mfu = e.mfu,
                                          .mfuOverlapped = e.mfuOverlapped,
                                          .memoryBytes = e.memoryBytesPerGpu,
                                          .fits = e.fitsIn(hbmBytes)});
                    ++out.evaluated;
                    out.tooBig += e.fitsIn(hbmBytes) ? 0 : 1;
                } catch (const std::invalid_argument&) {
                    ++out.rejected;
                }
            }
        }
    }
    std::stable_sort(out.ranked.begin(), out.ranked.end(),
                     [](const LayoutCandidate& a, const LayoutCandidate& b) {
                         if (a.fits != b.fits)
                             return a.fits;
                         // Among layouts that cannot run, the one closest to fitting leads.
                         if (!a.fits && a.memoryBytes != b.memoryBytes)
                             return a.memoryBytes < b.memoryBytes;
                         if (a.stepOverlappedS != b.stepOverlappedS)
                             return a.stepOverlappedS < b.stepOverlappedS;
                         if (a.layout.tp != b.layout.tp)
                             return a.layout.tp < b.layout.tp;
                         return a.layout.pp < b.layout.pp;
                     });
    return out;
}

} // namespace wb
