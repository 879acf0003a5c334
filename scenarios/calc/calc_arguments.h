#pragma once
// Argument helpers shared by the calc model files: a required argument and the `--gpu`
// choice over the hardware catalogue.
#include "catalogue/hardware_catalogue.h"
#include "engine/param_spec.h"
#include "engine/params.h"

namespace wb {

// The same spec, marked as one `warpboard calc` needs on the command line.
inline ParamSpec required(ParamSpec s) {
    s.required = true;
    return s;
}

// --gpu ID, one of the builtin catalogue's ids.
inline ParamSpec gpuArgument() {
    const auto ids = HardwareCatalogue::builtin().ids();
    return required(ParamSpec::choice("gpu", "GPU", ids, ids.front(), "hardware catalogue id"));
}

// The GPU named by --gpu (Params already checked it is a catalogue id).
inline const GpuSpec& gpuOf(const Params& p) {
    return *HardwareCatalogue::builtin().find(p.text("gpu"));
}

} // namespace wb
