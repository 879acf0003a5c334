#pragma once
// Bandwidth against occupancy and ILP as a trace (kind "ilp-occupancy", docs/RECORDINGS.md):
// what the ILP copy kernel records on a GPU, or what the warp-scheduler simulation and
// Little's law predict in the same schema, so the occupancy scenario draws both through one
// path.
#include "catalogue/hardware_catalogue.h"
#include "gpu/littles_law.h"
#include "trace/trace.h"

#include <cstdint>
#include <vector>

namespace wb {

inline constexpr const char* kIlpOccupancyKind = "ilp-occupancy";

// The grid the modeled trace covers: ILP 1/2/4/8 × 8/16/32/48/64 resident warps per SM.
const std::vector<int>& modeledIlpValues();
const std::vector<int>& modeledWarpsPerSm();

// Modeled bandwidth of a copy kernel with `warpsPerSm` resident warps, each keeping `ilp`
// independent 128-byte loads outstanding, on `gpu` with HBM latency `latencyCycles`:
//   loads in flight = the warp-scheduler simulation's average (one dependent instruction per
//                     loaded value: the copy's store), and
//   GB/s = catalogue HBM bandwidth × min(1, loads in flight / loads Little's law needs).
// Below the need, bandwidth is latency-bound (bytes in flight / latency); at it, HBM is the
// limit. Not modeled: DRAM efficiency (a real copy peaks near 90 % of the catalogue figure).
double modeledIlpBandwidthGBs(const GpuSpec& gpu, int warpsPerSm, int ilp, int latencyCycles);

// The whole modeled grid: one event per (ILP, warps) point, durationNs = the time to move the
// metadata's `bytes` at the modeled bandwidth. Provenance "modeled", never "measured".
Trace modeledIlpOccupancy(const GpuSpec& gpu, int latencyCycles);

// One event of an ilp-occupancy trace, as recorded.
struct IlpOccupancyPoint {
    int ilp = 1;
    double warpsPerSm = 0.0;
    double occupancy = 0.0; // theoretical, 0…1
    double gbs = 0.0;
    std::int64_t durationNs = 0;
    bool operator==(const IlpOccupancyPoint&) const = default;
};

// The trace's points in recorded order (events missing `ilp` or `gbs` are skipped).
std::vector<IlpOccupancyPoint> ilpOccupancyPoints(const Trace& trace);

} // namespace wb
