#pragma once
// The cuda-samples transpose kernels (copy, naive, shared-memory tiled, tiled with a padded
// [TILE][TILE+1] tile), executed as address arithmetic: blocks of TILE × BLOCK_ROWS threads,
// each thread looping over TILE / BLOCK_ROWS rows. Every lane's address comes from the
// kernels' own indexing and goes through MemoryAccessModel.
#include "frames/memory_access_frame.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

enum class TransposeVariant { Copy, Naive, Tiled, Padded };
const std::vector<std::string>& transposeVariantNames(); // copy, naive, tiled, padded
std::optional<TransposeVariant> parseTransposeVariant(const std::string& name);

struct TransposeConfig {
    int n = 1024; // n × n matrix
    TransposeVariant variant = TransposeVariant::Naive;
    int elementBytes = 4;
    int tile = 32;
    int blockRows = 8;
};

struct TransposeSummary {
    double loadSectorsPerRequest = 0.0;
    double storeSectorsPerRequest = 0.0;
    // The shared instruction with the most wavefronts, and the most wavefronts beyond the
    // minimum (bank conflicts) of any one; both 0 when the kernel uses no shared memory.
    int smemWorstWavefronts = 0;
    int smemWorstExtraWavefronts = 0;
    std::uint64_t loadRequests = 0;
    std::uint64_t storeRequests = 0;
    // The 32-byte sectors the requests move between L1 and L2 over the whole kernel. Not DRAM
    // traffic: L2 can merge partial writes to one line before it writes the line back.
    std::uint64_t l1l2Sectors = 0;
    std::uint64_t l1l2Bytes = 0;           // sectors × 32
    std::uint64_t smemWavefronts = 0;      // summed over the kernel's shared instructions
    std::uint64_t smemExtraWavefronts = 0; // of those, the ones beyond each minimum
    double relativeTime = 1.0;             // vs the copy kernel of the same size (see .cpp)
};

class TransposeModel {
public:
    // Throws std::invalid_argument naming the allowed values.
    explicit TransposeModel(TransposeConfig config);

    const TransposeConfig& config() const { return m_config; }
    int warpsPerBlock() const;
    int iterations() const { return m_config.tile / m_config.blockRows; }

    // The kernel's memory instructions for one warp at loop iteration `iteration`, in
    // program order: global load, [shared store, shared load,] global store. The tiled
    // kernels run all loads before __syncthreads and all stores after; each frame stands
    // for its own loop iteration.
    std::vector<MemoryAccessFrame> warpFrames(int blockX = 0, int blockY = 0, int warp = 0,
                                              int iteration = 0) const;
    TransposeSummary summary() const;

private:
    TransposeConfig m_config;
};

} // namespace wb
