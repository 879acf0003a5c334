#include "gpu/memory_ladder.h"

#include <algorithm>
#include <stdexcept>

namespace wb {

namespace {
std::string labelOf(const HardwareCatalogue& cat, const GpuSpec& gpu, const std::string& field) {
    const SpecSource* s = cat.source(gpu.field(field).sourceId);
    return s ? s->label : std::string{};
}
} // namespace

MemoryLadder::MemoryLadder(const GpuSpec& gpu, const HardwareCatalogue& cat)
    : m_gpu(&gpu)
    , m_catalogue(&cat) {
    const double sms = gpu.value("sm_count");
    const double clockHz = gpu.value("vector_clock_ghz") * 1e9;
    auto src = [&](const char* field) { return labelOf(cat, gpu, field); };

    // Registers: 64K × 4 B per SM; operand delivery is not a memory bandwidth.
    m_levels.push_back({"Registers",
                        "per SM",
                        gpu.value("registers_per_sm") * 4.0 * sms,
                        gpu.value("register_latency_cycles"),
                        0.0,
                        src("registers_per_sm"),
                        src("register_latency_cycles"),
                        {}});
    // Shared memory / L1: 32 banks × 4 B per clock per SM.
    m_levels.push_back(
        {"Shared memory / L1", "per SM", gpu.value("l1_shared_per_sm_kb") * 1024.0 * sms,
         gpu.value("shared_latency_cycles"), 128.0 * sms * clockHz, src("l1_shared_per_sm_kb"),
         src("shared_latency_cycles"), cat.source("smem-bandwidth-derived")->label});
    m_levels.push_back({"L2 cache", "per GPU", gpu.value("l2_cache_mb") * 1e6,
                        gpu.value("l2_latency_cycles"),
                        gpu.has("l2_bandwidth_gbs") ? gpu.value("l2_bandwidth_gbs") * 1e9 : 0.0,
                        src("l2_cache_mb"), src("l2_latency_cycles"),
                        gpu.has("l2_bandwidth_gbs") ? src("l2_bandwidth_gbs") : std::string{}});
    m_levels.push_back({"HBM", "per GPU", gpu.value("memory_gb") * 1e9,
                        gpu.value("hbm_latency_cycles"), gpu.value("memory_bandwidth_gbs") * 1e9,
                        src("memory_gb"), src("hbm_latency_cycles"), src("memory_bandwidth_gbs")});
    // Links: per direction, which is what one transfer can use.
    m_levels.push_back({"NVLink peer",
                        "per direction",
                        0.0,
                        0.0,
                        gpu.value("nvlink_bidirectional_gbs") / 2.0 * 1e9,
                        {},
                        {},
                        src("nvlink_bidirectional_gbs")});
    m_levels.push_back({"PCIe host",
                        "per direction",
                        0.0,
                        0.0,
                        gpu.value("pcie_per_direction_gbs") * 1e9,
                        {},
                        {},
                        src("pcie_per_direction_gbs")});
    m_levels.push_back({"Network (NIC)",
                        "per direction",
                        0.0,
                        0.0,
                        gpu.value("nic_gbps") / 8.0 * 1e9,
                        {},
                        {},
                        src("nic_gbps")});
}

const MemoryLevel& MemoryLadder::level(const std::string& name) const {
    for (const auto& l : m_levels)
        if (l.name == name)
            return l;
    throw std::out_of_range("no memory level '" + name + "'");
}

double MemoryLadder::clockGHz() const {
    return m_gpu->value("vector_clock_ghz");
}

double MemoryLadder::latencyNs(const MemoryLevel& level) const {
    return level.latencyCycles / clockGHz();
}

double MemoryLadder::modeledChaseLatencyCycles(double ws) const {
    if (!(ws > 0.0))
        throw std::invalid_argument("working set must be positive");
    const double l1Bytes = m_gpu->value("l1_shared_per_sm_kb") * 1024.0;
    const double l2Bytes = m_gpu->value("l2_cache_mb") * 1e6;
    const double l1 = m_gpu->value("l1_latency_cycles");
    const double l2Near = m_gpu->value("l2_latency_cycles");
    const double l2Far = m_gpu->value("l2_far_latency_cycles");
    const double hbm = m_gpu->value("hbm_latency_cycles");
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
