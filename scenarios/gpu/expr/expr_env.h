#pragma once
// The values an index expression can read for one lane: CUDA's built-in coordinates, the
// lane and warp numbers, and the caller's named parameters (in the order given to
// Expression::parse).
#include <cstdint>
#include <vector>

namespace wb {

struct Dim3 {
    std::int64_t x = 0;
    std::int64_t y = 0;
    std::int64_t z = 0;
    bool operator==(const Dim3&) const = default;
};

struct ExprEnv {
    Dim3 threadIdx;
    Dim3 blockIdx;
    Dim3 blockDim{32, 1, 1};
    Dim3 gridDim{1, 1, 1};
    std::int64_t lane = 0;
    std::int64_t warp = 0;
    std::vector<std::int64_t> params; // same order as the names given to parse()
};

} // namespace wb
