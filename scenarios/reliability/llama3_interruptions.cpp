#include "reliability/llama3_interruptions.h"

#include <stdexcept>

namespace wb {

const Llama3Record& llama3Record() {
    // Table 5 of arXiv:2407.21783, copied as printed (FACTS.md §4.4); not recomputed.
    static const Llama3Record r = [] {
        Llama3Record rec;
        rec.causes = {
            {"Faulty GPU", "GPU", 148, 30.1},
            {"GPU HBM3 Memory", "GPU", 72, 17.2},
            {"Software Bug", "Dependency", 54, 12.9},
            {"Network Switch/Cable", "Network", 35, 8.4},
            {"Host Maintenance", "Unplanned Maintenance", 32, 7.6},
            {"GPU SRAM Memory", "GPU", 19, 4.5},
            {"GPU System Processor", "GPU", 17, 4.1},
            {"NIC", "Host", 7, 1.7},
            {"NCCL Watchdog Timeouts", "Unknown", 7, 1.7},
            {"Silent Data Corruption", "GPU", 6, 1.4},
            {"GPU Thermal Interface + Sensor", "GPU", 6, 1.4},
            {"SSD", "Host", 3, 0.7},
            {"Power Supply", "Host", 3, 0.7},
            {"Server Chassis", "Host", 2, 0.5},
            {"IO Expansion Board", "Host", 2, 0.5},
            {"Dependency", "Dependency", 2, 0.5},
            {"CPU", "Host", 2, 0.5},
            {"System Memory", "Host", 2, 0.5},
        };
        return rec;
    }();
    return r;
}

std::string llama3TableNote() {
    return "Table 5's counts sum to 419, but 'Faulty GPU' is printed as 30.1% where 148/419 = "
           "35.3%; the printed percentages sum to 94.9%, and the text's 58.7% GPU share is the "
           "sum of the printed GPU rows (the counts give 268/419 = 64.0%). Shown as published "
           "(Llama 3, arXiv:2407.21783, Table 5).";
}

double llama3GpuMtbfHours() {
    const Llama3Record& r = llama3Record();
    int gpuFaults = 0;
    for (const InterruptionCause& c : r.causes)
        gpuFaults += c.category == "GPU" ? c.count : 0;
    return static_cast<double>(r.gpus) * r.days * 24.0 / gpuFaults;
}

JobConfig llama3ScaleGpuJob(double intervalS, double checkpointS, double restartS) {
    const Llama3Record& r = llama3Record();
    JobConfig c;
    c.sources = {{"GPU", llama3GpuMtbfHours(), r.gpus}};
    c.intervalS = intervalS;
    c.checkpointS = checkpointS;
    c.restartS = restartS;
    c.durationS = r.days * 86400.0;
    return c;
}

std::vector<FailureSource> llama3FailureSources(int gpus) {
    if (gpus < 1)
        throw std::invalid_argument("the job needs at least 1 GPU");
    const Llama3Record& r = llama3Record();
    const double gpuHours = static_cast<double>(r.gpus) * r.days * 24.0;
    std::vector<FailureSource> out;
    for (const InterruptionCause& c : r.causes)
        out.push_back({c.component, gpuHours / c.count, gpus});
    return out;
}

} // namespace wb
