#pragma once
// Kernel results -> Traces in the schema of docs/RECORDINGS.md. Pure functions of plain
// data, compiled in every build, so the schema is tested on machines without a GPU (with
// synthetic results) and the recorder only measures and calls these.
#include "cuda/probes.h"
#include "device/device_info.h"
#include "trace/trace.h"

#include <string>

namespace wb {

// Everything the provenance and the common metadata need besides the device.
struct LiveContext {
    DeviceInfo device;
    std::string date;    // ISO 8601 UTC
    std::string command; // the command line that recorded the trace
    std::string host;
};

// A trace with provenance source=live and the common metadata (scenario, sm_count,
// sm_clock_ghz, memory_clock_ghz, memory_gb, l2_mb) filled from the device.
Trace liveTraceSkeleton(const std::string& scenarioId, const std::string& kind,
                        const LiveContext& ctx);

Trace blockPlacementTrace(const BlockPlacementResult& r, const LiveContext& ctx);
Trace divergenceTrace(const DivergenceResult& r, const LiveContext& ctx);
Trace memoryHierarchyTrace(const MemoryHierarchyResult& r, const LiveContext& ctx);
Trace transposeTrace(const TransposeResult& r, const LiveContext& ctx);
Trace ilpOccupancyTrace(const IlpOccupancyResult& r, const LiveContext& ctx);
Trace rooflineTrace(const RooflineResult& r, const LiveContext& ctx);

// Number as metadata text: integers without a decimal point, others with up to 6
// significant digits ("132", "1.98").
std::string metadataNumber(double value);

} // namespace wb
