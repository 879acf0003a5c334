#pragma once
// Block placement as a trace (kind "block-placement", docs/RECORDINGS.md): the SM each block
// ran on (%smid) and when it started, as a GPU records it or as the wave model predicts it.
// The silicon-mapping scenario draws both through BlockPlacementReplay.
#include "frames/sm_grid_frame.h"
#include "gpu/occupancy_calculator.h"
#include "gpu/wave_model.h"
#include "trace/trace.h"

#include <string>
#include <vector>

namespace wb {

inline constexpr const char* kBlockPlacementKind = "block-placement";

// The nominal duration of one modeled block: the wave picture assumes equal block durations,
// so only the order of start times matters, not this scale.
inline constexpr std::int64_t kModeledBlockNs = 1000;

// The wave model's placement: block b on SM smOf(b), starting when its wave starts.
// Provenance "modeled", never "measured".
// warpsPerBlock: the occupancy calculator's.
Trace modeledBlockPlacement(const WaveModel& waves, const KernelResources& kernel,
                            int warpsPerBlock, const std::string& gpuId,
                            const std::string& gpuName);

// Replays a block-placement trace as SM grid frames. Waves come from the events' start
// times: blocks in start order (ties by block id) fill the SMs' slots (sm_count ×
// blocks_per_sm from the metadata) one wave after another, so wave k holds the k-th slot's
// worth of starts; every block is drawn on the SM it recorded.
class BlockPlacementReplay {
public:
    // Throws std::invalid_argument when the trace has no block events or lacks sm_count /
    // blocks_per_sm. maxWarpsPerSm comes from the catalogue (the trace does not carry it).
    BlockPlacementReplay(const Trace& trace, int maxWarpsPerSm, int subPartitions = 4);

    const WaveSummary& summary() const { return m_summary; }
    int warpsPerBlock() const { return m_warpsPerBlock; }
    // SM and wave (1-based) of a block id; -1 / 0 when the trace has no such block.
    int smOf(int block) const;
    int waveOf(int block) const;

    // Same contract as WaveModel::waveFrame / frameAt.
    SmGridFrame waveFrame(int wave) const;
    SmGridFrame frameAt(double t) const;

private:
    struct Placed {
        int block = 0;
        int sm = 0;
        int wave = 0;
    };
    WaveSummary m_summary;
    std::vector<Placed> m_blocks; // in start order
    int m_warpsPerBlock = 1;
    int m_maxWarpsPerSm = 64;
    int m_subPartitions = 4;
};

} // namespace wb
