#include "gpu/thread_map.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "gpu/wave_model.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wb {

ThreadMapFrame threadMapFrame(int block, int threadsPerBlock, int warpSize, int subPartitions) {
    if (threadsPerBlock < 1 || warpSize < 1 || subPartitions < 1)
        throw std::invalid_argument("threads per block, warp size and schedulers must be ≥ 1");
    ThreadMapFrame f;
    f.warpSize = warpSize;
    f.schedulers = subPartitions;
    const int warps = (threadsPerBlock + warpSize - 1) / warpSize;
    for (int w = 0; w < warps; ++w) {
        const int first = w * warpSize;
        f.warps.push_back({.warp = w,
                           .firstThread = first,
                           .threads = std::min(warpSize, threadsPerBlock - first),
                           .scheduler = schedulerOfWarpSlot(w, subPartitions)});
    }
    f.title = fill("Block %1: %2 → %3 of %4 lanes → %5",
                   {std::to_string(block), formatCount(threadsPerBlock, "thread", "threads"),
                    formatCount(warps, "warp", "warps"), std::to_string(warpSize),
                    formatCount(subPartitions, "scheduler", "schedulers")});
    const int idle = warps * warpSize - threadsPerBlock;
    const std::string partial =
        idle == 0 ? std::string()
                  : fill(" The last warp has %1: the block is not a multiple of %2 threads.",
                         {formatCount(idle, "idle lane", "idle lanes"), std::to_string(warpSize)});
    f.note = fill("Thread t runs in lane t mod %1 of warp ⌊t/%1⌋ (CUDA C++ Programming Guide, "
                  "SIMT architecture). Warp w goes to scheduler w mod %2: modeled, since the "
                  "hardware's assignment is undocumented.%3",
                  {std::to_string(warpSize), std::to_string(subPartitions), partial});
    return f;
}

} // namespace wb
