#include "gpu/ilp_occupancy_recording.h"

#include "engine/sentence.h"
#include "gpu/littles_law.h"
#include "gpu/warp_scheduler_sim.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace wb {

namespace {

// What a modeled run moves (read + write of a 256 MiB buffer): big enough that a real copy
// runs at steady bandwidth, so the durations read like the recorded ones.
constexpr double kModeledBytes = 2.0 * 256.0 * 1024.0 * 1024.0;

} // namespace

const std::vector<int>& modeledIlpValues() {
    static const std::vector<int> values{1, 2, 4, 8};
    return values;
}

const std::vector<int>& modeledWarpsPerSm() {
    static const std::vector<int> values{8, 16, 32, 48, 64};
    return values;
}

double modeledIlpBandwidthGBs(const GpuSpec& gpu, int warpsPerSm, int ilp, int latencyCycles) {
    // The simulation and Little's law must see the same latency, so it is given in cycles and
    // converted at the clock memoryParallelism() uses.
    const double clockGHz = gpu.value("vector_clock_ghz");
    const MemoryParallelism m =
        memoryParallelism(gpu, static_cast<double>(latencyCycles) / clockGHz);
    WarpSchedulerConfig c;
    c.warps = warpsPerSm;
    c.ilp = ilp;
    c.computePerLoad = 1; // a copy: each loaded value feeds one store
    c.memoryLatency = latencyCycles;
    // Several round trips, so the ramp-up at the start weighs little in the average.
    c.cycles = std::max(2000, 4 * latencyCycles);
    const WarpSchedulerSim sim(c);
    const double inFlight = sim.result().averageLoadsInFlight;
    const int needed = warpLoadsInFlightNeeded(m.bytesInFlightPerSm, kBytesPerWarpLoad);
    const double share = needed > 0 ? std::min(1.0, inFlight / needed) : 1.0;
    return gpu.value("memory_bandwidth_gbs") * share;
}

Trace modeledIlpOccupancy(const GpuSpec& gpu, int latencyCycles) {
    Trace t;
    t.kind = kIlpOccupancyKind;
    t.provenance.source = TraceSource::Modeled;
    t.provenance.device = gpu.name;
    t.provenance.computeCapability = gpu.computeCapability;
    t.provenance.command =
        fill("warp-scheduler simulation (loads in flight) × Little's law: GB/s = catalogue HBM "
             "bandwidth × min(1, loads in flight / loads needed), latency %1 cycles",
             {std::to_string(latencyCycles)});
    t.provenance.notes = "Not a measurement: a recording from a GPU replaces these numbers.";
    t.metadata["scenario"] = "occupancy";
    t.metadata["gpu"] = gpu.id;
    t.metadata["bytes"] = std::to_string(static_cast<long long>(kModeledBytes));
    t.metadata["latency_cycles"] = std::to_string(latencyCycles);
    const int maxWarps = WarpSchedulerConfig{}.maxWarpsPerSm;
    for (int ilp : modeledIlpValues()) {
        for (int warps : modeledWarpsPerSm()) {
            const double gbs = modeledIlpBandwidthGBs(gpu, warps, ilp, latencyCycles);
            TraceEvent e;
            e.name = "ilp";
            e.durationNs = std::llround(kModeledBytes / gbs); // B / (GB/s) = ns
            e.values["ilp"] = ilp;
            e.values["warps_per_sm"] = warps;
            e.values["occupancy_theoretical"] = static_cast<double>(warps) / maxWarps;
            e.values["gbs"] = gbs;
            t.events.push_back(std::move(e));
        }
    }
    return t;
}

std::vector<IlpOccupancyPoint> ilpOccupancyPoints(const Trace& trace) {
    std::vector<IlpOccupancyPoint> out;
    for (const auto& e : trace.events) {
        const auto ilp = e.values.find("ilp");
        const auto gbs = e.values.find("gbs");
        if (ilp == e.values.end() || gbs == e.values.end())
            continue;
        IlpOccupancyPoint p;
        p.ilp = static_cast<int>(std::lround(ilp->second));
        p.gbs = gbs->second;
        p.durationNs = e.durationNs;
        if (const auto w = e.values.find("warps_per_sm"); w != e.values.end())
            p.warpsPerSm = w->second;
        if (const auto o = e.values.find("occupancy_theoretical"); o != e.values.end())
            p.occupancy = o->second;
        out.push_back(p);
    }
    return out;
}

} // namespace wb
