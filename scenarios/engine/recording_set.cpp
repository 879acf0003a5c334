#include "engine/recording_set.h"

#include "engine/embedded_traces.h"
#include "engine/scenario_inputs.h"
#include "engine/sentence.h"
#include "trace/trace_json.h"

#include <mutex>
#include <variant>

namespace wb {

void RecordingSet::setLiveRecording(const std::string& scenarioId, Trace trace) {
    m_live[scenarioId] = std::move(trace);
}

bool RecordingSet::setLiveRecording(Trace trace) {
    const auto it = trace.metadata.find("scenario");
    if (it == trace.metadata.end() || it->second.empty())
        return false;
    const std::string id = it->second;
    setLiveRecording(id, std::move(trace));
    return true;
}

void RecordingSet::clearLiveRecording(const std::string& scenarioId) {
    m_live.erase(scenarioId);
}

void RecordingSet::clearAllLiveRecordings() {
    m_live.clear();
}

const Trace* RecordingSet::recordingFor(const std::string& scenarioId) const {
    if (const auto live = m_live.find(scenarioId); live != m_live.end())
        return &live->second;
    return shippedRecording(scenarioId);
}

const Trace* shippedRecording(const std::string& scenarioId) {
    // Entries are only ever added, and std::map nodes do not move: a pointer handed out stays
    // valid for the program's life.
    static std::mutex mutex;
    static std::map<std::string, std::optional<Trace>> parsed;
    const std::lock_guard lock(mutex);
    auto cached = parsed.find(scenarioId);
    if (cached == parsed.end()) {
        std::optional<Trace> trace;
        const auto& files = embeddedTraces();
        if (const auto it = files.find(scenarioId + ".json"); it != files.end()) {
            auto result = traceFromJson(it->second);
            if (auto* t = std::get_if<Trace>(&result))
                trace = std::move(*t);
        }
        cached = parsed.emplace(scenarioId, std::move(trace)).first;
    }
    return cached->second ? &*cached->second : nullptr;
}

const ScenarioInputs& ScenarioInputs::shipped() {
    static const ScenarioInputs inputs;
    return inputs;
}

std::string replayProvenance(const Trace& trace, const std::string& modelDetail) {
    const Provenance& p = trace.provenance;
    std::string_view pattern = "%1";
    switch (p.source) {
    case TraceSource::Live:
        pattern = "LIVE: %1";
        break;
    case TraceSource::Recorded:
        pattern = "RECORDED: %1";
        break;
    case TraceSource::Imported:
        pattern = "IMPORTED: %1";
        break;
    case TraceSource::Modeled:
        return fill("MODELED on CPU%1%2 (not a measurement)",
                    {p.device.empty() ? std::string{} : fill(" for %1", {p.device}),
                     modelDetail.empty() ? std::string{} : fill(": %1", {modelDetail})});
    }
    return fill(pattern, {describeProvenance(p)});
}

} // namespace wb
