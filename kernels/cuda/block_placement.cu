// Silicon mapping: which SM ran each block, and when. Each block's first thread reads %smid,
// %warpid and %globaltimer at its start and end; the block spins on clock64() in between so
// its lifetime is far above the timer's resolution and the waves are visible.
#include "cuda/gpu_runner_cuda.cuh"
#include "cuda/probes.h"
#include "cuda/ptx_helpers.cuh"

#include <algorithm>

namespace wb {
namespace {

constexpr int kPlacementThreads = 256;

__global__ void __launch_bounds__(kPlacementThreads)
    placementKernel(unsigned long long* out, long long spinCycles) {
    __shared__ unsigned long long start;
    if (threadIdx.x == 0)
        start = globalTimerNs();
    __syncthreads();
    const long long c0 = clock64();
    // Bounded: spinCycles is clamped on the host to kMaxKernelIterations.
    while (clock64() - c0 < spinCycles) {
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long* rec = out + 4ull * blockIdx.x;
        rec[0] = start;
        rec[1] = globalTimerNs();
        rec[2] = smId();
        rec[3] = warpSlot();
    }
}

} // namespace

RunResult<BlockPlacementResult> runBlockPlacement(int device, long spinCycles) {
    if (auto e = selectDevice(device))
        return *e;
    BlockPlacementResult r;
    r.smCount = deviceAttribute(cudaDevAttrMultiProcessorCount, device);
    r.threadsPerBlock = kPlacementThreads;
    cudaFuncAttributes attr{};
    if (auto e = cudaCheck(cudaFuncGetAttributes(&attr, placementKernel), "cudaFuncGetAttributes"))
        return *e;
    r.registersPerThread = attr.numRegs;
    r.smemPerBlock = static_cast<int>(attr.sharedSizeBytes);
    if (auto e = cudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &r.blocksPerSm, placementKernel, kPlacementThreads, 0),
                           "cudaOccupancyMaxActiveBlocksPerMultiprocessor"))
        return *e;
    // Two full waves and half a wave: enough to show round-robin placement and a tail.
    const int wave = std::max(1, r.smCount * r.blocksPerSm);
    r.blocks = 2 * wave + wave / 2;
    DeviceBuffer<unsigned long long> out;
    if (auto e = out.allocate(4ull * static_cast<std::size_t>(r.blocks), "block records"))
        return *e;
    const long long spin = clampIterations(spinCycles);
    placementKernel<<<r.blocks, kPlacementThreads>>>(out.get(), spin);
    if (auto e = cudaCheck(cudaGetLastError(), "placementKernel launch"))
        return *e;
    if (auto e = cudaCheck(cudaDeviceSynchronize(), "placementKernel"))
        return *e;
    std::vector<unsigned long long> host(out.size());
    if (auto e = copyToHost(host, out.get(), "block records"))
        return *e;
    const int warps = kPlacementThreads / 32;
    for (int b = 0; b < r.blocks; ++b) {
        const auto* rec = host.data() + 4 * static_cast<std::size_t>(b);
        r.records.push_back(BlockRecord{b, static_cast<int>(rec[2]), static_cast<int>(rec[3]),
                                        warps, rec[0], rec[1]});
    }
    return r;
}

} // namespace wb
