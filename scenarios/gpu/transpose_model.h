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
    int smemConflictDegree = 0; // worst shared instruction; 0 = no shared memory used
    std::uint64_t loadRequests = 0;
    std::uint64_t storeRequests = 0;
    std::uint64_t dramSectors = 0;
    std::uint64_t dramBytes = 0;      // sectors × 32 over the whole kernel
    std::uint64_t smemWavefronts = 0; // conflict degrees summed over shared instructions
    double relativeTime = 1.0;        // vs the copy kernel of the same size (see .cpp)
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
