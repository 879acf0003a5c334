#include "gpu/gpu_recording_input.h"

#include "catalogue/hardware_catalogue.h"

#include <cstdlib>

namespace wb {

std::optional<RecordingInput> gpuRecordingInput(const Trace& recording) {
    const auto& meta = recording.metadata;
    if (recording.provenance.source == TraceSource::Modeled) {
        const auto gpu = meta.find("gpu");
        if (gpu == meta.end() || !HardwareCatalogue::builtin().find(gpu->second))
            return std::nullopt;
        return RecordingInput{"gpu", gpu->second};
    }
    const auto sms = meta.find("sm_count");
    const auto memory = meta.find("memory_gb");
    if (sms == meta.end() || memory == meta.end())
        return std::nullopt;
    const GpuSpec* gpu = HardwareCatalogue::builtin().matchDevice(
        recording.provenance.device, recording.provenance.computeCapability,
        std::atoi(sms->second.c_str()), std::strtod(memory->second.c_str(), nullptr));
    if (!gpu)
        return std::nullopt;
    return RecordingInput{"gpu", gpu->id};
}

std::optional<std::vector<RecordingInput>> gpuOnlyRecordingInputs(const Trace& recording) {
    const auto gpu = gpuRecordingInput(recording);
    if (!gpu)
        return std::nullopt;
    return std::vector<RecordingInput>{*gpu};
}
} // namespace wb
