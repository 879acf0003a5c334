#include "gpu/transpose_recording.h"

#include <array>
#include <cmath>

namespace wb {

double transposeEffectiveGBs(int n, int elementBytes, double seconds) {
    const double bytes = 2.0 * static_cast<double>(n) * static_cast<double>(n) * elementBytes;
    return bytes / seconds / 1e9;
}

AchievableCopy achievableCopy(const GpuSpec& gpu) {
    AchievableCopy a;
    a.peakGBs = gpu.value("memory_bandwidth_gbs");
    a.gbs = a.peakGBs * a.share;
    a.measured = gpu.id == AchievableCopy::kMeasuredOn;
    return a;
}

Trace modeledTransposeTiming(const TransposeConfig& base, const GpuSpec& gpu) {
    Trace t;
    t.kind = kTransposeTimingKind;
    t.provenance.source = TraceSource::Modeled;
    t.provenance.device = gpu.name;
    t.provenance.computeCapability = gpu.computeCapability;
    t.provenance.command = "transpose model: relative time = max(L1↔L2 sectors / sectors per "
                           "clock, shared-memory wavefronts), copy at the achievable share of "
                           "catalogue HBM bandwidth";
    t.provenance.notes = "Not a measurement: a recording from a GPU replaces these numbers.";
    t.metadata["scenario"] = "coalescing-transpose";
    t.metadata["gpu"] = gpu.id;
    t.metadata["n"] = std::to_string(base.n);
    t.metadata["elem_bytes"] = std::to_string(base.elementBytes);
    t.metadata["tile"] = std::to_string(base.tile);
    t.metadata["block_rows"] = std::to_string(base.blockRows);
    t.metadata["repetitions"] = std::to_string(0); // nothing was run

    // The copy's time at the achievable bandwidth is the inverse of the effective-bandwidth
    // formula.
    const double bandwidthGBs = achievableCopy(gpu).gbs;
    const double copySeconds = transposeEffectiveGBs(base.n, base.elementBytes, 1.0) / bandwidthGBs;
    const std::array<TransposeVariant, 4> variants{TransposeVariant::Copy, TransposeVariant::Naive,
                                                   TransposeVariant::Tiled,
                                                   TransposeVariant::Padded};
    const auto& names = transposeVariantNames();
    for (size_t i = 0; i < variants.size(); ++i) {
        TransposeConfig c = base;
        c.variant = variants[i];
        const double seconds = copySeconds * TransposeModel(c).summary().relativeTime;
        TraceEvent e;
        e.name = names[static_cast<size_t>(variants[i])];
        e.durationNs = std::llround(seconds * 1e9);
        e.values["gbs"] = transposeEffectiveGBs(base.n, base.elementBytes, seconds);
        e.values["pct_of_copy"] = 100.0 * copySeconds / seconds;
        e.values["reference_ok"] = 1.0;
        t.events.push_back(std::move(e));
    }
    return t;
}

std::vector<TransposeTiming> transposeTimings(const Trace& trace) {
    std::vector<TransposeTiming> out;
    for (const auto& e : trace.events) {
        const auto gbs = e.values.find("gbs");
        if (gbs == e.values.end())
            continue;
        TransposeTiming t;
        t.variant = e.name;
        t.durationNs = e.durationNs;
        t.gbs = gbs->second;
        if (const auto pct = e.values.find("pct_of_copy"); pct != e.values.end())
            t.pctOfCopy = pct->second;
        if (const auto ok = e.values.find("reference_ok"); ok != e.values.end())
            t.referenceOk = ok->second != 0.0;
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace wb
