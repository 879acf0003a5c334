#pragma once
// Exact address arithmetic for one warp-wide memory instruction (FACTS.md §13): every
// lane's byte address, the distinct 32-byte sectors and 128-byte lines it touches in global
// memory (one request per instruction), or the 4-byte words and 32 banks it hits in shared
// memory, where the wavefronts are the largest number of DISTINCT words any one bank must
// deliver (lanes reading the same word share one broadcast) and bank conflicts are the
// wavefronts beyond the ⌈bytes requested / 128 B⌉ any access of that size needs.
#include "frames/memory_access_frame.h"
#include "gpu/expr/expression.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct LaneIndex {
    bool active = true;
    std::int64_t index = 0; // element index into the array
    bool operator==(const LaneIndex&) const = default;
};

// Where a warp's instruction points: the array, its element size and where it starts.
struct ArrayRef {
    std::string name = "a";
    int elementBytes = 4;
    std::uint64_t baseBytes = 0; // byte address of element 0
};

class MemoryAccessModel {
public:
    static constexpr int kWarpSize = 32;
    static constexpr std::uint64_t kSectorBytes = 32;
    static constexpr std::uint64_t kLineBytes = 128;
    static constexpr std::uint64_t kWordBytes = 4;
    static constexpr std::uint64_t kBanks = 32;

    // Lane i reads element base + i·stride + offset.
    static std::vector<LaneIndex> strided(std::int64_t stride, std::int64_t offset = 0,
                                          std::int64_t base = 0);
    // Lane i's element index from an expression, in a warp whose env is `warpEnv` with
    // lane = i and threadIdx.x = warpEnv.threadIdx.x + i. Throws ExprError.
    static std::vector<LaneIndex> fromExpression(const Expression& expr, const ExprEnv& warpEnv);

    // Both throw std::invalid_argument when a lane's address is negative or beyond 2^50.
    static MemoryAccessFrame global(const std::vector<LaneIndex>& lanes, const ArrayRef& array,
                                    std::string title, std::string instruction);
    static MemoryAccessFrame shared(const std::vector<LaneIndex>& lanes, const ArrayRef& array,
                                    std::string title, std::string instruction);
};

} // namespace wb
