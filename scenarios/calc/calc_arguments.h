#pragma once
// Argument helpers shared by the calc model files: a required argument, the `--gpu`
// choice over the hardware catalogue, and model errors turned into CalcError.
#include "calc/calc_models.h"
#include "catalogue/hardware_catalogue.h"
#include "engine/param_spec.h"
#include "engine/params.h"

#include <stdexcept>

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

// Runs f; a model's std::invalid_argument (a layout that does not fit, a value the model
// refuses) is the user's mistake: CalcError, exit code 2 with the model's message.
template <typename F> auto rejecting(F&& f) {
    try {
        return f();
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
}

} // namespace wb
