#include "gpu/roofline_probes_recording.h"

#include "engine/sentence.h"
#include "roofline/roofline_model.h"

namespace wb {

namespace {

TraceEvent probe(const char* name, const char* key, double value) {
    TraceEvent e;
    e.name = name;
    e.values[key] = value;
    return e;
}

std::optional<double> valueOf(const TraceEvent& e, const char* key) {
    const auto it = e.values.find(key);
    return it == e.values.end() ? std::nullopt : std::optional<double>(it->second);
}

} // namespace

Trace modeledRooflineProbes(const GpuSpec& gpu) {
    Trace t;
    t.kind = kRooflineProbesKind;
    t.provenance.source = TraceSource::Modeled;
    t.provenance.device = gpu.name;
    t.provenance.computeCapability = gpu.computeCapability;
    t.provenance.command = "hardware catalogue: dense datasheet peaks and HBM bandwidth";
    t.provenance.notes = "Not a measurement: real probes reach a fraction of these peaks.";
    t.metadata["scenario"] = "roofline";
    t.metadata["gpu"] = gpu.id;
    if (const auto fp32 = peakTflops(gpu, Precision::FP32))
        t.events.push_back(probe("fp32-fma", "tflops", *fp32));
    if (const auto bf16 = peakTflops(gpu, Precision::BF16))
        t.events.push_back(probe("bf16-mma", "tflops", *bf16));
    t.events.push_back(probe("hbm-bandwidth", "gbs", bandwidthTBs(gpu) * 1e3));
    return t;
}

RooflineProbes rooflineProbes(const Trace& trace) {
    RooflineProbes p;
    for (const auto& e : trace.events) {
        if (e.name == "fp32-fma") {
            p.fp32Tflops = valueOf(e, "tflops");
        } else if (e.name == "bf16-mma") {
            p.bf16Tflops = valueOf(e, "tflops");
        } else if (e.name == "hbm-bandwidth") {
            p.hbmGBs = valueOf(e, "gbs");
        } else if (e.name == "kernel") {
            const auto intensity = valueOf(e, "intensity");
            const auto tflops = valueOf(e, "tflops");
            if (!intensity || !tflops || *intensity <= 0.0 || *tflops <= 0.0)
                continue; // a log-log chart cannot place it
            std::string label = e.category;
            if (label.empty())
                label = fill("kernel %1", {std::to_string(p.kernels.size() + 1)});
            p.kernels.push_back({label, *intensity, *tflops});
        }
    }
    return p;
}

} // namespace wb
