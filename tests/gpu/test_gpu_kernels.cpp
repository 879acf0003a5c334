// Every kernel family on a real GPU against its CPU reference, and the recorder end to end.
// Exits 77 (skipped) without CUDA or without a device. Sizes are small: the whole program
// should take seconds on an H100/H200.
#include "cuda/divergence_reference.h"
#include "cuda/probes.h"
#include "device/device_query.h"
#include "gpu_check.h"
#include "live/live_recorder.h"
#include "trace/trace_json.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>

using wb::gpucheck::Harness;

namespace {

// The run's value, or nullopt after recording its error as a failed check. Takes the result
// by value: the callers pass temporaries.
template <class T> std::optional<T> ok(Harness& h, wb::RunResult<T> r, const char* what) {
    if (const auto* e = std::get_if<wb::RunError>(&r)) {
        h.check(false, std::string(what) + ": " + e->message, __FILE__, __LINE__);
        return std::nullopt;
    }
    h.check(true, what, __FILE__, __LINE__);
    return std::get<T>(std::move(r));
}

#if WARPBOARD_CUDA
void transpose(Harness& h) {
    const auto r = ok(h, wb::runTranspose(0, 4096, 20), "runTranspose");
    if (!r)
        return;
    WB_CHECK(h, r->variants.size() == 4);
    std::map<std::string, double> gbs;
    for (const auto& v : r->variants) {
        WB_CHECK_MSG(h, v.referenceOk, v.name + " output differs from the CPU reference");
        WB_CHECK_MSG(h, v.gbs > 0, v.name);
        gbs[v.name] = v.gbs;
        std::printf("transpose %-6s %8.1f GB/s %5.1f %% of copy\n", v.name.c_str(), v.gbs,
                    v.pctOfCopy);
    }
    WB_CHECK_MSG(h, gbs["padded"] > gbs["naive"], "padded must beat naive");
    // The copy is the lesson's ceiling: every transpose moves the same bytes with more work,
    // so none may beat it by more than timing noise.
    for (const auto& v : r->variants)
        WB_CHECK_MSG(h, v.pctOfCopy <= 105.0,
                     v.name + " at " + std::to_string(v.pctOfCopy) + " % of the copy ceiling");
    WB_CHECK(h, std::holds_alternative<wb::RunError>(wb::runTranspose(0, 100, 1))); // not x32
}

void divergence(Harness& h) {
    const auto r = ok(h, wb::runDivergence(0, 42, 0.5), "runDivergence");
    if (!r)
        return;
    const auto data = wb::divergenceData(42, r->blockDim);
    std::set<std::tuple<std::string, std::string, int, int>> seen;
    for (const auto& rec : r->records) {
        const auto want = wb::expectedDivergenceMask(rec.kind, rec.point, rec.block, rec.warp,
                                                     r->blockDim, data, r->p);
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s/%s block %d warp %d: mask 0x%08x, expected 0x%08x",
                      rec.kind.c_str(), rec.point.c_str(), rec.block, rec.warp, rec.mask,
                      want.value_or(0u));
        WB_CHECK_MSG(h, want.has_value() && *want == rec.mask, buf);
        WB_CHECK(h, rec.cycles >= 0);
        seen.insert({rec.kind, rec.point, rec.block, rec.warp});
    }
    // Every point the reference says is reached was recorded.
    for (const auto& kind : wb::divergenceBranchKinds())
        for (const auto& point : wb::divergencePoints(kind))
            for (int b = 0; b < r->blocks; ++b)
                for (int w = 0; w < r->blockDim / 32; ++w)
                    if (wb::expectedDivergenceMask(kind, point, b, w, r->blockDim, data, r->p))
                        WB_CHECK_MSG(h, seen.count({kind, point, b, w}) == 1,
                                     kind + "/" + point + " not recorded");
}

void memory(Harness& h, const wb::DeviceInfo& d) {
    const auto small = ok(h, wb::runPointerChase(0, 4096, 20000), "chase 4 KiB");
    const auto big = static_cast<std::size_t>(d.l2CacheMB * 1e6 * 4);
    const auto large = ok(h, wb::runPointerChase(0, big, 20000), "chase 4 x L2");
    if (small && large) {
        std::printf("latency: 4 KiB %.1f cycles, %zu B %.1f cycles\n", *small, big, *large);
        WB_CHECK(h, *small > 0 && *small < 100);          // L1: tens of cycles
        WB_CHECK(h, *large > 2 * *small && *large > 200); // DRAM: hundreds
    }
    for (auto kind : {wb::StreamKind::Read, wb::StreamKind::Write, wb::StreamKind::Copy}) {
        const auto gbs =
            ok(h, wb::runStreamBandwidth(0, kind, std::size_t{1} << 30, 10), "stream bandwidth");
        if (gbs) {
            std::printf("stream %d: %.0f GB/s\n", static_cast<int>(kind), *gbs);
            WB_CHECK(h, *gbs > 100);
        }
    }
}

// Catalogue HBM bandwidth (GB/s) of the entry matching this device by compute capability,
// SM count and memory size within 15 % (device names differ from catalogue names, and the
// device reports usable, not marketed, memory). nullopt when none or several match.
std::optional<double> catalogueBandwidth(const wb::DeviceInfo& d) {
    std::ifstream in(std::string(WB_SOURCE_DIR) + "/resources/hardware/gpus.json");
    const auto doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.contains("gpus"))
        return std::nullopt;
    std::optional<double> found;
    int matches = 0;
    for (const auto& g : doc["gpus"]) {
        const auto field = [&](const char* key) {
            const auto& f = g.value("fields", nlohmann::json::object());
            return f.contains(key) ? f[key].value("value", 0.0) : 0.0;
        };
        const double mem = field("memory_gb");
        if (g.value("compute_capability", "") != d.computeCapability() ||
            static_cast<int>(field("sm_count")) != d.smCount || mem <= 0 ||
            std::fabs(d.memoryGB - mem) > 0.15 * mem)
            continue;
        ++matches;
        found = field("memory_bandwidth_gbs");
    }
    return matches == 1 ? found : std::nullopt;
}

