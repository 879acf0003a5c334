// Memory hierarchy: load latency by pointer chasing, and streaming bandwidth.
// Latency: one thread follows a random cyclic permutation of 128-byte slots (one per cache
// line, so every hop is a new line and no prefetcher can guess the next). It first walks the
// set once to warm the caches, then times a fixed number of dependent hops with clock64();
// the hops (each hundreds of cycles beyond L1) dominate the loop's few instructions.
#include "cuda/gpu_runner_cuda.cuh"
#include "cuda/probes.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace wb {
namespace {

constexpr std::size_t kSlotBytes = 128;
constexpr std::size_t kSlotWords = kSlotBytes / sizeof(unsigned);
constexpr int kStreamThreads = 256;

__global__ void chaseKernel(const unsigned* next, long warmHops, long hops, unsigned* sink,
                            long long* cycles) {
    unsigned j = 0;
    for (long i = 0; i < warmHops; ++i)
        j = next[j];
    const long long c0 = clock64();
#pragma unroll 4
    for (long i = 0; i < hops; ++i)
        j = next[j];
    const long long c1 = clock64();
    // Storing the final index keeps the chain alive; the store waits for the last load.
    *sink = j;
    *cycles = c1 - c0;
}

__global__ void readKernel(const float4* in, std::size_t n, float* sink) {
    float acc = 0.0f;
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const float4 v = in[i];
        acc += v.x + v.y + v.z + v.w;
    }
    // Never true for the zero-filled input, but the compiler cannot know: loads stay.
    if (acc == 123.456f)
        *sink = acc;
}

__global__ void writeKernel(float4* out, std::size_t n) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
}

__global__ void copyKernel(const float4* in, float4* out, std::size_t n) {
    for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = in[i];
}

// Sattolo's algorithm: a uniformly random permutation that is one single cycle, so the chase
// visits every slot before it repeats.
std::vector<unsigned> cyclicChain(std::size_t slots, std::uint64_t seed) {
    std::vector<std::size_t> order(slots);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 rng(seed);
    for (std::size_t i = slots - 1; i > 0; --i) {
        std::uniform_int_distribution<std::size_t> pick(0, i - 1);
        std::swap(order[i], order[pick(rng)]);
    }
    std::vector<unsigned> words(slots * kSlotWords, 0u);
    for (std::size_t i = 0; i < slots; ++i)
        words[i * kSlotWords] = static_cast<unsigned>(order[i] * kSlotWords);
    return words;
}

} // namespace

RunResult<double> runPointerChase(int device, std::size_t workingSetBytes, long hops) {
    if (auto e = selectDevice(device))
        return *e;
    const std::size_t slots = std::max<std::size_t>(2, workingSetBytes / kSlotBytes);
    const long timedHops = clampIterations(hops);
    const long warmHops = std::min<long>(static_cast<long>(slots), timedHops);
    const std::vector<unsigned> chain = cyclicChain(slots, 0x5eedULL + slots);
    DeviceBuffer<unsigned> dChain;
    if (auto e = dChain.allocate(chain.size(), "pointer-chase array"))
        return *e;
    if (auto e = copyToDevice(dChain.get(), chain, "pointer-chase array"))
        return *e;
    DeviceBuffer<unsigned> dSink;
    DeviceBuffer<long long> dCycles;
    if (auto e = dSink.allocate(1, "sink"))
        return *e;
    if (auto e = dCycles.allocate(1, "cycles"))
        return *e;
    chaseKernel<<<1, 1>>>(dChain.get(), warmHops, timedHops, dSink.get(), dCycles.get());
    if (auto e = cudaCheck(cudaGetLastError(), "chaseKernel launch"))
        return *e;
    if (auto e = cudaCheck(cudaDeviceSynchronize(), "chaseKernel"))
        return *e;
    std::vector<long long> cycles(1);
    if (auto e = copyToHost(cycles, dCycles.get(), "cycles"))
        return *e;
    return static_cast<double>(cycles[0]) / static_cast<double>(timedHops);
}

RunResult<double> runStreamBandwidth(int device, StreamKind kind, std::size_t bytes,
                                     int repetitions) {
    if (auto e = selectDevice(device))
        return *e;
    const std::size_t n = std::max<std::size_t>(1, bytes / sizeof(float4));
    DeviceBuffer<float4> a;
    DeviceBuffer<float4> b;
    if (auto e = a.allocate(n, "stream buffer"))
        return *e;
    if (kind == StreamKind::Copy) {
        if (auto e = b.allocate(n, "stream copy destination"))
            return *e;
    }
    DeviceBuffer<float> sink;
    if (auto e = sink.allocate(1, "sink"))
        return *e;
    if (auto e = cudaCheck(cudaMemset(a.get(), 0, a.bytes()), "cudaMemset"))
        return *e;
    const int sms = deviceAttribute(cudaDevAttrMultiProcessorCount, device);
    const std::size_t wanted = (n + kStreamThreads - 1) / kStreamThreads;
    const int blocks = static_cast<int>(
        std::max<std::size_t>(1, std::min<std::size_t>(wanted, std::size_t(sms) * 8)));
    auto launch = [&] {
        switch (kind) {
        case StreamKind::Read:
            readKernel<<<blocks, kStreamThreads>>>(a.get(), n, sink.get());
            break;
        case StreamKind::Write:
            writeKernel<<<blocks, kStreamThreads>>>(a.get(), n);
            break;
        case StreamKind::Copy:
            copyKernel<<<blocks, kStreamThreads>>>(a.get(), b.get(), n);
            break;
        }
    };
    auto ms = timeKernelMs(launch, 3, repetitions, "stream bandwidth");
    if (auto* e = std::get_if<RunError>(&ms))
        return *e;
    const double moved =
        static_cast<double>(n * sizeof(float4)) * (kind == StreamKind::Copy ? 2.0 : 1.0);
    return gigabytesPerSecond(moved, std::get<double>(ms));
}

RunResult<MemoryHierarchyResult> runMemoryHierarchy(int device, long hopsPerSet) {
    if (auto e = selectDevice(device))
        return *e;
    const auto l2 = static_cast<std::size_t>(deviceAttribute(cudaDevAttrL2CacheSize, device));
    MemoryHierarchyResult r;
    const std::size_t lastSet = std::max<std::size_t>(4 * l2, std::size_t{1} << 20);
    for (std::size_t ws = 4096; ws / 2 < lastSet; ws *= 2) {
        auto cycles = runPointerChase(device, ws, hopsPerSet);
        if (auto* e = std::get_if<RunError>(&cycles))
            return *e;
        r.latency.push_back({static_cast<double>(ws), std::get<double>(cycles)});
    }
    const std::size_t lastStream = std::max<std::size_t>(4 * l2, std::size_t{1} << 30);
    for (std::size_t bytes = std::size_t{1} << 20; bytes / 4 < lastStream; bytes *= 4) {
        const std::pair<StreamKind, std::vector<BandwidthPoint>*> probes[] = {
            {StreamKind::Read, &r.read},
            {StreamKind::Write, &r.write},
            {StreamKind::Copy, &r.copy}};
        for (const auto& [kind, series] : probes) {
            auto gbs = runStreamBandwidth(device, kind, bytes, 20);
            if (auto* e = std::get_if<RunError>(&gbs))
                return *e;
            series->push_back({static_cast<double>(bytes), std::get<double>(gbs)});
        }
    }
    return r;
}

} // namespace wb
