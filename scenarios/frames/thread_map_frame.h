#pragma once
// One block's threads as the hardware groups them: thread t runs in lane t mod 32 of warp
// ⌊t/32⌋, and each warp is issued by one of its SM's warp schedulers.
#include <string>
#include <vector>

namespace wb {

struct ThreadMapWarp {
    int warp = 0;
    int firstThread = 0;
    int threads = 0;   // lanes that hold a thread: the warp size except in a partial last warp
    int scheduler = 0; // the sub-partition that issues this warp
    bool operator==(const ThreadMapWarp&) const = default;
};

struct ThreadMapFrame {
    std::string title;
    std::string note; // how warps reach schedulers, and what of it is modeled
    int warpSize = 32;
    int schedulers = 4;
    std::vector<ThreadMapWarp> warps; // in warp order
    bool operator==(const ThreadMapFrame&) const = default;
};

} // namespace wb
