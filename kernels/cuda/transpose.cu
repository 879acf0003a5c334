// Coalescing: the four kernels of cuda-samples' transpose (copy, naive, tiled through shared
// memory, tiled with a padded row against bank conflicts). Each variant: output reset, one
// warm-up launch, `repetitions` event-timed launches, then a full CPU check of the output.
#include "cuda/gpu_runner_cuda.cuh"
#include "cuda/probes.h"

namespace wb {
namespace {

constexpr int kTile = 32;
constexpr int kBlockRows = 8;

// Copy and naive load their four rows into registers before storing any: with the loads
// and stores interleaved, a store through `out` could alias the next load from `in`, so the
// compiler keeps one load in flight per thread and the "ceiling" copy runs slower than the
// tiled transpose, which batches its loads into shared memory (seen on an H200: padded at
// 117 % of copy). __restrict__ alone leaves that to the optimiser; the arrays make it explicit.
constexpr int kRowsPerThread = kTile / kBlockRows;

// Every row a thread of copy and naive carries, loaded before any of them is stored.
__device__ __forceinline__ void loadRows(float (&v)[kRowsPerThread], const float* __restrict__ in,
                                         int n, int x, int y) {
#pragma unroll
    for (int k = 0; k < kRowsPerThread; ++k)
        v[k] = in[(y + k * kBlockRows) * n + x];
}

__global__ void copyKernel(float* __restrict__ out, const float* __restrict__ in, int n) {
    const int x = blockIdx.x * kTile + threadIdx.x;
    const int y = blockIdx.y * kTile + threadIdx.y;
    float v[kRowsPerThread];
    loadRows(v, in, n, x, y);
#pragma unroll
    for (int k = 0; k < kRowsPerThread; ++k)
        out[(y + k * kBlockRows) * n + x] = v[k];
}

__global__ void naiveKernel(float* __restrict__ out, const float* __restrict__ in, int n) {
    const int x = blockIdx.x * kTile + threadIdx.x;
    const int y = blockIdx.y * kTile + threadIdx.y;
    float v[kRowsPerThread];
    loadRows(v, in, n, x, y);
#pragma unroll
    for (int k = 0; k < kRowsPerThread; ++k)
        out[x * n + (y + k * kBlockRows)] = v[k];
}

template <int Pad>
__global__ void tiledKernel(float* __restrict__ out, const float* __restrict__ in, int n) {
    __shared__ float tile[kTile][kTile + Pad];
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

bool checkOutput(const std::vector<float>& in, const std::vector<float>& out, int n,
                 bool transposed) {
    const auto un = static_cast<std::size_t>(n);
    for (std::size_t y = 0; y < un; ++y)
        for (std::size_t x = 0; x < un; ++x) {
            const float want = transposed ? in[x * un + y] : in[y * un + x];
            if (out[y * un + x] != want)
                return false;
        }
    return true;
}

} // namespace

RunResult<TransposeResult> runTranspose(int device, int n, int repetitions) {
    if (auto e = selectDevice(device))
        return *e;
    if (n < kTile || n % kTile != 0 || n > 32768)
        return RunError{"transpose: n must be a multiple of 32 between 32 and 32768, got " +
                        std::to_string(n)};
    TransposeResult r;
    r.n = n;
    r.elemBytes = sizeof(float);
    r.tile = kTile;
    r.blockRows = kBlockRows;
    r.repetitions = clampRepetitions(repetitions);
    const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    std::vector<float> in(count);
    // Exactly representable, distinct within any row or column: a misplaced element shows.
    for (std::size_t i = 0; i < count; ++i)
        in[i] = static_cast<float>(i % 16777213u);
    DeviceBuffer<float> dIn;
    DeviceBuffer<float> dOut;
    if (auto e = dIn.allocate(count, "transpose input"))
        return *e;
    if (auto e = dOut.allocate(count, "transpose output"))
        return *e;
    if (auto e = copyToDevice(dIn.get(), in, "transpose input"))
        return *e;
    const dim3 grid(static_cast<unsigned>(n / kTile), static_cast<unsigned>(n / kTile));
    const dim3 block(kTile, kBlockRows);
    struct Variant {
        const char* name;
        void (*kernel)(float*, const float*, int);
        bool transposed;
    };
    const Variant variants[] = {{"copy", copyKernel, false},
                                {"naive", naiveKernel, true},
                                {"tiled", tiledKernel<0>, true},
                                {"padded", tiledKernel<1>, true}};
    std::vector<float> out(count);
    const double moved = 2.0 * static_cast<double>(count) * sizeof(float);
    for (const Variant& v : variants) {
        // A stale result of the previous variant must not pass this variant's check.
        if (auto e = cudaCheck(cudaMemset(dOut.get(), 0, dOut.bytes()), "cudaMemset"))
            return *e;
        auto ms = timeKernelMs([&] { v.kernel<<<grid, block>>>(dOut.get(), dIn.get(), n); }, 1,
                               r.repetitions, std::string("transpose ") + v.name);
        if (auto* e = std::get_if<RunError>(&ms))
            return *e;
        if (auto e = copyToHost(out, dOut.get(), "transpose output"))
            return *e;
        TransposeVariant tv;
        tv.name = v.name;
        tv.meanMs = std::get<double>(ms);
        tv.gbs = gigabytesPerSecond(moved, tv.meanMs);
        tv.referenceOk = checkOutput(in, out, n, v.transposed);
        r.variants.push_back(tv);
    }
    const double copyGbs = r.variants.front().gbs;
    for (auto& v : r.variants)
        v.pctOfCopy = copyGbs > 0 ? 100.0 * v.gbs / copyGbs : 0.0;
    return r;
}

} // namespace wb
