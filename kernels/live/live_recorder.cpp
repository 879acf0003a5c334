// See live_recorder.h. The CUDA kernel families are called only when WARPBOARD_CUDA is set;
// the rest (scenario list, provenance, no-GPU answers) is the same in every build.
#include "live/live_recorder.h"

#include "cuda/probes.h"
#include "device/device_query.h"
#include "live/trace_builders.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <unistd.h>

namespace wb {
namespace {

// Used only when CUDA is built in; the no-CUDA build answers before any provenance is needed.
[[maybe_unused]] std::string hostName() {
    std::array<char, 256> buf{};
    if (gethostname(buf.data(), buf.size() - 1) != 0)
        return "unknown";
    return buf.data();
}

#if WARPBOARD_CUDA
template <class T, class Build>
std::variant<Trace, RunError> finish(RunResult<T>&& result, Build&& build, const LiveContext& ctx) {
    if (auto* e = std::get_if<RunError>(&result))
        return *e;
    return build(std::get<T>(result), ctx);
}

std::variant<Trace, RunError> measure(const std::string& id, const RecordOptions& o,
                                      const LiveContext& ctx) {
    const bool q = o.quick;
    if (id == "silicon-mapping")
        return finish(runBlockPlacement(o.device, q ? 20000 : 200000), blockPlacementTrace, ctx);
    if (id == "warp-divergence")
        return finish(runDivergence(o.device, 42, 0.5), divergenceTrace, ctx);
    if (id == "memory-hierarchy")
        return finish(runMemoryHierarchy(o.device, q ? 4096 : 65536), memoryHierarchyTrace, ctx);
    if (id == "coalescing-transpose")
        return finish(runTranspose(o.device, q ? 1024 : 8192, q ? 10 : 100), transposeTrace, ctx);
    if (id == "occupancy")
        return finish(runIlpOccupancy(o.device,
                                      q ? (std::size_t{64} << 20) : (std::size_t{1} << 30),
                                      q ? 3 : 10),
                      ilpOccupancyTrace, ctx);
    return finish(runRooflineProbes(o.device, q ? 256 : 4096), rooflineTrace, ctx);
}
#endif

} // namespace

std::vector<std::string> recordableScenarios() {
    return {"silicon-mapping",      "warp-divergence", "memory-hierarchy",
            "coalescing-transpose", "occupancy",       "roofline"};
}

std::string recordableScenarioList() {
    std::string out;
    for (const auto& id : recordableScenarios())
        out += (out.empty() ? "" : ", ") + id;
    return out;
}

std::string utcNowIso8601() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::array<char, 32> buf{};
    std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buf.data();
}

std::variant<Trace, RunError> recordScenario(const std::string& id, const RecordOptions& options) {
    const auto ids = recordableScenarios();
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
        return RunError{"unknown scenario '" + id + "'; allowed: " + recordableScenarioList()};
#if WARPBOARD_CUDA
    const DeviceQuery q = queryDevices();
    if (!q.hasGpu())
        return RunError{q.summary()};
    const auto it = std::find_if(q.devices.begin(), q.devices.end(),
                                 [&](const DeviceInfo& d) { return d.index == options.device; });
    if (it == q.devices.end())
        return RunError{std::string(kNoGpuPrefix) + "device " + std::to_string(options.device) +
                        " not found; " + q.summary()};
    LiveContext ctx;
    ctx.device = *it;
    ctx.date = utcNowIso8601();
    ctx.command = options.command;
    ctx.host = options.host.empty() ? hostName() : options.host;
    return measure(id, options, ctx);
#else
    (void)options;
    return RunError{std::string(kNoGpuPrefix) +
                    "this build has no CUDA support (WARPBOARD_CUDA=OFF)"};
#endif
}

} // namespace wb
