#pragma once
// Argument helpers shared by the calc model files: a required argument, the `--gpu`
// choice over the hardware catalogue, integer arguments, the cluster a group of GPUs fills and
// model errors as CalcError.
#include "calc/calc_models.h"
#include "catalogue/hardware_catalogue.h"
#include "engine/param_spec.h"
#include "engine/params.h"
#include "parallel/transformer_step.h"

#include <stdexcept>

namespace wb {

// The same spec, marked as one `warpboard calc` needs on the command line.
inline ParamSpec required(ParamSpec s) {
    s.required = true;
    return s;
}

// A required whole-number argument without a unit (counts, sizes, stages).
inline ParamSpec whole(const char* name, const char* label, double min, double max, double def) {
    return required(ParamSpec::integer(name, label, "", min, max, def));
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

// An integer argument; its spec bounds it, so it fits an int.
inline int integerOf(const Params& p, const char* name) {
    return static_cast<int>(p.integer(name));
}

// A dense transformer from --params --layers --hidden --heads --seq --micro-batch.
inline TransformerConfig transformerOf(const Params& p) {
    TransformerConfig m;
    m.params = p.number("params");
    m.layers = integerOf(p, "layers");
    m.hidden = integerOf(p, "hidden");
    m.heads = integerOf(p, "heads");
    m.seq = integerOf(p, "seq");
    m.microBatch = integerOf(p, "micro-batch");
    return m;
}

// Model errors (a layout that does not fit, a name a model does not know) are the user's
// mistake: CalcError, exit 2.
template <typename F> auto rejecting(F&& f) {
    try {
        return f();
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
}

// The nodes `gpus` GPUs fill, from --gpus-per-node, --nvlink-gbs and --network-gbs: one
// partial node, or whole nodes. `group` starts the message when they do not fill whole nodes
// ("TP×PP×DP = ", "--ep ").
inline ClusterTopology clusterOf(const Params& p, int gpus, const std::string& group) {
    ClusterTopology t;
    const auto perNode = static_cast<int>(p.integer("gpus-per-node"));
    if (gpus <= perNode) {
        t.nodes = 1;
        t.gpusPerNode = gpus;
    } else {
        if (gpus % perNode != 0) {
            std::string m = group;
            m.append(std::to_string(gpus)).append(" GPUs do not fill whole nodes of ");
            m.append(std::to_string(perNode));
            throw CalcError(m);
        }
        t.nodes = gpus / perNode;
        t.gpusPerNode = perNode;
    }
    t.nvlinkGBs = p.number("nvlink-gbs");
    t.networkGBs = p.number("network-gbs");
    return t;
}

} // namespace wb
