#include "engine/recording_set.h"

#include "engine/embedded_traces.h"
#include "trace/trace_json.h"

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
    auto cached = m_embedded.find(scenarioId);
    if (cached == m_embedded.end()) {
        std::optional<Trace> parsed;
        std::string file = scenarioId;
        file.append(".json");
        const auto& files = embeddedTraces();
        if (const auto it = files.find(file); it != files.end()) {
            auto result = traceFromJson(it->second);
            if (auto* trace = std::get_if<Trace>(&result))
                parsed = std::move(*trace);
        }
        cached = m_embedded.emplace(scenarioId, std::move(parsed)).first;
    }
    return cached->second ? &*cached->second : nullptr;
}

RecordingSet& recordingSet() {
    static RecordingSet set;
    return set;
}

std::string replayProvenance(const Trace& trace, const std::string& modelDetail) {
    const Provenance& p = trace.provenance;
    std::string text;
    switch (p.source) {
    case TraceSource::Live:
        text = "LIVE: ";
        break;
    case TraceSource::Recorded:
        text = "RECORDED: ";
        break;
    case TraceSource::Imported:
        text = "IMPORTED: ";
        break;
    case TraceSource::Modeled:
        text = "MODELED on CPU";
        if (!p.device.empty())
            text.append(" for ").append(p.device);
        if (!modelDetail.empty())
            text.append(": ").append(modelDetail);
        text.append(" (not a measurement)");
        return text;
    }
    text.append(describeProvenance(p));
    return text;
}

} // namespace wb
