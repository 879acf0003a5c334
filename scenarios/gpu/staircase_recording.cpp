#include "gpu/staircase_recording.h"

#include "engine/chart_helpers.h"
#include "engine/embedded_traces.h"
#include "engine/sentence.h"
#include "trace/trace_json.h"

#include <variant>

namespace wb {

std::string pointerChaseFileName(const std::string& gpuId) {
    return fill("pointer-chase-%1.json", {gpuId});
}

Trace modeledPointerChase(const MemoryLadder& ladder) {
    const GpuSpec& gpu = ladder.gpu();
    Trace t;
    t.kind = kPointerChaseKind;
    t.provenance.source = TraceSource::Modeled;
    t.provenance.device = gpu.name;
    t.provenance.computeCapability = gpu.computeCapability;
    t.provenance.command = "memory ladder model: hit rate = capacity / working set per level";
    t.provenance.notes = "Latencies from the hardware catalogue (microbenchmark papers); "
                         "not a measurement. A recording from a GPU replaces this file.";
    t.metadata["gpu"] = gpu.id;
    t.metadata["clock_ghz"] = std::to_string(ladder.clockGHz());
    TraceSeries s{"load latency", "B", "cycles", {}, {}};
    const double l2 = gpu.value("l2_cache_mb") * 1e6;
    for (double ws : logSpace(4096.0, 4.0 * l2, 48)) {
        s.x.push_back(ws);
        s.y.push_back(ladder.modeledChaseLatencyCycles(ws));
    }
    t.series.push_back(std::move(s));
    return t;
}

std::optional<Trace> shippedPointerChase(const std::string& gpuId) {
    const auto& traces = embeddedTraces();
    const auto it = traces.find(pointerChaseFileName(gpuId));
    if (it == traces.end())
        return std::nullopt;
    auto parsed = traceFromJson(it->second);
    if (auto* trace = std::get_if<Trace>(&parsed); trace && trace->kind == kPointerChaseKind)
        return *trace;
    return std::nullopt;
}

} // namespace wb
