// CPU-side tests of the live path: they run on every machine (no GPU, no CUDA, no Qt).
// The runner's error values and size check, the divergence reference masks, the trace
// schema of synthetic results, and the recorder's refusal to fabricate without a GPU.
#include "cuda/divergence_reference.h"
#include "cuda/gpu_runner.h"
#include "device/device_query.h"
#include "gpu_check.h"
#include "live/live_recorder.h"
#include "live/trace_builders.h"
#include "trace/trace_json.h"

#include <algorithm>
#include <bit>
#include <set>

using wb::gpucheck::Harness;

namespace {

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0;
}
bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

void runnerErrors(Harness& h) {
    const auto noDriver = wb::cudaRunError(35, "cudaErrorInsufficientDriver",
                                           "CUDA driver version is insufficient", "cudaMalloc");
    WB_CHECK_MSG(h, noDriver.message == "no GPU: CUDA driver version is insufficient (35)",
                 noDriver.message);
    WB_CHECK(h, wb::isNoGpuMessage(noDriver.message));
    WB_CHECK(h, startsWith(wb::cudaRunError(100, "", "no CUDA-capable device", "x").message,
                           "no GPU: "));
    // The driver family as device/no_gpu_cause.h classifies it: a stub libcuda is no GPU too.
    WB_CHECK(h, startsWith(wb::cudaRunError(34, "", "CUDA driver is a stub library", "x").message,
                           "no GPU: "));
    const auto oom =
        wb::cudaRunError(2, "cudaErrorMemoryAllocation", "out of memory", "transpose input");
    WB_CHECK_MSG(h, oom.message == "transpose input: out of memory (cudaErrorMemoryAllocation = 2)",
                 oom.message);
    WB_CHECK(h, !wb::isNoGpuMessage(oom.message));
    const auto blank = wb::cudaRunError(700, "", "", "kernel");
    WB_CHECK_MSG(h, blank.message == "kernel: unknown CUDA error (unknown = 700)", blank.message);
}

void sizeChecks(Harness& h) {
    constexpr std::size_t MiB = std::size_t{1} << 20;
    constexpr std::size_t GiB = std::size_t{1} << 30;
    // Larger than free memory: refused, with the figures in the message.
    const auto tooBig = wb::checkAllocationFits(GiB, 512 * MiB, "buffer");
    WB_CHECK(h, tooBig.has_value());
    if (tooBig)
        WB_CHECK_MSG(h, startsWith(tooBig->message, "buffer: needs 1073741824 bytes"),
                     tooBig->message);
    // Fits with headroom.
    WB_CHECK(h, !wb::checkAllocationFits(100 * MiB, 10 * GiB, "buffer").has_value());
    // Exactly free memory is refused: the headroom is kept.
    WB_CHECK(h, wb::checkAllocationFits(10 * GiB, 10 * GiB, "buffer").has_value());
    // Headroom is 10 % of free memory (9 GiB usable of 10) ...
    WB_CHECK(h, !wb::checkAllocationFits(9 * GiB, 10 * GiB, "buffer").has_value());
    WB_CHECK(h, wb::checkAllocationFits(9 * GiB + 1, 10 * GiB, "buffer").has_value());
    // ... but at least 64 MiB, and nothing at all fits into less than that.
    WB_CHECK(h, wb::checkAllocationFits(1, 32 * MiB, "buffer").has_value());
    WB_CHECK(h, !wb::checkAllocationFits(0, 0, "buffer").has_value());

    WB_CHECK(h, wb::clampRepetitions(0) == 1);
    WB_CHECK(h, wb::clampRepetitions(1 << 30) == wb::kMaxRepetitions);
    WB_CHECK(h, wb::clampIterations(-5) == 1);
    WB_CHECK(h, wb::clampIterations(1L << 40) == wb::kMaxKernelIterations);
    WB_CHECK(h, wb::meanMs({}) == 0.0);
    WB_CHECK(h, wb::meanMs({1.0f, 3.0f}) == 2.0);
    WB_CHECK(h, wb::gigabytesPerSecond(2e9, 1000.0) == 2.0);
    WB_CHECK(h, wb::gigabytesPerSecond(1e9, 0.0) == 0.0);
}

