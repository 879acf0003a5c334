#include "kineto_generator.h"

#include <cstdio>
#include <random>

namespace wb::bench {

long writeKinetoTrace(const std::string& path, double megabytes, unsigned seed) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return -1;
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dur(2, 900);
    std::fprintf(f, "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", "
                    "\"rank\": 0, \"world_size\": 8}, \"deviceProperties\": [{\"id\": 0, "
                    "\"name\": \"NVIDIA H100 80GB HBM3\"}], \"traceEvents\": [\n");
    const double target = megabytes * 1e6;
    long events = 0;
    double ts = 1712195495505582.988; // µs, the magnitude real traces have
    long written = 0;
    for (long i = 0; written < static_cast<long>(target); ++i) {
        const int d = dur(rng);
        const bool nccl = i % 50 == 0;
        int n = std::fprintf(
            f,
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"pid\": 1234, "
            "\"tid\": 1234, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": %ld}},\n"
            "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
            "\"pid\": 1234, \"tid\": 1234, \"ts\": %.3f, \"dur\": 4.211, \"args\": "
            "{\"correlation\": %ld}},\n"
            "{\"ph\": \"s\", \"id\": %ld, \"pid\": 1234, \"tid\": 1234, \"ts\": %.3f, \"cat\": "
            "\"ac2g\", \"name\": \"ac2g\"},\n"
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, "
            "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"correlation\": %ld, \"grid\": [132, 1, "
            "1], \"block\": [256, 1, 1], \"registers per thread\": 64, \"shared memory\": 0, "
            "\"est. achieved occupancy %%\": 50}},\n"
            "{\"ph\": \"f\", \"id\": %ld, \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"cat\": "
            "\"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}",
            ts, d + 5.0, i, ts + 1.0, i, i, ts + 1.0,
            nccl ? "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
                 : "void gemm_kernel<128, 64>(float const*, float*)",
            ts + 6.5, d * 1.0 + 0.125, i, i, ts + 6.5);
        written += n;
        events += 5;
        ts += d + 10.0;
        std::fputs(written < static_cast<long>(target) ? ",\n" : "\n", f);
    }
    std::fprintf(f, "]}\n");
    std::fclose(f);
    return events;
}

} // namespace wb::bench
