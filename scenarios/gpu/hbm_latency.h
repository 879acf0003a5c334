#pragma once
// One HBM load latency per GPU, for every lesson and calculator that needs it (the memory
// ladder, Little's law, the occupancy scheduler, `calc littles-law`): a measurement where a
// paper has one for this GPU (A100: pointer chase), otherwise a value assumed inside the
// published range and labelled so (Hopper: no measured HBM latency has been published).
#include "catalogue/hardware_catalogue.h"

#include <string>

namespace wb {

struct HbmLatency {
    double ns = 0.0;    // the value the models use
    double lowNs = 0.0; // the published range; equal to ns for a measurement
    double highNs = 0.0;
    double cycles = 0.0;   // ns at the GPU's vector clock
    double clockGHz = 0.0; // that clock
    bool assumed = false;  // true: not measured on this GPU; ns is the middle of the range
    std::string source;    // the citation's label
};

// From the catalogue: hbm_latency_cycles (measured, at the vector clock), else the middle of
// hbm_latency_low_ns…hbm_latency_high_ns. Throws std::out_of_range when a GPU has neither.
HbmLatency hbmLatency(const GpuSpec& gpu,
                      const HardwareCatalogue& catalogue = HardwareCatalogue::builtin());

// "400–600 ns (assumed 500 ns)": a latency known only as a range, and the value assumed in it.
std::string assumedLatencyText(double lowNs, double highNs, double ns);
// "401 ns" for a measurement, assumedLatencyText for a range: how slides show it.
std::string hbmLatencyText(const HbmLatency& latency);

} // namespace wb