void divergenceReference(Harness& h) {
    const auto data = wb::divergenceData(42, 64);
    auto mask = [&](const std::string& kind, const std::string& point, int block, int warp,
                    double p = 0.5) {
        return wb::expectedDivergenceMask(kind, point, block, warp, 64, data, p);
    };
    using Mask = std::optional<std::uint32_t>;
    WB_CHECK(h, mask("odd-even", "then", 0, 0) == Mask(0xAAAAAAAAu));
    WB_CHECK(h, mask("odd-even", "else", 0, 1) == Mask(0x55555555u));
    WB_CHECK(h, mask("odd-even", "before", 0, 1) == Mask(0xFFFFFFFFu));
    WB_CHECK(h, mask("odd-even", "after", 1, 0) == Mask(0xFFFFFFFFu));
    WB_CHECK(h, mask("half-warp", "then", 0, 0) == Mask(0x0000FFFFu));
    WB_CHECK(h, mask("half-warp", "else", 0, 0) == Mask(0xFFFF0000u));
    WB_CHECK(h, mask("half-warp", "then", 0, 1) == std::nullopt); // threadIdx.x < 16
    WB_CHECK(h, mask("warp-uniform", "then", 0, 0) == Mask(0xFFFFFFFFu));
    WB_CHECK(h, mask("warp-uniform", "else", 0, 0) == std::nullopt);
    WB_CHECK(h, mask("warp-uniform", "else", 0, 1) == Mask(0xFFFFFFFFu));
    WB_CHECK(h, mask("block-uniform", "then", 0, 0) == std::nullopt);
    WB_CHECK(h, mask("block-uniform", "then", 1, 1) == Mask(0xFFFFFFFFu));
    WB_CHECK(h, mask("nested", "inner-then", 0, 0) == Mask(0x0000AAAAu));
    WB_CHECK(h, mask("nested", "inner-else", 0, 0) == Mask(0x00005555u));
    WB_CHECK(h, mask("nested", "inner-then", 0, 1) == std::nullopt);
    // Data: then and else partition the warp; p = 0 and p = 1 are uniform.
    const auto thenMask = mask("data", "then", 0, 0).value_or(0);
    const auto elseMask = mask("data", "else", 0, 0).value_or(0);
    WB_CHECK(h, (thenMask | elseMask) == 0xFFFFFFFFu && (thenMask & elseMask) == 0u);
    WB_CHECK(h, thenMask != 0 && elseMask != 0); // seed 42, p = 0.5 diverges
    WB_CHECK(h, mask("data", "then", 0, 0, 0.0) == std::nullopt);
    WB_CHECK(h, mask("data", "else", 0, 0, 1.0) == std::nullopt);
    WB_CHECK(h, data == wb::divergenceData(42, 64)); // deterministic
    for (auto d : data)
        WB_CHECK(h, d >= 0 && d < 1000);
    WB_CHECK(h, wb::divergenceBranchKinds().size() == 6);
    WB_CHECK(h, wb::divergencePoints("nested").size() == 6);
    WB_CHECK(h, wb::divergencePoints("odd-even").size() == 4);
}

wb::LiveContext syntheticContext() {
    wb::LiveContext ctx;
    ctx.device.name = "Synthetic GPU";
    ctx.device.smCount = 132;
    ctx.device.ccMajor = 9;
    ctx.device.smClockGHz = 1.98;
    ctx.device.memoryClockGHz = 2.619;
    ctx.device.memoryGB = 150.1;
    ctx.device.l2CacheMB = 52.4288;
    ctx.device.driverVersion = 13000;
    ctx.device.runtimeVersion = 13000;
    ctx.device.driverRelease = "580.159.04";
    ctx.date = "2026-12-02T15:00:00Z";
    ctx.command = "warpboard-record all";
    ctx.host = "test-host";
    return ctx;
}

