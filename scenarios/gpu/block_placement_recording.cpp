#include "gpu/block_placement_recording.h"

#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

namespace {

int metaInt(const Trace& t, const char* key) {
    const auto it = t.metadata.find(key);
    if (it == t.metadata.end())
        throw std::invalid_argument(fill("block-placement trace lacks metadata %1", {key}));
    return std::stoi(it->second);
}

int valueInt(const TraceEvent& e, const char* key, int fallback) {
    const auto it = e.values.find(key);
    return it == e.values.end() ? fallback : static_cast<int>(std::lround(it->second));
}

} // namespace

Trace modeledBlockPlacement(const WaveModel& waves, const KernelResources& kernel,
                            int warpsPerBlock, const std::string& gpuId,
                            const std::string& gpuName) {
    const WaveSummary& s = waves.summary();
    Trace t;
    t.kind = kBlockPlacementKind;
    t.provenance.source = TraceSource::Modeled;
    t.provenance.device = gpuName;
    t.provenance.command = "wave model: block b on SM (b mod slots per wave) mod SMs, waves of "
                           "equal duration";
    t.provenance.notes = "Not a measurement: the hardware's placement order is undocumented; a "
                         "recording of %smid replaces this.";
    t.metadata["scenario"] = "silicon-mapping";
    t.metadata["gpu"] = gpuId;
    t.metadata["blocks"] = std::to_string(s.blocks);
    t.metadata["threads_per_block"] = std::to_string(kernel.threadsPerBlock);
    t.metadata["registers_per_thread"] = std::to_string(kernel.registersPerThread);
    t.metadata["smem_per_block"] = std::to_string(kernel.sharedPerBlockBytes);
    t.metadata["sm_count"] = std::to_string(s.smCount);
    t.metadata["blocks_per_sm"] = std::to_string(s.blocksPerSm);
    t.events.reserve(static_cast<size_t>(s.blocks));
    for (int b = 0; b < s.blocks; ++b) {
        TraceEvent e;
        e.name = "block";
        e.track = waves.smOf(b);
        e.startNs = (waves.waveOf(b) - 1) * kModeledBlockNs;
        e.durationNs = kModeledBlockNs;
        e.values["block"] = b;
        e.values["smid"] = e.track;
        e.values["warps"] = warpsPerBlock;
        t.events.push_back(std::move(e));
    }
    return t;
}

BlockPlacementReplay::BlockPlacementReplay(const Trace& trace, int maxWarpsPerSm, int subPartitions)
    : m_maxWarpsPerSm(maxWarpsPerSm)
    , m_subPartitions(subPartitions) {
    struct Started {
        std::int64_t start;
        Placed placed;
    };
    std::vector<Started> started;
    for (const auto& e : trace.events) {
        if (e.name != "block")
            continue;
        const Placed p{valueInt(e, "block", static_cast<int>(started.size())),
                       valueInt(e, "smid", e.track), 0};
        started.push_back({e.startNs, p});
        m_warpsPerBlock = std::max(1, valueInt(e, "warps", m_warpsPerBlock));
    }
    if (started.empty())
        throw std::invalid_argument("block-placement trace has no block events");
    int smCount = metaInt(trace, "sm_count");
    for (const auto& s : started)
        smCount = std::max(smCount, s.placed.sm + 1); // a recorded smid is never dropped
    m_summary =
        waveSummary(static_cast<int>(started.size()), smCount, metaInt(trace, "blocks_per_sm"));
    std::stable_sort(started.begin(), started.end(), [](const Started& a, const Started& b) {
        return a.start != b.start ? a.start < b.start : a.placed.block < b.placed.block;
    });
    m_blocks.reserve(started.size());
    for (size_t i = 0; i < started.size(); ++i) {
        Placed p = started[i].placed;
        p.wave = static_cast<int>(i) / m_summary.slotsPerWave + 1;
        m_blocks.push_back(p);
    }
}

int BlockPlacementReplay::smOf(int block) const {
    for (const auto& p : m_blocks)
        if (p.block == block)
            return p.sm;
    return -1;
}

int BlockPlacementReplay::waveOf(int block) const {
    for (const auto& p : m_blocks)
        if (p.block == block)
            return p.wave;
    return 0;
}

SmGridFrame BlockPlacementReplay::waveFrame(int wave) const {
    const WaveSummary& s = m_summary;
    std::vector<ResidentBlock> resident;
    if (wave > 0 && wave <= s.waves) {
        const int first = (wave - 1) * s.slotsPerWave;
        const int last = std::min(first + s.slotsPerWave, s.blocks); // in start order
        for (int i = first; i < last; ++i) {
            const Placed& p = m_blocks[static_cast<std::size_t>(i)];
            resident.push_back({p.block, p.sm});
        }
    }
    return smGridFrame(s, wave, resident, m_warpsPerBlock, m_maxWarpsPerSm, m_subPartitions);
}

SmGridFrame BlockPlacementReplay::frameAt(double t) const {
    return waveFrame(waveAt(t, m_summary.waves));
}

} // namespace wb
