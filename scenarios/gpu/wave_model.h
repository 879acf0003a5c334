#pragma once
// Waves of thread blocks: a grid of G blocks runs on S SMs that each hold B blocks at once
// (B from the occupancy calculator), so it runs in ⌈G / (S·B)⌉ waves and the last wave fills
// only part of the GPU. The dispatch simulation places blocks round-robin over the SMs, as
// the block scheduler is usually drawn, and spreads each SM's warps over its schedulers.
#include "frames/sm_grid_frame.h"

#include <vector>

namespace wb {

struct WaveSummary {
    int blocks = 0;
    int smCount = 0;
    int blocksPerSm = 0;
    int slotsPerWave = 0; // smCount × blocksPerSm
    int waves = 0;        // ⌈blocks / slotsPerWave⌉
    // Blocks in the last wave / slotsPerWave, in (0, 1]; 1 = the grid fills every wave.
    double tailUtilization = 1.0;
};

// Throws std::invalid_argument unless blocks, smCount and blocksPerSm are all ≥ 1 (a kernel
// whose block does not fit an SM never launches).
WaveSummary waveSummary(int blocks, int smCount, int blocksPerSm);

// One block resident on an SM during a wave.
struct ResidentBlock {
    int block = 0;
    int sm = 0;
};

// The SM grid while `wave` (1-based; 0 = before launch) runs the `resident` blocks: shared by
// the modeled round-robin dispatch and a recorded placement. Blocks [first, last) of the
// wave are `resident` in start order; warps spread over the schedulers as warp k → k mod 4.
SmGridFrame smGridFrame(const WaveSummary& summary, int wave,
                        const std::vector<ResidentBlock>& resident, int warpsPerBlock,
                        int maxWarpsPerSm, int subPartitions);

// The scheduler (sub-partition) that issues the SM's `slot`-th resident warp: slot mod the
// schedulers. The hardware's assignment is undocumented and %smid does not report it; this is
// the usual reading, and every view of warps on schedulers uses it.
int schedulerOfWarpSlot(int slot, int subPartitions);

// The wave shown at t in [0, 1]: ⌊t·waves⌋ + 1, the last one at t = 1.
int waveAt(double t, int waves);

class WaveModel {
public:
    // warpsPerBlock ≥ 1; subPartitions ≥ 1 (4 warp schedulers per SM since Volta).
    WaveModel(int blocks, int smCount, int blocksPerSm, int warpsPerBlock, int maxWarpsPerSm = 64,
              int subPartitions = 4);

    const WaveSummary& summary() const { return m_summary; }

    // SM that runs `block` and the wave it runs in (1-based): within a wave the i-th block
    // goes to SM i mod S. Every block of a wave is assumed to finish before the next wave
    // starts (equal block durations), the picture behind the waves formula.
    int smOf(int block) const;
    int waveOf(int block) const;

    // The GPU while wave `wave` (1…waves) runs; wave 0 is the empty GPU before launch.
    // Throws std::out_of_range outside 0…waves.
    SmGridFrame waveFrame(int wave) const;
    // t in [0, 1] spread evenly over the waves: wave ⌊t·waves⌋ + 1, the last one at t = 1.
    SmGridFrame frameAt(double t) const;

private:
    WaveSummary m_summary;
    int m_warpsPerBlock;
    int m_maxWarpsPerSm;
    int m_subPartitions;
};

} // namespace wb
