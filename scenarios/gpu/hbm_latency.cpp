#include "gpu/hbm_latency.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <stdexcept>

namespace wb {

HbmLatency hbmLatency(const GpuSpec& gpu, const HardwareCatalogue& catalogue) {
    HbmLatency l;
    l.clockGHz = gpu.value("vector_clock_ghz");
    if (gpu.has("hbm_latency_cycles")) {
        l.cycles = gpu.value("hbm_latency_cycles");
        l.ns = l.cycles / l.clockGHz;
        l.lowNs = l.highNs = l.ns;
        l.source = catalogue.sourceLabel(gpu, "hbm_latency_cycles");
        return l;
    }
    if (!gpu.has("hbm_latency_low_ns") || !gpu.has("hbm_latency_high_ns"))
        throw std::out_of_range(fill("%1 has no HBM latency in the catalogue", {gpu.id}));
    l.lowNs = gpu.value("hbm_latency_low_ns");
    l.highNs = gpu.value("hbm_latency_high_ns");
    // Without a measurement of this GPU, the middle of the range errs least either way.
    l.ns = (l.lowNs + l.highNs) / 2.0;
    l.cycles = l.ns * l.clockGHz;
    l.assumed = true;
    l.source = catalogue.sourceLabel(gpu, "hbm_latency_low_ns");
    return l;
}

std::string assumedLatencyText(double lowNs, double highNs, double ns) {
    return fill("%1–%2 (assumed %3)", {formatSignificant(lowNs, 3), formatSi(highNs * 1e-9, "s", 3),
                                       formatSi(ns * 1e-9, "s", 3)});
}

std::string hbmLatencyText(const HbmLatency& l) {
    return l.assumed ? assumedLatencyText(l.lowNs, l.highNs, l.ns) : formatSi(l.ns * 1e-9, "s", 3);
}

} // namespace wb
