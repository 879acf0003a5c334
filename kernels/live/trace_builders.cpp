// See trace_builders.h; the field names follow docs/RECORDINGS.md exactly.
#include "live/trace_builders.h"

#include "device/device_query.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace wb {
namespace {

std::int64_t toNs(double ms) {
    return static_cast<std::int64_t>(std::llround(ms * 1e6));
}

} // namespace

std::string metadataNumber(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
        return std::to_string(static_cast<long long>(value));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

Trace liveTraceSkeleton(const std::string& scenarioId, const std::string& kind,
                        const LiveContext& ctx) {
    Trace t;
    t.kind = kind;
    Provenance& p = t.provenance;
    p.source = TraceSource::Live;
    p.device = ctx.device.name;
    p.computeCapability = ctx.device.computeCapability();
    // The module release names the driver as nvidia-smi does; the CUDA version the driver
    // supports stands in only where the system does not say.
    p.driverVersion = ctx.device.driverRelease.empty() ? formatCudaVersion(ctx.device.driverVersion)
                                                       : ctx.device.driverRelease;
    p.runtimeVersion = formatCudaVersion(ctx.device.runtimeVersion);
    p.date = ctx.date;
    p.command = ctx.command;
    p.host = ctx.host;
    t.metadata["scenario"] = scenarioId;
    t.metadata["sm_count"] = metadataNumber(ctx.device.smCount);
    t.metadata["sm_clock_ghz"] = metadataNumber(ctx.device.smClockGHz);
    t.metadata["memory_clock_ghz"] = metadataNumber(ctx.device.memoryClockGHz);
    t.metadata["memory_gb"] = metadataNumber(ctx.device.memoryGB);
    t.metadata["l2_mb"] = metadataNumber(ctx.device.l2CacheMB);
    return t;
}

Trace blockPlacementTrace(const BlockPlacementResult& r, const LiveContext& ctx) {
    Trace t = liveTraceSkeleton("silicon-mapping", "block-placement", ctx);
    t.metadata["blocks"] = metadataNumber(r.blocks);
    t.metadata["threads_per_block"] = metadataNumber(r.threadsPerBlock);
    t.metadata["registers_per_thread"] = metadataNumber(r.registersPerThread);
    t.metadata["smem_per_block"] = metadataNumber(r.smemPerBlock);
    t.metadata["blocks_per_sm"] = metadataNumber(r.blocksPerSm);
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    for (const auto& b : r.records)
        first = std::min(first, b.startNs);
    for (const auto& b : r.records) {
        TraceEvent e;
        e.name = "block";
        e.track = b.smid;
        e.startNs = static_cast<std::int64_t>(b.startNs - first);
        e.durationNs = b.endNs >= b.startNs ? static_cast<std::int64_t>(b.endNs - b.startNs) : 0;
        e.values = {{"block", b.block}, {"smid", b.smid}, {"warps", b.warps}, {"warpid", b.warpid}};
        t.events.push_back(std::move(e));
    }
    return t;
}

Trace divergenceTrace(const DivergenceResult& r, const LiveContext& ctx) {
    Trace t = liveTraceSkeleton("warp-divergence", "branch-masks", ctx);
    t.metadata["block_dim"] = metadataNumber(r.blockDim);
    t.metadata["blocks"] = metadataNumber(r.blocks);
    t.metadata["seed"] = std::to_string(r.seed);
    t.metadata["p"] = metadataNumber(r.p);
    t.metadata["time_unit"] = "cycles";
    const int warpsPerBlock = (r.blockDim + 31) / 32;
    for (const auto& d : r.records) {
        TraceEvent e;
        e.name = d.kind;
        e.category = d.point;
        // Warps of the second block continue the numbering, so tracks never collide.
        e.track = d.block * warpsPerBlock + d.warp;
        e.startNs = d.cycles;
        e.values = {{"mask", static_cast<double>(d.mask)}, {"warp", d.warp}, {"block", d.block}};
        t.events.push_back(std::move(e));
    }
    return t;
}

Trace memoryHierarchyTrace(const MemoryHierarchyResult& r, const LiveContext& ctx) {
    Trace t = liveTraceSkeleton("memory-hierarchy", "pointer-chase-latency", ctx);
    TraceSeries lat{"load latency", "B", "cycles", {}, {}};
    for (const auto& p : r.latency) {
        lat.x.push_back(p.workingSetBytes);
        lat.y.push_back(p.cyclesPerLoad);
    }
    t.series.push_back(std::move(lat));
    const std::pair<const char*, const std::vector<BandwidthPoint>*> bw[] = {
        {"read bandwidth", &r.read}, {"write bandwidth", &r.write}, {"copy bandwidth", &r.copy}};
    for (const auto& [name, points] : bw) {
        if (points->empty())
            continue;
        TraceSeries s{name, "B", "GB/s", {}, {}};
        for (const auto& p : *points) {
            s.x.push_back(p.bytes);
            s.y.push_back(p.gbs);
        }
        t.series.push_back(std::move(s));
    }
    return t;
}

Trace transposeTrace(const TransposeResult& r, const LiveContext& ctx) {
    Trace t = liveTraceSkeleton("coalescing-transpose", "transpose-timing", ctx);
    t.metadata["n"] = metadataNumber(r.n);
    t.metadata["elem_bytes"] = metadataNumber(r.elemBytes);
    t.metadata["tile"] = metadataNumber(r.tile);
    t.metadata["block_rows"] = metadataNumber(r.blockRows);
    t.metadata["repetitions"] = metadataNumber(r.repetitions);
    for (const auto& v : r.variants) {
        TraceEvent e;
        e.name = v.name;
        e.durationNs = toNs(v.meanMs);
        e.values = {{"gbs", v.gbs},
                    {"pct_of_copy", v.pctOfCopy},
                    {"reference_ok", v.referenceOk ? 1.0 : 0.0}};
        t.events.push_back(std::move(e));
    }
    return t;
}

Trace ilpOccupancyTrace(const IlpOccupancyResult& r, const LiveContext& ctx) {
    Trace t = liveTraceSkeleton("occupancy", "ilp-occupancy", ctx);
    t.metadata["threads_per_block"] = metadataNumber(r.threadsPerBlock);
    t.metadata["bytes"] = metadataNumber(static_cast<double>(r.bytes));
    for (const auto& p : r.points) {
        TraceEvent e;
        e.name = "ilp";
        e.durationNs = toNs(p.meanMs);
        e.values = {{"ilp", p.ilp},
                    {"warps_per_sm", p.warpsPerSm},
                    {"occupancy_theoretical", p.occupancyTheoretical},
                    {"gbs", p.gbs}};
        t.events.push_back(std::move(e));
    }
    return t;
}

Trace rooflineTrace(const RooflineResult& r, const LiveContext& ctx) {
    Trace t = liveTraceSkeleton("roofline", "roofline-probes", ctx);
    TraceEvent fma;
    fma.name = "fp32-fma";
    fma.durationNs = toNs(r.fp32Ms);
    fma.values = {{"tflops", r.fp32Tflops}};
    t.events.push_back(std::move(fma));
    if (r.bf16Supported) {
        TraceEvent mma;
        mma.name = "bf16-mma";
        mma.durationNs = toNs(r.bf16Ms);
        mma.values = {{"tflops", r.bf16Tflops}};
        t.events.push_back(std::move(mma));
    }
    TraceEvent hbm;
    hbm.name = "hbm-bandwidth";
    hbm.durationNs = toNs(r.hbmMs);
    hbm.values = {{"gbs", r.hbmGbs}};
    t.events.push_back(std::move(hbm));
    return t;
}

} // namespace wb
