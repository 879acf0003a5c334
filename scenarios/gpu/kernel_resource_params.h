#pragma once
// The kernel-resource parameters silicon-mapping and occupancy share (GPU, threads/block,
// registers/thread, shared memory/block) and their reading into the occupancy calculator's input.
#include "catalogue/hardware_catalogue.h"
#include "engine/params.h"
#include "gpu/occupancy_calculator.h"

#include <vector>

namespace wb {

std::vector<ParamSpec> kernelResourceParams();
KernelResources kernelResourcesOf(const Params& p);
const GpuSpec& gpuParamOf(const Params& p);

} // namespace wb
