#pragma once
// NCCL kernel names changed with NCCL versions; every era names the collective and, except
// the generic 2.19+ kernels, the algorithm and protocol (of the kernel's entry point: one
// kernel may run other algorithms' work). RCCL builds the same names from the same sources.
//   ncclAllReduceRingLLKernel_sum_f32(ncclColl)                        ≤ 2.7 (and RCCL of then)
//   ncclSendRecvKernel_copy_i8(ncclColl)                               2.7
//   ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)                 2.8 – 2.12
//   ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, ...)         2.13 – 2.18
//   ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)     2.19+
//   ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)             RCCL 2.19+ (unroll 4)
//   ncclSymkDevKernel_AllReduce_AGxLL_R_sum_f32(...)                      2.27+ symmetric
#include <optional>
#include <string>
#include <string_view>

namespace wb {

struct NcclKernelName {
    std::string collective; // "AllReduce", "SendRecv", "Generic", ...
    std::string algorithm;  // "RING", "TREE", "NVLS", ... or empty
    std::string protocol;   // "LL", "LL128", "SIMPLE" or empty
    // "<=2.7", "<=2.12", "2.13-2.18", "2.19+", "2.27+" or "" when the name does not say
    std::string era;
};

// The parsed name when `name` is an NCCL (or RCCL) device kernel, else nullopt.
std::optional<NcclKernelName> parseNcclKernelName(std::string_view name);

} // namespace wb
