// Warp divergence: one block of 64 threads per launch runs one branch kind; at every branch
// point the lowest active lane of each warp stores __activemask() and the clock64() delta
// since the warp started. Two blocks run so that block-uniform shows both sides.
#include "cuda/divergence_reference.h"
#include "cuda/gpu_runner_cuda.cuh"
#include "cuda/probes.h"

namespace wb {
namespace {

constexpr int kBlockDim = 64;
constexpr int kBlocks = 2;
constexpr int kPoints = 6; // before, then, else, inner-then, inner-else, after
const char* const kPointNames[kPoints] = {"before",     "then",       "else",
                                          "inner-then", "inner-else", "after"};

struct PointRecord {
    unsigned mask;
    unsigned valid;
    long long cycles;
};

enum Kind { OddEven, HalfWarp, WarpUniform, BlockUniform, Data, Nested };

__device__ __noinline__ void recordPoint(PointRecord* out, int point, long long t0) {
    const unsigned mask = __activemask();
    const int lane = static_cast<int>(threadIdx.x % 32);
    if (lane == __ffs(static_cast<int>(mask)) - 1) {
        const int warp = static_cast<int>(threadIdx.x / 32);
        PointRecord& r = out[(blockIdx.x * (kBlockDim / 32) + warp) * kPoints + point];
        r.mask = mask;
        r.valid = 1;
        r.cycles = clock64() - t0;
    }
}

__global__ void divergenceKernel(int kind, const int* data, int threshold, PointRecord* out) {
    const long long t0 = clock64();
    const int t = static_cast<int>(threadIdx.x);
    recordPoint(out, 0, t0);
    bool cond = false;
    switch (kind) {
    case OddEven:
        cond = t % 2 != 0;
        break;
    case HalfWarp:
    case Nested:
        cond = t < 16;
        break;
    case WarpUniform:
        cond = t / 32 == 0;
        break;
    case BlockUniform:
        cond = blockIdx.x % 2 != 0;
        break;
    default:
        cond = data[t] < threshold;
        break;
    }
    if (cond) {
        recordPoint(out, 1, t0);
        if (kind == Nested) {
            if (t % 2 != 0)
                recordPoint(out, 3, t0);
            else
                recordPoint(out, 4, t0);
        }
    } else {
        recordPoint(out, 2, t0);
    }
    // Since Volta, threads of a warp are not guaranteed to reconverge after a branch; the
    // explicit warp barrier is what makes the "after" point a join, as in the lesson.
    __syncwarp();
    recordPoint(out, 5, t0);
}

} // namespace

RunResult<DivergenceResult> runDivergence(int device, std::uint64_t seed, double p) {
    if (auto e = selectDevice(device))
        return *e;
    DivergenceResult r;
    r.blockDim = kBlockDim;
    r.blocks = kBlocks;
    r.seed = seed;
    r.p = p;
    const std::vector<std::int32_t> data = divergenceData(seed, kBlockDim);
    DeviceBuffer<int> dData;
    if (auto e = dData.allocate(data.size(), "divergence data"))
        return *e;
    std::vector<int> hostData(data.begin(), data.end());
    if (auto e = copyToDevice(dData.get(), hostData, "divergence data"))
        return *e;
    const std::size_t recordCount = kBlocks * (kBlockDim / 32) * kPoints;
    DeviceBuffer<PointRecord> dOut;
    if (auto e = dOut.allocate(recordCount, "divergence records"))
        return *e;
    const auto& kinds = divergenceBranchKinds();
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        if (auto e = cudaCheck(cudaMemset(dOut.get(), 0, dOut.bytes()), "cudaMemset"))
            return *e;
        divergenceKernel<<<kBlocks, kBlockDim>>>(static_cast<int>(k), dData.get(),
                                                 divergenceThreshold(p), dOut.get());
        if (auto e = cudaCheck(cudaGetLastError(), "divergenceKernel launch"))
            return *e;
        if (auto e = cudaCheck(cudaDeviceSynchronize(), "divergenceKernel"))
            return *e;
        std::vector<PointRecord> host(recordCount);
        if (auto e = copyToHost(host, dOut.get(), "divergence records"))
            return *e;
        for (int b = 0; b < kBlocks; ++b) {
            for (int w = 0; w < kBlockDim / 32; ++w) {
                for (int pt = 0; pt < kPoints; ++pt) {
                    const PointRecord& rec =
                        host[static_cast<std::size_t>((b * (kBlockDim / 32) + w) * kPoints + pt)];
                    if (rec.valid == 0)
                        continue;
                    r.records.push_back(DivergenceRecord{kinds[k], kPointNames[pt], b, w, rec.mask,
                                                         static_cast<std::int64_t>(rec.cycles)});
                }
            }
        }
    }
    return r;
}

} // namespace wb
