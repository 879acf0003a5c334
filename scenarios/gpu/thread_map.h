#pragma once
// The thread → lane → warp → scheduler mapping of one block, for the silicon-mapping lesson's
// picture of a block landing on an SM.
#include "frames/thread_map_frame.h"

namespace wb {

// Block `block` (the first to land on its SM, so its warp w is the SM's warp slot w) of
// `threadsPerBlock` threads: warps of `warpSize` lanes, the last one partial when the block is
// not a multiple of the warp size, each issued by schedulerOfWarpSlot(w, subPartitions).
// Throws std::invalid_argument unless threadsPerBlock, warpSize and subPartitions are ≥ 1.
ThreadMapFrame threadMapFrame(int block, int threadsPerBlock, int warpSize, int subPartitions);

} // namespace wb
