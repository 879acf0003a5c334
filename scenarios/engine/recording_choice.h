#pragma once
// Whether a scenario replays a recording under the parameters on screen. A recording measures
// one kernel configuration on one GPU; replayed under other parameters it would put that GPU's
// numbers under another GPU's title. So a scenario names the parameters a recording fixes
// (Scenario::recordingInputs), a recording replays only where all of them agree, and otherwise
// the scenario draws its model while the status line says which values replay the measurement.
#include "engine/params.h"
#include "trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

class Scenario;
struct ScenarioInputs;

// One parameter value a recording was measured at, as the parameter's text ("h200-sxm", "2640").
struct RecordingInput {
    std::string param;
    std::string value;
};

struct RecordingChoice {
    std::optional<Trace> trace; // the recording, when it fits the parameters
    // When a recording exists but does not fit: which values replay it ("a recording from
    // NVIDIA H200 replays when GPU is NVIDIA H200 SXM 141 GB, Grid size (blocks) is 2640");
    // else empty.
    std::string note;
};

// The scenario's recording in `given` (live, else shipped) of `kind` if it fits `params`.
RecordingChoice chooseRecording(const Scenario& scenario, const std::string& kind,
                                const Params& params, const ScenarioInputs& given);

// `provenance` followed by the choice's note, when there is one.
std::string withReplayNote(std::string provenance, const RecordingChoice& choice);

// `params` with every input of `recording` set, so that it replays; nullopt when it cannot
// replay in this scenario (a device the catalogue lacks, a value outside a parameter's range).
std::optional<Params> paramsReplaying(const Scenario& scenario, const Trace& recording,
                                      Params params);

} // namespace wb
