#pragma once
// Latency hiding on one SM, cycle by cycle: 4 warp schedulers each issue at most one
// instruction per cycle from one of their ready warps. Every warp loops over the same small
// program: ILP independent loads, then for each loaded value a chain of dependent compute
// instructions (the chains interleaved, so compute has the same ILP). A scheduler idles
// when all its warps wait on a result. More warps (TLP) or more independent loads per warp
// (ILP) fill the idle slots: the simulation behind "25 % occupancy can beat 75 %".
//
// Modeled: fixed latencies, in-order issue per warp, one issue per scheduler per cycle.
// Not modeled: memory bandwidth limits (latency never grows under load), instruction fetch,
// register-bank conflicts, dual issue. Deterministic: same config, same timeline.
#include "frames/issue_timeline_frame.h"

#include <string>
#include <vector>

namespace wb {

enum class SchedulerPolicy {
    OldestFirst, // the ready warp that was launched first (lowest id), as in GTO's fallback
    RoundRobin,  // loose round robin: the next ready warp after the one issued last
};

struct WarpSchedulerConfig {
    int warps = 8;      // resident warps on the SM; warp w goes to scheduler w mod schedulers
    int schedulers = 4; // sub-partitions per SM (Volta and later)
    int ilp = 1;        // independent loads per loop iteration
    // Dependent compute instructions per loaded value. 32 FMAs per 4-byte value is 16 FLOP/B,
    // near the H100 FP32 ridge (20 FLOP/B, FACTS.md §1.3): a balanced kernel, where latency
    // hiding decides the speed.
    int computePerLoad = 32;
    // HBM load latency in cycles: FACTS.md §2.4's safe range is ≈ 450–650 cycles.
    int memoryLatency = 500;
    // Dependent FP32 FMA: 4 cycles (FACTS.md §2.1, [A] Table II).
    int computeLatency = 4;
    int cycles = 2000;      // simulated and shown
    int maxWarpsPerSm = 64; // for the occupancy in the caption
    SchedulerPolicy policy = SchedulerPolicy::OldestFirst;
};

struct WarpSchedulerResult {
    IssueTimelineFrame timeline; // shownUpTo = cycles
    long long issuedSlots = 0;
    double utilization = 0.0;          // issued / (schedulers × cycles)
    double steadyUtilization = 0.0;    // the same over the second half (after the first loads)
    double averageLoadsInFlight = 0.0; // Little's law check: ≈ load issue rate × latency
    std::vector<long long> instructionsPerWarp;
};

class WarpSchedulerSim {
public:
    // Runs the simulation. Throws std::invalid_argument naming the allowed range when warps
    // are outside 1…maxWarpsPerSm, schedulers 1…8, ILP 1…32, compute per load 1…1024,
    // latencies 1…100000 or cycles 1…1000000.
    explicit WarpSchedulerSim(WarpSchedulerConfig config);

    const WarpSchedulerConfig& config() const { return m_config; }
    const WarpSchedulerResult& result() const { return m_result; }

    // The timeline revealed up to cycle round(t × cycles), t clamped to [0, 1].
    IssueTimelineFrame frameAt(double t) const;

private:
    void run();

    WarpSchedulerConfig m_config;
    WarpSchedulerResult m_result;
};

} // namespace wb
