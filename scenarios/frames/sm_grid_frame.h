#pragma once
// The GPU's SMs at one moment of block dispatch: which blocks are resident where, how the
// warps spread over each SM's four sub-partitions, and which wave is running.
#include <string>
#include <vector>

namespace wb {

struct SmState {
    std::vector<int> blocks;            // resident block ids
    std::vector<int> subPartitionWarps; // 4 entries: warps per scheduler
    std::string tip;                    // hover text with this SM's numbers
    bool operator==(const SmState&) const = default;
};

struct SmGridFrame {
    std::string title;
    int smCount = 0;
    int maxBlocksPerSm = 0; // from the occupancy model
    int warpsPerBlock = 0;
    int maxWarpsPerSm = 64;
    std::vector<SmState> sms;
    int wave = 0; // 1-based wave shown, 0 = none yet
    int waves = 0;
    int blocksTotal = 0;
    int blocksDone = 0;           // finished in earlier waves
    double tailUtilization = 1.0; // fill of the last wave
    bool operator==(const SmGridFrame&) const = default;
};

} // namespace wb
