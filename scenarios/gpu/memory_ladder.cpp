#include "gpu/memory_ladder.h"

#include "engine/sentence.h"
#include "gpu/hbm_latency.h"

#include <algorithm>
#include <stdexcept>

namespace wb {

MemoryLadder::MemoryLadder(const GpuSpec& gpu, const HardwareCatalogue& cat)
    : m_gpu(&gpu)
    , m_catalogue(&cat) {
    const double sms = gpu.value("sm_count");
    const double clockHz = gpu.value("vector_clock_ghz") * 1e9;
    auto src = [&](const char* field) { return cat.sourceLabel(gpu, field); };

    const auto makeLevel = [&](std::string name, std::string scope, double capacity,
                               std::string capacitySource) {
        MemoryLevel l;
        l.name = std::move(name);
        l.scope = std::move(scope);
        l.capacityBytes = capacity;
        l.capacitySource = std::move(capacitySource);
        l.latencyClockGHz = clockHz / 1e9;
        return l;
    };
    // Registers: 64K × 4 B per SM; operand delivery is not a memory bandwidth.
    MemoryLevel regs = makeLevel("Registers", "per SM", gpu.value("registers_per_sm") * 4.0 * sms,
                                 src("registers_per_sm"));
    regs.latencyCycles = gpu.value("register_latency_cycles");
    regs.latencySource = src("register_latency_cycles");
    m_levels.push_back(regs);
    // Shared memory / L1: 32 banks × 4 B per clock per SM.
    MemoryLevel smem =
        makeLevel("Shared memory / L1", "per SM", gpu.value("l1_shared_per_sm_kb") * 1024.0 * sms,
                  src("l1_shared_per_sm_kb"));
    smem.latencyCycles = gpu.value("shared_latency_cycles");
    smem.latencySource = src("shared_latency_cycles");
    smem.bandwidthBytesPerS = 128.0 * sms * clockHz;
    smem.bandwidthSource = cat.source("smem-bandwidth-derived")->label;
    m_levels.push_back(smem);
    // L2: near and far partition, counted on the paper's GPU at its clock.
    MemoryLevel l2 =
        makeLevel("L2 cache", "per GPU", gpu.value("l2_cache_mb") * 1e6, src("l2_cache_mb"));
    l2.latencyCycles = gpu.value("l2_latency_cycles");
    l2.farLatencyCycles = gpu.value("l2_far_latency_cycles");
    if (gpu.has("l2_latency_clock_ghz"))
        l2.latencyClockGHz = gpu.value("l2_latency_clock_ghz");
    l2.latencySource = src("l2_latency_cycles");
    if (gpu.has("l2_bandwidth_gbs")) {
        l2.bandwidthBytesPerS = gpu.value("l2_bandwidth_gbs") * 1e9;
        l2.bandwidthSource = src("l2_bandwidth_gbs");
        const SpecSource* bw = cat.source(gpu.field("l2_bandwidth_gbs").sourceId);
        l2.bandwidthAssumed = bw && bw->confidence == "LOW";
    }
    m_levels.push_back(l2);
    // HBM: measured where a paper has this GPU, else assumed inside the published range.
    const HbmLatency hbmLat = hbmLatency(gpu, cat);
    MemoryLevel hbm = makeLevel("HBM", "per GPU", gpu.value("memory_gb") * 1e9, src("memory_gb"));
    hbm.latencyCycles = hbmLat.cycles;
    hbm.latencyLowNs = hbmLat.lowNs;
    hbm.latencyHighNs = hbmLat.highNs;
    hbm.latencyAssumed = hbmLat.assumed;
    hbm.latencySource = hbmLat.source;
    hbm.bandwidthBytesPerS = gpu.value("memory_bandwidth_gbs") * 1e9;
    hbm.bandwidthSource = src("memory_bandwidth_gbs");
    m_levels.push_back(hbm);
    // Links: per direction, which is what one transfer can use; datasheets quote both.
    MemoryLevel nvlink = makeLevel("NVLink peer", "per direction", 0.0, {});
    nvlink.bidirectionalBytesPerS = gpu.value("nvlink_bidirectional_gbs") * 1e9;
    nvlink.bandwidthBytesPerS = nvlink.bidirectionalBytesPerS / 2.0;
    nvlink.bandwidthSource = src("nvlink_bidirectional_gbs");
    m_levels.push_back(nvlink);
    MemoryLevel pcie = makeLevel("PCIe host", "per direction", 0.0, {});
    pcie.bandwidthBytesPerS = gpu.value("pcie_per_direction_gbs") * 1e9;
    pcie.bandwidthSource = src("pcie_per_direction_gbs");
    if (gpu.has("pcie_bidirectional_gbs")) {
        pcie.bidirectionalBytesPerS = gpu.value("pcie_bidirectional_gbs") * 1e9;
        pcie.bandwidthSource =
            fill("%1; %2", {pcie.bandwidthSource, src("pcie_bidirectional_gbs")});
    }
    m_levels.push_back(pcie);
    MemoryLevel nic = makeLevel("Network (NIC)", "per direction", 0.0, {});
    nic.bandwidthBytesPerS = gpu.value("nic_gbps") / 8.0 * 1e9;
    nic.bidirectionalBytesPerS = 2.0 * nic.bandwidthBytesPerS;
    nic.bandwidthSource = src("nic_gbps");
    m_levels.push_back(nic);
}

const MemoryLevel& MemoryLadder::level(const std::string& name) const {
    for (const auto& l : m_levels)
        if (l.name == name)
            return l;
    throw std::out_of_range(fill("no memory level '%1'", {name}));
}

double MemoryLadder::clockGHz() const {
    return m_gpu->value("vector_clock_ghz");
}

double MemoryLadder::countedAtGHz(const MemoryLevel& level) const {
    return level.latencyClockGHz > 0.0 ? level.latencyClockGHz : clockGHz();
}

double MemoryLadder::latencyNs(const MemoryLevel& level) const {
    return level.latencyCycles / countedAtGHz(level);
}

double MemoryLadder::farLatencyNs(const MemoryLevel& level) const {
    return level.farLatencyCycles / countedAtGHz(level);
}

double MemoryLadder::modeledChaseLatencyCycles(double ws) const {
    if (!(ws > 0.0))
        throw std::invalid_argument("working set must be positive");
    const double l1Bytes = m_gpu->value("l1_shared_per_sm_kb") * 1024.0;
    const double l2Bytes = m_gpu->value("l2_cache_mb") * 1e6;
    // Cycles at this GPU's clock: the papers' L2 cycles were counted on another GPU's.
    const double clock = clockGHz();
    const double l1 = m_gpu->value("l1_latency_cycles");
    const MemoryLevel& l2Level = level("L2 cache");
    const double l2Near = latencyNs(l2Level) * clock;
    const double l2Far = farLatencyNs(l2Level) * clock;
    const double hbm = latencyNs(level("HBM")) * clock;
    // L2 as seen from one SM: near latency while the set fits the near half, then an even
    // mix of near and far lines.
    const double farShare = std::clamp((ws - l2Bytes / 2.0) / ws, 0.0, 0.5);
    const double l2 = l2Near + farShare * (l2Far - l2Near);
    // A random cyclic chase hits a cache of capacity C with probability min(1, C / ws).
    const double l1Hit = std::min(1.0, l1Bytes / ws);
    const double l2Hit = std::min(1.0, l2Bytes / ws);
    const double beyondL1 = l2Hit * l2 + (1.0 - l2Hit) * hbm;
    return l1Hit * l1 + (1.0 - l1Hit) * beyondL1;
}

} // namespace wb