// Common schema plus JSON round trip.
void checkCommon(Harness& h, const wb::Trace& t, const std::string& scenario,
                 const std::string& kind) {
    WB_CHECK_MSG(h, t.kind == kind, t.kind);
    WB_CHECK(h, t.provenance.source == wb::TraceSource::Live);
    WB_CHECK(h, t.provenance.device == "Synthetic GPU");
    WB_CHECK(h, t.provenance.computeCapability == "9.0");
    // The module release, as nvidia-smi names the driver (the CUDA version only without it).
    WB_CHECK(h, t.provenance.driverVersion == "580.159.04");
    WB_CHECK(h, t.provenance.runtimeVersion == "13.0");
    WB_CHECK(h, t.provenance.date == "2026-12-02T15:00:00Z");
    WB_CHECK(h, t.provenance.host == "test-host");
    WB_CHECK(h, t.metadata.at("scenario") == scenario);
    WB_CHECK(h, t.metadata.at("sm_count") == "132");
    WB_CHECK(h, t.metadata.at("sm_clock_ghz") == "1.98");
    for (const char* key : {"memory_clock_ghz", "memory_gb", "l2_mb"})
        WB_CHECK_MSG(h, t.metadata.count(key) == 1, key);
    WB_CHECK_MSG(h, !wb::validateTrace(t).has_value(), scenario);
    auto back = wb::traceFromJson(wb::traceToJson(t));
    WB_CHECK_MSG(h, std::holds_alternative<wb::Trace>(back) && std::get<wb::Trace>(back) == t,
                 scenario + " round trip");
}

bool hasValues(const wb::TraceEvent& e, std::initializer_list<const char*> keys) {
    return std::all_of(keys.begin(), keys.end(), [&](const char* k) { return e.values.count(k); });
}

