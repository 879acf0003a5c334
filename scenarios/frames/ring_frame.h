#pragma once
// What the ring view draws at one moment of a ring collective: who holds which partial
// sums, which chunks are on the wire and how far they have travelled, bytes sent so far.
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

// Bit r set = rank r's data has been summed into this chunk copy (up to 64 ranks drawn).
using ContributorMask = std::uint64_t;

struct RingTransfer {
    int from = 0;
    int to = 0;
    int chunk = 0;
    ContributorMask carried = 0; // what the moving chunk holds
    double progress = 0.0;       // 0 = leaving `from`, 1 = arrived at `to`
    bool operator==(const RingTransfer&) const = default;
};

struct RingFrame {
    int ranks = 0;
    // holdings[rank][chunk]: contributors summed into that rank's copy of the chunk.
    std::vector<std::vector<ContributorMask>> holdings;
    std::vector<RingTransfer> transfers;
    std::vector<double> bytesSent; // per rank, so far
    double bytesTarget = 0.0;      // 2(N-1)K/N at the end of all-reduce
    std::string phase;             // "reduce-scatter", "all-gather", "done", ""
    int round = 0;                 // 1-based round within the phase, 0 = none
    int roundsInPhase = 0;
    int highlightRank = -1;
    bool operator==(const RingFrame&) const = default;
};

} // namespace wb
