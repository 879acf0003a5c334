#pragma once
// The branch kinds of the warp-divergence scenario (warp-divergence) evaluated on the CPU: which
// lanes of a warp are active at each branch point. The kernel in divergence.cu and the model in
// scenarios/gpu/simt_interpreter use the same conditions; the GPU test compares the masks
// __activemask() reported with these.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

const std::vector<std::string>& divergenceBranchKinds();
const std::vector<std::string>& divergencePoints(const std::string& kind);

// Data values per thread of a block, 0..999, from mt19937_64(seed): lane l of warp w gets
// the (32 w + l)-th draw, so warp 0 sees the same values as the SIMT model's lanes.
std::vector<std::int32_t> divergenceData(std::uint64_t seed, int blockDim);
// The then-threshold for kind "data": a lane takes "then" when data < threshold.
std::int32_t divergenceThreshold(double p);

// Expected active mask at (kind, point) for warp `warp` of block `block`, or nullopt when
// no lane of that warp reaches the point (the kernel records nothing then).
std::optional<std::uint32_t>
expectedDivergenceMask(const std::string& kind, const std::string& point, int block, int warp,
                       int blockDim, const std::vector<std::int32_t>& data, double p);

} // namespace wb