void traceSchema(Harness& h) {
    const auto ctx = syntheticContext();
    {
        wb::BlockPlacementResult r{3, 256, 16, 0, 132, 8, {}};
        r.records = {{0, 5, 0, 8, 1000, 5000}, {1, 7, 8, 8, 1200, 5100}, {2, 5, 0, 8, 5200, 9000}};
        const auto t = wb::blockPlacementTrace(r, ctx);
        checkCommon(h, t, "silicon-mapping", "block-placement");
        for (const char* key : {"blocks", "threads_per_block", "registers_per_thread",
                                "smem_per_block", "blocks_per_sm"})
            WB_CHECK_MSG(h, t.metadata.count(key) == 1, key);
        WB_CHECK(h, t.events.size() == 3);
        WB_CHECK(h, t.events[0].startNs == 0 && t.events[1].startNs == 200);
        WB_CHECK(h, t.events[2].track == 5 && t.events[2].durationNs == 3800);
        for (const auto& e : t.events)
            WB_CHECK(h, e.name == "block" && hasValues(e, {"block", "smid", "warps"}));
    }
    {
        wb::DivergenceResult r;
        r.seed = 42;
        r.records = {{"odd-even", "then", 0, 0, 0xAAAAAAAAu, 40},
                     {"nested", "inner-else", 1, 1, 0x5555u, 90}};
        const auto t = wb::divergenceTrace(r, ctx);
        checkCommon(h, t, "warp-divergence", "branch-masks");
        WB_CHECK(h, t.metadata.at("block_dim") == "64" && t.metadata.at("seed") == "42");
        WB_CHECK(h, t.metadata.at("p") == "0.5" && t.metadata.at("time_unit") == "cycles");
        WB_CHECK(h, t.events[0].name == "odd-even" && t.events[0].category == "then");
        WB_CHECK(h, t.events[0].values.at("mask") == 2863311530.0);
        WB_CHECK(h, t.events[1].track == 3 && t.events[1].startNs == 90);
        WB_CHECK(h, hasValues(t.events[1], {"mask", "warp", "block"}));
    }
    {
        wb::MemoryHierarchyResult r;
        r.latency = {{4096, 33}, {1 << 30, 600}};
        r.copy = {{1 << 20, 900}};
        const auto t = wb::memoryHierarchyTrace(r, ctx);
        checkCommon(h, t, "memory-hierarchy", "pointer-chase-latency");
        WB_CHECK(h, t.series.size() == 2 && t.series[0].name == "load latency");
        WB_CHECK(h, t.series[0].yUnit == "cycles" && t.series[1].name == "copy bandwidth");
    }
    {
        wb::TransposeResult r;
        r.n = 8192;
        r.repetitions = 100;
        r.variants = {{"copy", 0.2, 2684.0, 100, true}, {"padded", 0.25, 2147.0, 80, true}};
        const auto t = wb::transposeTrace(r, ctx);
        checkCommon(h, t, "coalescing-transpose", "transpose-timing");
        for (const char* key : {"n", "elem_bytes", "tile", "block_rows", "repetitions"})
            WB_CHECK_MSG(h, t.metadata.count(key) == 1, key);
        WB_CHECK(h, t.events[1].name == "padded" && t.events[1].durationNs == 250000);
        WB_CHECK(h, hasValues(t.events[1], {"gbs", "pct_of_copy", "reference_ok"}));
    }
    {
        wb::IlpOccupancyResult r;
        r.points = {{4, 2, 16, 0.25, 1.5, 1400}};
        const auto t = wb::ilpOccupancyTrace(r, ctx);
        checkCommon(h, t, "occupancy", "ilp-occupancy");
        WB_CHECK(
            h, t.events[0].name == "ilp" &&
                   hasValues(t.events[0], {"ilp", "warps_per_sm", "occupancy_theoretical", "gbs"}));
    }
    {
        wb::RooflineResult r{60.1, false, 0, 4100, 1, 0, 1};
        auto t = wb::rooflineTrace(r, ctx);
        checkCommon(h, t, "roofline", "roofline-probes");
        WB_CHECK(h, t.events.size() == 2 && t.events[0].name == "fp32-fma" &&
                        t.events[1].name == "hbm-bandwidth");
        r.bf16Supported = true;
        t = wb::rooflineTrace(r, ctx);
        WB_CHECK(h, t.events.size() == 3 && t.events[1].name == "bf16-mma");
    }
    WB_CHECK(h, wb::metadataNumber(132) == "132" && wb::metadataNumber(1.98) == "1.98");
}

void recorderWithoutGpu(Harness& h) {
    const std::vector<std::string> expected = {"silicon-mapping",  "warp-divergence",
                                               "memory-hierarchy", "coalescing-transpose",
                                               "occupancy",        "roofline"};
    WB_CHECK(h, wb::recordableScenarios() == expected);
    const auto unknown = wb::recordScenario("nope", {});
    WB_CHECK(h, std::holds_alternative<wb::RunError>(unknown));
    if (const auto* e = std::get_if<wb::RunError>(&unknown))
        WB_CHECK_MSG(h, contains(e->message, "allowed: silicon-mapping"), e->message);
    const auto iso = wb::utcNowIso8601();
    WB_CHECK_MSG(h, iso.size() == 20 && iso[10] == 'T' && iso.back() == 'Z', iso);

    if (wb::queryDevices().hasGpu()) {
        std::printf("note: a GPU is present; the no-GPU path is checked only by type\n");
        return;
    }
    for (const auto& id : wb::recordableScenarios()) {
        const auto r = wb::recordScenario(id, {});
        // Never a modeled stand-in: the answer is an error that says "no GPU".
        WB_CHECK_MSG(h, std::holds_alternative<wb::RunError>(r), id);
        if (const auto* e = std::get_if<wb::RunError>(&r))
            WB_CHECK_MSG(h, startsWith(e->message, "no GPU: "), e->message);
    }
}

} // namespace

int main() {
    Harness h;
    runnerErrors(h);
    sizeChecks(h);
    divergenceReference(h);
    traceSchema(h);
    recorderWithoutGpu(h);
    return h.finish();
}
