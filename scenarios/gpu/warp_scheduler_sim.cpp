#include "gpu/warp_scheduler_sim.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "engine/to_index.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace wb {

namespace {

void requireRange(const char* what, int value, int lo, int hi) {
    if (value < lo || value > hi)
        throw std::invalid_argument(
            fill("%1 must be %2…%3, got %4",
                 {what, std::to_string(lo), std::to_string(hi), std::to_string(value)}));
}

// One warp's place in its loop and the cycles at which its results become ready.
struct WarpState {
    int pc = 0;                        // 0…ilp−1: loads; then ilp × computePerLoad compute
    std::vector<long long> loadReady;  // per loaded value
    std::vector<long long> chainReady; // last compute result of each value's chain
};

} // namespace

WarpSchedulerSim::WarpSchedulerSim(WarpSchedulerConfig config)
    : m_config(config) {
    const WarpSchedulerConfig& c = m_config;
    requireRange("max warps per SM", c.maxWarpsPerSm, 1, 1024);
    requireRange("warps", c.warps, 1, c.maxWarpsPerSm);
    requireRange("schedulers", c.schedulers, 1, 8);
    requireRange("ILP", c.ilp, 1, 32);
    requireRange("compute per load", c.computePerLoad, 1, 1024);
    requireRange("memory latency (cycles)", c.memoryLatency, 1, 100000);
    requireRange("compute latency (cycles)", c.computeLatency, 1, 100000);
    requireRange("cycles", c.cycles, 1, 1000000);
    run();
}

void WarpSchedulerSim::run() {
    const WarpSchedulerConfig& c = m_config;
    const int programLength = c.ilp + c.ilp * c.computePerLoad;
    std::vector<WarpState> warps(toIndex(c.warps));
    for (auto& w : warps) {
        w.loadReady.assign(toIndex(c.ilp), 0);
        w.chainReady.assign(toIndex(c.ilp), 0);
    }

    IssueTimelineFrame& f = m_result.timeline;
    f.schedulers = c.schedulers;
    f.cycles = c.cycles;
    f.shownUpTo = c.cycles;
    f.issued.assign(toIndex(c.schedulers), std::vector<int>(toIndex(c.cycles), -1));
    f.warpsPerScheduler = (c.warps + c.schedulers - 1) / c.schedulers;
    m_result.instructionsPerWarp.assign(toIndex(c.warps), 0);

    // Cycle at which the instruction at the warp's pc has its operands.
    auto readyAt = [&](const WarpState& w) -> long long {
        if (w.pc < c.ilp)
            return 0; // a load: its address does not depend on earlier results
        const int q = w.pc - c.ilp;
        const int chain = q % c.ilp; // chains interleaved: value 0, 1, …, ilp−1, 0, 1, …
        return q / c.ilp == 0 ? w.loadReady[toIndex(chain)] : w.chainReady[toIndex(chain)];
    };
    auto issue = [&](WarpState& w, long long cycle) {
        if (w.pc < c.ilp) {
            w.loadReady[toIndex(w.pc)] = cycle + c.memoryLatency;
            // Cycles this load is outstanding within the window (Little's law: L = λW).
            m_result.averageLoadsInFlight +=
                static_cast<double>(std::min<long long>(c.memoryLatency, c.cycles - cycle));
        } else {
            const int chain = (w.pc - c.ilp) % c.ilp;
            w.chainReady[toIndex(chain)] = cycle + c.computeLatency;
        }
        w.pc = (w.pc + 1) % programLength;
    };

    std::vector<int> lastIssued(toIndex(c.schedulers), -1); // round-robin position per scheduler
    long long steadyIssued = 0;
    const int steadyFrom = c.cycles / 2;
    for (int cycle = 0; cycle < c.cycles; ++cycle) {
        for (int s = 0; s < c.schedulers; ++s) {
            // This scheduler's warps are s, s + S, s + 2S, … (round-robin assignment).
            const int own = (c.warps - s + c.schedulers - 1) / c.schedulers;
            if (own <= 0)
                continue;
            const int start =
                c.policy == SchedulerPolicy::RoundRobin ? (lastIssued[toIndex(s)] + 1) % own : 0;
            for (int k = 0; k < own; ++k) {
                const int local = (start + k) % own;
                const int id = s + local * c.schedulers;
                WarpState& w = warps[toIndex(id)];
                if (readyAt(w) <= cycle) {
                    issue(w, cycle);
                    f.issued[toIndex(s)][toIndex(cycle)] = id;
                    lastIssued[toIndex(s)] = local;
                    ++m_result.issuedSlots;
                    ++m_result.instructionsPerWarp[toIndex(id)];
                    if (cycle >= steadyFrom)
                        ++steadyIssued;
                    break;
                }
            }
        }
    }

    const double slots = static_cast<double>(c.schedulers) * c.cycles;
    m_result.utilization = static_cast<double>(m_result.issuedSlots) / slots;
    m_result.steadyUtilization = static_cast<double>(steadyIssued) /
                                 (static_cast<double>(c.schedulers) * (c.cycles - steadyFrom));
    m_result.averageLoadsInFlight /= c.cycles;
    // The caption quotes the steady state, the same figure the lessons put beside it: the
    // first loads' latency is a start-up cost, not what the configuration sustains.
    f.utilization = m_result.steadyUtilization;
    const long long occupancyPct = std::lround(100.0 * c.warps / c.maxWarpsPerSm);
    f.caption = fill("%1 (%2 occupancy), ILP %3: %4 of issue slots used from cycle %5 on",
                     {formatCount(c.warps, "warp", "warps"),
                      formatPercent(static_cast<double>(occupancyPct)), std::to_string(c.ilp),
                      formatShare(m_result.steadyUtilization), std::to_string(steadyFrom)});
    f.title = fill(
        "Issue slots of %1 schedulers over %2 cycles, memory latency %3 cycles",
        {std::to_string(c.schedulers), std::to_string(c.cycles), std::to_string(c.memoryLatency)});
}

IssueTimelineFrame WarpSchedulerSim::frameAt(double t) const {
    IssueTimelineFrame f = m_result.timeline;
    f.shownUpTo = static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * f.cycles));
    return f;
}

} // namespace wb
