#pragma once
// Special registers read through inline PTX: the runtime has no intrinsics for them.
#include <cstdint>

namespace wb {

__device__ __forceinline__ unsigned smId() {
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

// The warp's hardware slot on its SM; it can change during a run, so it is for display only.
__device__ __forceinline__ unsigned warpSlot() {
    unsigned r;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
    return r;
}

// Nanoseconds on a GPU-wide timer: comparable across SMs, unlike clock64(), but it ticks
// coarsely (about a microsecond on some parts), so blocks are made to last much longer.
__device__ __forceinline__ std::uint64_t globalTimerNs() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

} // namespace wb
