#pragma once
// The kernel-resource parameters A1 and A5 share (GPU, threads/block, registers/thread,
// shared memory/block) and their reading into the occupancy calculator's input.
#include "catalogue/hardware_catalogue.h"
#include "engine/params.h"
#include "gpu/occupancy_calculator.h"

#include <vector>

namespace wb {

std::vector<ParamSpec> kernelResourceParams();
KernelResources kernelResourcesOf(const Params& p);
const GpuSpec& gpuParamOf(const Params& p);

} // namespace wb
