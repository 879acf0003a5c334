#pragma once
// The lane views draw one column per thread of a warp; the frames carry at most this many lanes.

namespace wb {

inline constexpr int kLanesPerWarp = 32;

} // namespace wb
