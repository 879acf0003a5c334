#include "engine/recording_choice.h"

#include "catalogue/hardware_catalogue.h"
#include "engine/scenario.h"
#include "engine/scenario_inputs.h"
#include "engine/sentence.h"

namespace wb {
namespace {

// True when the parameter already holds the input's value (compared as the parameter's type,
// so "2640" equals 2640 and "4096" the choice "4096").
bool holds(const Params& params, const RecordingInput& input) {
    const ParamSpec* spec = params.spec(input.param);
    if (!spec)
        return false;
    Params probe = params;
    if (probe.set(input.param, input.value))
        return false; // the recording's value is not even allowed here
    switch (spec->kind) {
    case ParamSpec::Kind::Integer:
        return probe.integer(input.param) == params.integer(input.param);
    case ParamSpec::Kind::Real:
        return probe.number(input.param) == params.number(input.param);
    case ParamSpec::Kind::Choice:
    case ParamSpec::Kind::Text:
        break;
    }
    return probe.text(input.param) == params.text(input.param);
}

std::string deviceOf(const Trace& trace) {
    return trace.provenance.device.empty() ? "an unnamed device" : trace.provenance.device;
}

// "GPU is NVIDIA H200 SXM 141 GB", "Blocks in the grid is 1057": the parameter as the panel
// names it and the value as the user would pick it, not the internal id.
std::string inputWords(const Scenario& scenario, const RecordingInput& input) {
    std::string label = input.param;
    for (const ParamSpec& spec : scenario.parameters())
        if (spec.name == input.param)
            label = spec.label;
    std::string value = input.value;
    if (input.param == "gpu")
        if (const GpuSpec* gpu = HardwareCatalogue::builtin().find(input.value))
            value = gpu->name;
    return fill("%1 is %2", {label, value});
}

} // namespace

RecordingChoice chooseRecording(const Scenario& scenario, const std::string& kind,
                                const Params& params, const ScenarioInputs& given) {
    const Trace* recording = given.recordings.recordingFor(scenario.id());
    if (!recording || recording->kind != kind)
        return {};
    const auto inputs = scenario.recordingInputs(*recording);
    if (!inputs)
        return {.trace = std::nullopt,
                .note = fill("a recording from %1 is not replayed: its device is not in the "
                             "catalogue or it does not say what it ran",
                             {deviceOf(*recording)})};
    std::string differs;
    for (const auto& input : *inputs) {
        if (holds(params, input))
            continue;
        differs.append(differs.empty() ? "" : ", ").append(inputWords(scenario, input));
    }
    if (differs.empty())
        return {.trace = *recording, .note = {}};
    // "from", not "measured on": this line also follows modeled data, which it must never
    // seem to call measured.
    return {.trace = std::nullopt,
            .note = fill("a recording from %1 replays when %2", {deviceOf(*recording), differs})};
}

std::string withReplayNote(std::string provenance, const RecordingChoice& choice) {
    if (!choice.note.empty())
        return fill("%1; %2", {provenance, choice.note});
    return provenance;
}

std::optional<Params> paramsReplaying(const Scenario& scenario, const Trace& recording,
                                      Params params) {
    const auto inputs = scenario.recordingInputs(recording);
    if (!inputs)
        return std::nullopt;
    for (const auto& input : *inputs)
        if (params.set(input.param, input.value))
            return std::nullopt;
    return params;
}

} // namespace wb
