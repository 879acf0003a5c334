#pragma once
// NCCL kernel names changed with NCCL versions; all three eras name the collective and,
// except the generic 2.19+ kernels, the algorithm and protocol:
//   ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)                 ≤ 2.12
//   ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, ...)         2.13 – 2.18
//   ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)     2.19+
#include <optional>
#include <string>
#include <string_view>

namespace wb {

struct NcclKernelName {
    std::string collective; // "AllReduce", "SendRecv", "Generic", ...
    std::string algorithm;  // "RING", "TREE", "NVLS", ... or empty
    std::string protocol;   // "LL", "LL128", "SIMPLE" or empty
    std::string era;        // "<=2.12", "2.13-2.18", "2.19+" or "" when the name does not say
};

// The parsed name when `name` is an NCCL (or RCCL) device kernel, else nullopt.
std::optional<NcclKernelName> parseNcclKernelName(std::string_view name);

} // namespace wb
