#include "trace/trace.h"

#include <array>
#include <cmath>
#include <utility>

namespace wb {
namespace {

constexpr std::array<std::pair<TraceSource, std::string_view>, 4> kSourceNames{{
    {TraceSource::Live, "live"},
    {TraceSource::Recorded, "recorded"},
    {TraceSource::Imported, "imported"},
    {TraceSource::Modeled, "modeled"},
}};

// Strict UTF-8 (no overlongs, surrogates or code points past U+10FFFF), the same rule the
// JSON writer applies, so a trace that validates can always be serialized.
bool isValidUtf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t extra = 0;
        unsigned lo = 0x80;
        unsigned hi = 0xBF;
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            lo = c == 0xE0 ? 0xA0 : 0x80; // overlong
            hi = c == 0xED ? 0x9F : 0xBF; // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            lo = c == 0xF0 ? 0x90 : 0x80; // overlong
            hi = c == 0xF4 ? 0x8F : 0xBF; // past U+10FFFF
        } else {
            return false;
        }
        if (s.size() - i <= extra)
            return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            const unsigned min = k == 1 ? lo : 0x80u;
            const unsigned max = k == 1 ? hi : 0xBFu;
            if (cc < min || cc > max)
                return false;
        }
        i += extra + 1;
    }
    return true;
}

TraceError errorAt(std::string path, const std::string& what) {
    TraceError e;
    e.message = path.empty() ? what : path + ": " + what;
    e.path = std::move(path);
    return e;
}

std::optional<TraceError> checkText(const std::string& text, const std::string& path) {
    if (isValidUtf8(text))
        return std::nullopt;
    return errorAt(path, "text is not valid UTF-8");
}

std::optional<TraceError> checkFinite(double v, const std::string& path) {
    if (std::isfinite(v))
        return std::nullopt;
    return errorAt(path, std::string("expected a finite number, got ") +
                             (std::isnan(v) ? "NaN" : "infinity") + " (JSON cannot represent it)");
}

std::optional<TraceError> checkProvenance(const Provenance& p) {
    if (!traceSourceFromString(toString(p.source)))
        return errorAt("/provenance/source",
                       "unknown source; expected one of " + allowedTraceSources());
    const std::array<std::pair<const std::string*, const char*>, 8> fields{{
        {&p.device, "device"},
        {&p.computeCapability, "computeCapability"},
        {&p.driverVersion, "driverVersion"},
        {&p.runtimeVersion, "runtimeVersion"},
        {&p.date, "date"},
        {&p.command, "command"},
        {&p.host, "host"},
        {&p.notes, "notes"},
    }};
    for (const auto& [value, name] : fields) {
        if (auto e = checkText(*value, std::string("/provenance/") + name))
            return e;
    }
    return std::nullopt;
}

std::optional<TraceError> checkSeries(const TraceSeries& s, const std::string& path) {
    if (auto e = checkText(s.name, path + "/name"))
        return e;
    if (auto e = checkText(s.xUnit, path + "/xUnit"))
        return e;
    if (auto e = checkText(s.yUnit, path + "/yUnit"))
        return e;
    if (s.x.size() != s.y.size())
        return errorAt(path, "x has " + std::to_string(s.x.size()) + " values but y has " +
                                 std::to_string(s.y.size()) + "; they must pair up");
    for (std::size_t i = 0; i < s.x.size(); ++i) {
        if (auto e = checkFinite(s.x[i], path + "/x/" + std::to_string(i)))
            return e;
        if (auto e = checkFinite(s.y[i], path + "/y/" + std::to_string(i)))
            return e;
    }
    return std::nullopt;
}

std::optional<TraceError> checkEvent(const TraceEvent& ev, const std::string& path) {
    if (auto e = checkText(ev.name, path + "/name"))
        return e;
    if (auto e = checkText(ev.category, path + "/category"))
        return e;
    if (ev.durationNs < 0)
        return errorAt(path + "/durationNs",
                       "expected a non-negative duration, got " + std::to_string(ev.durationNs));
    for (const auto& [key, value] : ev.values) {
        if (auto e = checkText(key, path + "/values"))
            return e;
        if (auto e = checkFinite(value, path + "/values/" + jsonPointerToken(key)))
            return e;
    }
    return std::nullopt;
}

// Drops the time of day: the one-line description needs only the date.
std::string dayOf(const std::string& isoDate) {
    const auto t = isoDate.find('T');
    return t == std::string::npos ? isoDate : isoDate.substr(0, t);
}

} // namespace

std::string_view toString(TraceSource source) {
    for (const auto& [value, name] : kSourceNames) {
        if (value == source)
            return name;
    }
    return "unknown";
}

std::optional<TraceSource> traceSourceFromString(std::string_view text) {
    for (const auto& [value, name] : kSourceNames) {
        if (name == text)
            return value;
    }
    return std::nullopt;
}

std::string allowedTraceSources() {
    std::string out;
    for (const auto& entry : kSourceNames) {
        if (!out.empty())
            out += ", ";
        out += entry.second;
    }
    return out;
}

std::string describeProvenance(const Provenance& p) {
    const std::string device = p.device.empty() ? "an unknown device" : p.device;
    const std::string date = p.date.empty() ? std::string() : ", " + dayOf(p.date);
    if (p.source == TraceSource::Modeled)
        return "modeled on CPU" + (p.device.empty() ? std::string() : " for " + p.device) + date;

    std::string versions;
    if (!p.driverVersion.empty())
        versions = "driver " + p.driverVersion;
    if (!p.runtimeVersion.empty())
        versions += (versions.empty() ? "" : ", ") + ("CUDA " + p.runtimeVersion);
    if (!versions.empty())
        versions = " (" + versions + ")";
    const std::string measured = "measured on " + device + versions + date;
    switch (p.source) {
    case TraceSource::Live:
        return measured;
    case TraceSource::Recorded:
        return measured + " (recording)";
    case TraceSource::Imported:
        return "imported: " + measured;
    case TraceSource::Modeled:
        break;
    }
    return "unknown source";
}

std::string jsonPointerToken(std::string_view key) {
    std::string out;
    out.reserve(key.size());
    for (const char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::optional<TraceError> validateTrace(const Trace& trace) {
    if (trace.formatVersion != kTraceFormatVersion)
        return errorAt("/formatVersion",
                       "unsupported format version " + std::to_string(trace.formatVersion) +
                           "; this build handles version " + std::to_string(kTraceFormatVersion));
    if (auto e = checkText(trace.kind, "/kind"))
        return e;
    if (auto e = checkProvenance(trace.provenance))
        return e;
    for (const auto& [key, value] : trace.metadata) {
        if (auto e = checkText(key, "/metadata"))
            return e;
        if (auto e = checkText(value, "/metadata/" + jsonPointerToken(key)))
            return e;
    }
    for (std::size_t i = 0; i < trace.series.size(); ++i) {
        if (auto e = checkSeries(trace.series[i], "/series/" + std::to_string(i)))
            return e;
    }
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        if (auto e = checkEvent(trace.events[i], "/events/" + std::to_string(i)))
            return e;
    }
    return std::nullopt;
}

} // namespace wb
