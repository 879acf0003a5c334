// Roofline ceilings measured on this device: FP32 FMA throughput, BF16 tensor-core
// throughput through mma.sync (m16n8k16, sm_80+), and HBM bandwidth (the streaming copy
// probe of pointer_chase.cu over a buffer far larger than L2). Every loop runs a fixed,
// host-clamped number of iterations.
#include "cuda/gpu_runner_cuda.cuh"
#include "cuda/probes.h"

#include <algorithm>

namespace wb {
namespace {

constexpr int kThreads = 256;
constexpr int kChains = 8;  // independent FMA chains per thread hide the FMA latency
constexpr int kUnroll = 16; // FMAs per chain per loop trip, so loop overhead is negligible
constexpr int kMmaAccumulators = 4;
constexpr int kMmaUnroll = 8;

__global__ void __launch_bounds__(kThreads)
    fmaKernel(float* out, long iterations, float a, float b) {
    float x[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c)
        x[c] = static_cast<float>(threadIdx.x + c);
    for (long i = 0; i < iterations; ++i) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
            for (int c = 0; c < kChains; ++c)
                x[c] = fmaf(x[c], a, b);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < kChains; ++c)
        sum += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Each warp multiplies fixed register fragments again and again into independent FP32
// accumulators: pure tensor-core issue, no memory traffic inside the loop.
__global__ void __launch_bounds__(kThreads) mmaKernel(float* out, long iterations) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    // bf16 pairs of small values (0x3c00 = 0.0078125) keep the sums finite.
    const unsigned a0 = 0x3c003c00u + (threadIdx.x & 1u);
    const unsigned a1 = a0, a2 = a0, a3 = a0;
    const unsigned b0 = 0x3c003c00u, b1 = b0;
    float acc[kMmaAccumulators][4] = {};
    for (long i = 0; i < iterations; ++i) {
#pragma unroll
        for (int u = 0; u < kMmaUnroll; ++u) {
#pragma unroll
            for (int k = 0; k < kMmaAccumulators; ++k) {
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                             "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                             "{%0, %1, %2, %3};\n"
                             : "+f"(acc[k][0]), "+f"(acc[k][1]), "+f"(acc[k][2]), "+f"(acc[k][3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            }
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kMmaAccumulators; ++k)
        sum += acc[k][0] + acc[k][1] + acc[k][2] + acc[k][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
#else
    (void)iterations;
    out[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
#endif
}

} // namespace

RunResult<RooflineResult> runRooflineProbes(int device, long iterations) {
    if (auto e = selectDevice(device))
        return *e;
    RooflineResult r;
    const int sms = deviceAttribute(cudaDevAttrMultiProcessorCount, device);
    const int maxThreads = deviceAttribute(cudaDevAttrMaxThreadsPerMultiProcessor, device);
    const int blocks = std::max(1, sms * std::max(1, maxThreads / kThreads));
    DeviceBuffer<float> out;
    if (auto e = out.allocate(static_cast<std::size_t>(blocks) * kThreads, "roofline output"))
        return *e;
    const long fmaIters = clampIterations(iterations);
    auto fmaMs = timeKernelMs(
        [&] { fmaKernel<<<blocks, kThreads>>>(out.get(), fmaIters, 0.999999f, 1e-6f); }, 2, 5,
        "fp32 fma probe");
    if (auto* e = std::get_if<RunError>(&fmaMs))
        return *e;
    r.fp32Ms = std::get<double>(fmaMs);
    const double fmaFlops = 2.0 * kChains * kUnroll * static_cast<double>(fmaIters) *
                            static_cast<double>(blocks) * kThreads;
    r.fp32Tflops = r.fp32Ms > 0 ? fmaFlops / (r.fp32Ms * 1e-3) / 1e12 : 0.0;

    r.bf16Supported = deviceAttribute(cudaDevAttrComputeCapabilityMajor, device) >= 8;
    if (r.bf16Supported) {
        // A tensor-core trip does 4096 FLOPs per warp: far more than an FMA trip, so fewer.
        const long mmaIters = std::max(1L, fmaIters / 32);
        auto mmaMs = timeKernelMs([&] { mmaKernel<<<blocks, kThreads>>>(out.get(), mmaIters); }, 2,
                                  5, "bf16 mma probe");
        if (auto* e = std::get_if<RunError>(&mmaMs))
            return *e;
        r.bf16Ms = std::get<double>(mmaMs);
        const double warps = static_cast<double>(blocks) * kThreads / 32.0;
        const double mmaFlops = 2.0 * 16 * 8 * 16 * kMmaAccumulators * kMmaUnroll *
                                static_cast<double>(mmaIters) * warps;
        r.bf16Tflops = r.bf16Ms > 0 ? mmaFlops / (r.bf16Ms * 1e-3) / 1e12 : 0.0;
    }

    const auto l2 = static_cast<std::size_t>(deviceAttribute(cudaDevAttrL2CacheSize, device));
    const std::size_t bytes = std::max<std::size_t>(8 * l2, std::size_t{1} << 30);
    auto gbs = runStreamBandwidth(device, StreamKind::Copy, bytes, 20);
    if (auto* e = std::get_if<RunError>(&gbs))
        return *e;
    r.hbmGbs = std::get<double>(gbs);
    r.hbmMs = 2.0 * static_cast<double>(bytes) / (r.hbmGbs * 1e9) * 1e3;
    return r;
}

} // namespace wb
