#include "gpu/kernel_resource_params.h"

namespace wb {

std::vector<ParamSpec> kernelResourceParams() {
    return {
        ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm"),
        ParamSpec::integer("threads-per-block", "Threads per block", "", 32, 1024, 256, false,
                           "multiples of 32 fill whole warps"),
        ParamSpec::integer("registers-per-thread", "Registers per thread", "", 16, 255, 64),
        ParamSpec::integer("smem-per-block", "Shared memory per block", "B", 0, 232448, 0, false,
                           "static + dynamic; the GPU's per-block maximum applies"),
    };
}

KernelResources kernelResourcesOf(const Params& p) {
    return {static_cast<int>(p.integer("threads-per-block")),
            static_cast<int>(p.integer("registers-per-thread")),
            static_cast<int>(p.integer("smem-per-block"))};
}

const GpuSpec& gpuParamOf(const Params& p) {
    return *HardwareCatalogue::builtin().find(p.text("gpu"));
}

} // namespace wb
