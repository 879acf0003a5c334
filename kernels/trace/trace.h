#pragma once
// The one data format for measurements: what live runs record, what ships as recordings and
// what imports produce. Provenance is mandatory because a chart without it cannot be trusted:
// the UI always shows where numbers came from, and modeled numbers never pass as measured.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

// The format version this build writes and the only one it reads.
inline constexpr int kTraceFormatVersion = 1;

enum class TraceSource {
    Live,     // measured by this process on this machine
    Recorded, // measured earlier and shipped as a recording
    Imported, // converted from another tool's output
    Modeled,  // computed on the CPU from a model: not a measurement
};

// "live", "recorded", "imported", "modeled": the spelling used in trace files.
std::string_view toString(TraceSource source);
std::optional<TraceSource> traceSourceFromString(std::string_view text);
// "live, recorded, imported, modeled", for error messages.
std::string allowedTraceSources();

struct Provenance {
    TraceSource source = TraceSource::Modeled;
    std::string device;            // "NVIDIA H100 80GB HBM3"
    std::string computeCapability; // "9.0"
    std::string driverVersion;     // "12.4"
    std::string runtimeVersion;    // "12.4"
    std::string date;              // ISO 8601
    std::string command;
    std::string host;
    std::string notes;

    bool operator==(const Provenance&) const = default;
};

// One line for the UI, e.g. "measured on NVIDIA H100 80GB HBM3 (driver 12.4, CUDA 12.4),
// 2026-11-30" or "modeled on CPU". Only measured sources use the word "measured".
std::string describeProvenance(const Provenance& provenance);

struct TraceSeries {
    std::string name;
    std::string xUnit;
    std::string yUnit;
    std::vector<double> x;
    std::vector<double> y;

    bool operator==(const TraceSeries&) const = default;
};

struct TraceEvent {
    std::string name;
    std::string category;
    int track = 0;
    std::int64_t startNs = 0;
    std::int64_t durationNs = 0;
    std::map<std::string, double> values;

    bool operator==(const TraceEvent&) const = default;
};

struct Trace {
    int formatVersion = kTraceFormatVersion;
    std::string kind; // e.g. "roofline-probe"
    Provenance provenance;
    std::map<std::string, std::string> metadata;
    std::vector<TraceSeries> series;
    std::vector<TraceEvent> events;

    bool operator==(const Trace&) const = default;
};

struct TraceError {
    std::string message;        // complete sentence for the user, including the location
    std::size_t byteOffset = 0; // into the JSON text; 0 when the error is not about text
    std::string path;           // JSON pointer of the offending value, "" for the whole trace
};

// Escapes one JSON pointer token ("/" -> "~1", "~" -> "~0"), so paths to user keys stay
// unambiguous.
std::string jsonPointerToken(std::string_view key);

// Checks what the JSON format cannot carry or the UI cannot draw: non-finite numbers,
// x/y length mismatch, negative durations, invalid UTF-8, an unsupported format version.
std::optional<TraceError> validateTrace(const Trace& trace);

} // namespace wb
