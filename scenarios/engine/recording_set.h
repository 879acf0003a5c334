#pragma once
// Which trace a scenario replays. A GPU scenario always draws from a Trace; this registry
// answers which one, in the order docs/RECORDINGS.md fixes: a live recording the app just
// measured, then a real recording shipped as resources/traces/<scenario-id>.json, then none
// (the scenario uses its modeled trace). A RecordingSet is a value: the app keeps its own in its
// ScenarioInputs (engine/scenario_inputs.h) and every build reads the one it is given.
#include "trace/trace.h"

#include <map>
#include <optional>
#include <string>

namespace wb {

class RecordingSet {
public:
    // Replaces the live recording of a scenario; stories built afterwards replay it.
    void setLiveRecording(const std::string& scenarioId, Trace trace);
    // Same, the scenario id taken from trace.metadata["scenario"]. False (nothing set) when the
    // trace does not name its scenario.
    bool setLiveRecording(Trace trace);
    void clearLiveRecording(const std::string& scenarioId);
    void clearAllLiveRecordings();

    // Live → embedded "<scenario-id>.json" (shippedRecording) → nullptr. The pointer stays
    // valid until the live recording of that scenario changes or the set is destroyed;
    // scenarios copy what they replay into the story, and replay it only where it fits their
    // parameters (engine/recording_choice.h).
    const Trace* recordingFor(const std::string& scenarioId) const;

private:
    std::map<std::string, Trace> m_live;
};

// The recording shipped in the binary as resources/traces/<scenario-id>.json, parsed once
// (thread-safe); nullptr when there is none or it does not read. Part of the program, not an
// input: the same for every build.
const Trace* shippedRecording(const std::string& scenarioId);

// The status line for a story drawn from `trace`: "LIVE: measured on <device>…, <date>",
// "RECORDED: measured on …", "IMPORTED: …", or for modeled data "MODELED on CPU for <device>:
// <modelDetail> (not a measurement)". Modeled data is never called measured.
std::string replayProvenance(const Trace& trace, const std::string& modelDetail);

} // namespace wb