void copyAgainstCatalogue(Harness& h, const wb::DeviceInfo& d) {
    const auto peak = catalogueBandwidth(d);
    if (!peak || *peak <= 0) {
        std::printf("note: no single catalogue entry matches %s; copy vs peak not checked\n",
                    d.name.c_str());
        return;
    }
    const auto gbs =
        ok(h, wb::runStreamBandwidth(0, wb::StreamKind::Copy, std::size_t{2} << 30, 10),
           "copy bandwidth");
    if (!gbs)
        return;
    std::printf("copy %.0f GB/s = %.1f %% of catalogue %.0f GB/s\n", *gbs, 100 * *gbs / *peak,
                *peak);
    WB_CHECK_MSG(h, *gbs > 0.7 * *peak, "copy bandwidth below 70 % of the catalogue peak");
}

void placement(Harness& h, const wb::DeviceInfo& d) {
    const auto r = ok(h, wb::runBlockPlacement(0, 20000), "runBlockPlacement");
    if (!r)
        return;
    WB_CHECK(h, r->smCount == d.smCount && r->blocksPerSm > 0);
    WB_CHECK(h, static_cast<int>(r->records.size()) == r->blocks);
    std::set<int> sms;
    for (const auto& b : r->records) {
        WB_CHECK(h, b.smid >= 0 && b.smid < d.smCount);
        WB_CHECK(h, b.endNs > b.startNs);
        sms.insert(b.smid);
    }
    std::printf("placement: %d blocks on %zu SMs, %d per SM\n", r->blocks, sms.size(),
                r->blocksPerSm);
    WB_CHECK(h, static_cast<int>(sms.size()) == d.smCount); // 2.5 waves reach every SM
}

void occupancy(Harness& h) {
    const auto r = ok(h, wb::runIlpOccupancy(0, std::size_t{256} << 20, 3), "runIlpOccupancy");
    if (!r)
        return;
    WB_CHECK(h, r->points.size() == 16);
    for (const auto& p : r->points) {
        std::printf("ilp %d warps/SM %2d occ %.3f %.0f GB/s\n", p.ilp, p.warpsPerSm,
                    p.occupancyTheoretical, p.gbs);
        WB_CHECK(h, p.gbs > 0 && p.occupancyTheoretical > 0 && p.occupancyTheoretical <= 1.0);
    }
    // Targets 1, 2, 4, 8 blocks of 8 warps: the occupancy API must agree on a 64-warp SM.
    for (std::size_t i = 0; i < r->points.size(); ++i) {
        const int target = 8 << (i / 4);
        WB_CHECK_MSG(h, r->points[i].warpsPerSm == target,
                     std::to_string(r->points[i].warpsPerSm) + " vs " + std::to_string(target));
    }
}

void roofline(Harness& h) {
    const auto r = ok(h, wb::runRooflineProbes(0, 1024), "runRooflineProbes");
    if (!r)
        return;
    std::printf("fp32 %.1f TFLOP/s, bf16 %.1f TFLOP/s, copy %.0f GB/s\n", r->fp32Tflops,
                r->bf16Tflops, r->hbmGbs);
    WB_CHECK(h, r->fp32Tflops > 1);
    WB_CHECK(h, r->bf16Supported && r->bf16Tflops > r->fp32Tflops);
    WB_CHECK(h, r->hbmGbs > 100);
}

void recorder(Harness& h) {
    wb::RecordOptions o;
    o.quick = true;
    o.command = "test_gpu_kernels";
    for (const auto& id : wb::recordableScenarios()) {
        const auto r = wb::recordScenario(id, o);
        if (const auto* e = std::get_if<wb::RunError>(&r)) {
            WB_CHECK_MSG(h, false, id + ": " + e->message);
            continue;
        }
        const auto& t = std::get<wb::Trace>(r);
        WB_CHECK_MSG(h, !wb::validateTrace(t).has_value(), id);
        WB_CHECK(h, t.provenance.source == wb::TraceSource::Live);
        WB_CHECK_MSG(h,
                     t.provenance.driverVersion.find('.') != std::string::npos &&
                         t.provenance.driverVersion.size() > 5,
                     id + ": driver " + t.provenance.driverVersion);
        WB_CHECK(h, t.metadata.at("scenario") == id);
        WB_CHECK_MSG(h, !t.events.empty() || !t.series.empty(), id);
    }
}
#endif

} // namespace

int main() {
    Harness h;
#if WARPBOARD_CUDA
    const auto q = wb::queryDevices();
    if (!q.hasGpu())
        return h.skip(q.summary());
    const auto& d = q.devices.front();
    std::printf("device: %s · driver %s\n", d.summary().c_str(), d.driverRelease.c_str());
    // Recordings cite the driver as nvidia-smi does; a Linux NVIDIA driver always says it.
    WB_CHECK_MSG(h, !d.driverRelease.empty(), "no driver release in /proc/driver/nvidia/version");
    transpose(h);
    divergence(h);
    memory(h, d);
    copyAgainstCatalogue(h, d);
    placement(h, d);
    occupancy(h);
    roofline(h);
    recorder(h);
    return h.finish();
#else
    return h.skip("built without CUDA (WARPBOARD_CUDA=OFF)");
#endif
}
