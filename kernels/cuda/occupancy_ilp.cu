// Occupancy versus instruction-level parallelism (Volkov): one copy kernel whose threads keep
// ILP = 1, 2, 4 or 8 independent loads in flight, launched at 1, 2, 4 and 8 resident blocks
// of 256 threads per SM. Residency is set by padding each block's dynamic shared memory, and
// the occupancy API confirms what it allows. One wave of blocks walks the whole buffer with a
// grid-stride loop, so the run time is bounded by the buffer size.
#include "cuda/gpu_runner_cuda.cuh"
#include "cuda/probes.h"

#include <algorithm>

namespace wb {
namespace {

constexpr int kThreads = 256;

template <int Ilp>
__global__ void __launch_bounds__(kThreads)
    ilpCopyKernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    // Never touched: its size only limits how many blocks fit on an SM.
    extern __shared__ float occupancyPad[];
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (Ilp - 1) * stride < n; i += Ilp * stride) {
        float v[Ilp];
#pragma unroll
        for (int k = 0; k < Ilp; ++k)
            v[k] = in[i + k * stride];
#pragma unroll
        for (int k = 0; k < Ilp; ++k)
            out[i + k * stride] = v[k];
    }
    for (; i < n; i += stride)
        out[i] = in[i];
}

template <int Ilp>
RunResult<IlpPoint> measure(int device, int targetBlocks, const float* in, float* out,
                            std::size_t n, int repetitions) {
    const auto kernel = ilpCopyKernel<Ilp>;
    const int smemPerSm = deviceAttribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
    const int optin = deviceAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    const int reserved = deviceAttribute(cudaDevAttrReservedSharedMemoryPerBlock, device);
    // The largest 128-byte multiple with which targetBlocks blocks (each also charged the
    // reserved 1 KB) still fit; one more block would not.
    int smem = (smemPerSm / targetBlocks - reserved) / 128 * 128;
    smem = std::clamp(smem, 0, optin);
    if (auto e = cudaCheck(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
            "cudaFuncSetAttribute"))
        return *e;
    IlpPoint p;
    p.ilp = Ilp;
    if (auto e = cudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &p.blocksPerSm, kernel, kThreads, static_cast<std::size_t>(smem)),
                           "cudaOccupancyMaxActiveBlocksPerMultiprocessor"))
        return *e;
    if (p.blocksPerSm < 1)
        return RunError{"occupancy: no block fits with " + std::to_string(smem) +
                        " bytes of shared memory"};
    const int maxWarps = deviceAttribute(cudaDevAttrMaxThreadsPerMultiProcessor, device) / 32;
    p.warpsPerSm = p.blocksPerSm * kThreads / 32;
    p.occupancyTheoretical = maxWarps > 0 ? static_cast<double>(p.warpsPerSm) / maxWarps : 0.0;
    const int sms = deviceAttribute(cudaDevAttrMultiProcessorCount, device);
    const int blocks = std::max(1, sms * p.blocksPerSm);
    auto ms = timeKernelMs(
        [&] { kernel<<<blocks, kThreads, static_cast<std::size_t>(smem)>>>(in, out, n); }, 2,
        repetitions, "ilp copy");
    if (auto* e = std::get_if<RunError>(&ms))
        return *e;
    p.meanMs = std::get<double>(ms);
    p.gbs = gigabytesPerSecond(2.0 * static_cast<double>(n) * sizeof(float), p.meanMs);
    return p;
}

} // namespace

RunResult<IlpOccupancyResult> runIlpOccupancy(int device, std::size_t bytes, int repetitions) {
    if (auto e = selectDevice(device))
        return *e;
    IlpOccupancyResult r;
    r.threadsPerBlock = kThreads;
    const std::size_t n = std::max<std::size_t>(1024, bytes / sizeof(float));
    r.bytes = n * sizeof(float);
    DeviceBuffer<float> in;
    DeviceBuffer<float> out;
    if (auto e = in.allocate(n, "ilp input"))
        return *e;
    if (auto e = out.allocate(n, "ilp output"))
        return *e;
    if (auto e = cudaCheck(cudaMemset(in.get(), 0, in.bytes()), "cudaMemset"))
        return *e;
    for (int blocksPerSm : {1, 2, 4, 8}) {
        RunResult<IlpPoint> points[] = {
            measure<1>(device, blocksPerSm, in.get(), out.get(), n, repetitions),
            measure<2>(device, blocksPerSm, in.get(), out.get(), n, repetitions),
            measure<4>(device, blocksPerSm, in.get(), out.get(), n, repetitions),
            measure<8>(device, blocksPerSm, in.get(), out.get(), n, repetitions)};
        for (auto& p : points) {
            if (auto* e = std::get_if<RunError>(&p))
                return *e;
            r.points.push_back(std::get<IlpPoint>(p));
        }
    }
    return r;
}

} // namespace wb
