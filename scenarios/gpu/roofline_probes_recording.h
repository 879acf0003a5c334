#pragma once
// The roofline's ceilings and kernels as a trace (kind "roofline-probes",
// docs/RECORDINGS.md): FP32 FMA and BF16 MMA throughput probes, an HBM bandwidth probe and
// optional demo kernels. A GPU records them; the modeled trace holds the catalogue's peaks in
// the same schema, so the roofline scenario draws both through one path.
#include "catalogue/hardware_catalogue.h"
#include "trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

inline constexpr const char* kRooflineProbesKind = "roofline-probes";

// Catalogue peaks as probe events: fp32-fma and bf16-mma (tflops), hbm-bandwidth (gbs). No
// kernel events: the model places no kernels. Provenance "modeled", never "measured".
Trace modeledRooflineProbes(const GpuSpec& gpu);

struct RooflineProbes {
    std::optional<double> fp32Tflops;
    std::optional<double> bf16Tflops;
    std::optional<double> hbmGBs;
    struct Kernel {
        std::string label;      // the event's category, or "kernel N"
        double intensity = 0.0; // FLOP/B
        double tflops = 0.0;
        bool operator==(const Kernel&) const = default;
    };
    std::vector<Kernel> kernels;
    bool operator==(const RooflineProbes&) const = default;
};

// The probe values exactly as the trace holds them (the last event of a name wins).
RooflineProbes rooflineProbes(const Trace& trace);

} // namespace wb
