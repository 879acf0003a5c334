#pragma once
// The memory hierarchy as a ladder of levels, each with capacity, latency and bandwidth
// and their sources, plus a Little's-law gauge: bytes that must be in flight to keep the
// chosen level busy.
#include <string>
#include <vector>

namespace wb {

struct LadderLevel {
    std::string name;           // "Registers", "Shared / L1", "L2", "HBM", ...
    std::string capacity;       // formatted with units
    double latencyCycles = 0.0; // 0 = not applicable
    double latencyNs = 0.0;
    double bandwidthGBs = 0.0; // decimal GB/s (aggregate)
    std::string source;
    std::string tip; // hover: what the numbers mean for a kernel
    bool highlight = false;
    // What the rung prints, when the lesson words it ("147 ns near · 236 ns far", "450 GB/s
    // per direction (900 GB/s both)"); empty: the numbers above, formatted by the view.
    std::string latencyLabel;
    std::string bandwidthLabel;
    bool operator==(const LadderLevel&) const = default;
};

struct LadderFrame {
    std::string title;
    double clockGHz = 0.0;           // the clock used to turn cycles into ns
    std::vector<LadderLevel> levels; // fastest first
    // Little's law for the highlighted level: needed = latency × bandwidth.
    double bytesInFlightNeeded = 0.0;
    double bytesInFlightProvided = 0.0; // by the warps/ILP of the scenario, 0 = not shown
    std::string gaugeLabel;
    std::string gaugeSource;
    bool operator==(const LadderFrame&) const = default;
};

} // namespace wb
