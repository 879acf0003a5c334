#pragma once
// Models count ranks, experts, lanes and SMs in ints; containers index with size_t. One cast,
// named, instead of a static_cast at every subscript.
#include <cstddef>

namespace wb {

inline std::size_t toIndex(int i) {
    return static_cast<std::size_t>(i);
}

} // namespace wb
