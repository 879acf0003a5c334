#include "gpu/wave_model.h"

#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace wb {

WaveSummary waveSummary(int blocks, int smCount, int blocksPerSm) {
    if (blocks < 1 || smCount < 1 || blocksPerSm < 1)
        throw std::invalid_argument(
            fill("waves need blocks ≥ 1, SMs ≥ 1 and blocks per SM ≥ 1 (got %1, %2, %3); 0 "
                 "blocks per SM means the block does not fit",
                 {std::to_string(blocks), std::to_string(smCount), std::to_string(blocksPerSm)}));
    WaveSummary s;
    s.blocks = blocks;
    s.smCount = smCount;
    s.blocksPerSm = blocksPerSm;
    // 64-bit so that absurd inputs are rejected instead of overflowing.
    const long long slots = static_cast<long long>(smCount) * blocksPerSm;
    if (slots > std::numeric_limits<int>::max())
        throw std::invalid_argument("SMs × blocks per SM must fit in an int");
    s.slotsPerWave = static_cast<int>(slots);
    const long long waves = (blocks + slots - 1) / slots;
    s.waves = static_cast<int>(waves);
    // tail = (G − (waves − 1)·S·B) / (S·B)
    s.tailUtilization =
        static_cast<double>(blocks - (waves - 1) * slots) / static_cast<double>(slots);
    return s;
}

WaveModel::WaveModel(int blocks, int smCount, int blocksPerSm, int warpsPerBlock, int maxWarpsPerSm,
                     int subPartitions)
    : m_summary(waveSummary(blocks, smCount, blocksPerSm))
    , m_warpsPerBlock(warpsPerBlock)
    , m_maxWarpsPerSm(maxWarpsPerSm)
    , m_subPartitions(subPartitions) {
    if (warpsPerBlock < 1 || subPartitions < 1 || maxWarpsPerSm < 1)
        throw std::invalid_argument("warps per block, max warps per SM and sub-partitions must "
                                    "be ≥ 1");
}

int WaveModel::waveOf(int block) const {
    return block / m_summary.slotsPerWave + 1;
}

int WaveModel::smOf(int block) const {
    return block % m_summary.slotsPerWave % m_summary.smCount;
}

SmGridFrame smGridFrame(const WaveSummary& s, int wave, const std::vector<ResidentBlock>& resident,
                        int warpsPerBlock, int maxWarpsPerSm, int subPartitions) {
    if (wave < 0 || wave > s.waves)
        throw std::out_of_range(
            fill("wave must be 0…%1, got %2", {std::to_string(s.waves), std::to_string(wave)}));
    SmGridFrame f;
    f.smCount = s.smCount;
    f.maxBlocksPerSm = s.blocksPerSm;
    f.warpsPerBlock = warpsPerBlock;
    f.maxWarpsPerSm = maxWarpsPerSm;
    f.wave = wave;
    f.waves = s.waves;
    f.blocksTotal = s.blocks;
    f.tailUtilization = s.tailUtilization;
    f.sms.resize(static_cast<std::size_t>(s.smCount));

    if (wave > 0) {
        const int first = (wave - 1) * s.slotsPerWave;
        const int last = std::min(first + s.slotsPerWave, s.blocks); // exclusive
        f.blocksDone = first;
        for (const ResidentBlock& r : resident)
            f.sms.at(static_cast<std::size_t>(r.sm)).blocks.push_back(r.block);
        f.title = fill("Wave %1 of %2: blocks %3–%4 of %5",
                       {std::to_string(wave), std::to_string(s.waves), std::to_string(first),
                        std::to_string(last - 1), std::to_string(s.blocks)});
    } else {
        f.title = fill("Before launch: %1 blocks, %2 fit at once",
                       {std::to_string(s.blocks), std::to_string(s.slotsPerWave)});
    }

    for (int sm = 0; sm < s.smCount; ++sm) {
        SmState& st = f.sms[static_cast<std::size_t>(sm)];
        const int blocks = static_cast<int>(st.blocks.size());
        const int warps = blocks * warpsPerBlock;
        // Model: the SM's k-th resident warp goes to scheduler k mod 4, so the warps spread
        // evenly (the hardware's exact mapping is undocumented, and %smid does not say which
        // scheduler a warp got; warp-slot id mod 4 is the usual reading).
        st.subPartitionWarps.assign(static_cast<std::size_t>(subPartitions), 0);
        for (int slot = 0; slot < warps; ++slot)
            ++st.subPartitionWarps[static_cast<std::size_t>(
                schedulerOfWarpSlot(slot, subPartitions))];
        std::string schedulers;
        for (int p = 0; p < subPartitions; ++p) {
            if (p > 0)
                schedulers += '/';
            schedulers += std::to_string(st.subPartitionWarps[static_cast<std::size_t>(p)]);
        }
        const long long pct = std::lround(100.0 * warps / maxWarpsPerSm);
        st.tip = fill("SM %1: %2 of %3 block slots, %4 of %5 warps (%6 %), warps per scheduler %7",
                      {std::to_string(sm), std::to_string(blocks), std::to_string(s.blocksPerSm),
                       std::to_string(warps), std::to_string(maxWarpsPerSm), std::to_string(pct),
                       schedulers});
    }
    return f;
}

int schedulerOfWarpSlot(int slot, int subPartitions) {
    return slot % std::max(1, subPartitions);
}

int waveAt(double t, int waves) {
    const double clamped = std::clamp(t, 0.0, 1.0);
    return std::min(waves, static_cast<int>(std::floor(clamped * waves)) + 1);
}

SmGridFrame WaveModel::waveFrame(int wave) const {
    const WaveSummary& s = m_summary;
    std::vector<ResidentBlock> resident;
    if (wave > 0 && wave <= s.waves) {
        const int first = (wave - 1) * s.slotsPerWave;
        const int last = std::min(first + s.slotsPerWave, s.blocks);
        for (int b = first; b < last; ++b)
            resident.push_back({b, smOf(b)});
    }
    return smGridFrame(s, wave, resident, m_warpsPerBlock, m_maxWarpsPerSm, m_subPartitions);
}

SmGridFrame WaveModel::frameAt(double t) const {
    return waveFrame(waveAt(t, m_summary.waves));
}

} // namespace wb
