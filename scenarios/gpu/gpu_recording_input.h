#pragma once
// The "gpu" parameter a recording replays under: the catalogue GPU its device is.
#include "engine/recording_choice.h"
#include "trace/trace.h"

#include <optional>

namespace wb {

// {"gpu", "<catalogue id>"} for the device a recording was measured on (from its provenance
// and the device metadata the recorder writes); nullopt when no catalogue GPU matches. A
// modeled trace names its catalogue GPU in metadata "gpu".
std::optional<RecordingInput> gpuRecordingInput(const Trace& recording);

// The inputs of a measurement of the whole GPU (bandwidth, latency, peak probes): only the
// GPU, so it replays under that GPU whatever else is set.
std::optional<std::vector<RecordingInput>> gpuOnlyRecordingInputs(const Trace& recording);

} // namespace wb
