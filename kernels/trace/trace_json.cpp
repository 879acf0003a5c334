#include "trace/trace_json.h"

#include "trace/json_syntax_error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace wb {
namespace {

using Json = nlohmann::json;
// Insertion order on write gives a fixed, human-friendly key order; maps in the Trace are
// already sorted, so the whole text is deterministic.
using OrderedJson = nlohmann::ordered_json;

// ---- Positions --------------------------------------------------------------------------

// " (line 3, column 11, byte 34)": ends schema error messages, which lead with the path.
std::string positionSuffix(std::string_view text, std::size_t offset) {
    const LineColumn lc = lineColumnOf(text, offset);
    return " (line " + std::to_string(lc.line) + ", column " + std::to_string(lc.column) +
           ", byte " + std::to_string(offset) + ")";
}

// Finds where the value at a JSON pointer starts in text that has already parsed, so schema
// errors (found on the DOM, which keeps no positions) can still point at a line and column.
// Stops at the deepest ancestor it can reach.
class JsonLocator {
public:
    explicit JsonLocator(std::string_view text)
        : m_text(text) {}

    std::size_t offsetOf(std::string_view pointer) {
        m_pos = m_text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; // the parser skips a BOM
        skipWhitespace();
        for (const auto& token : splitPointer(pointer)) {
            const std::size_t container = m_pos;
            if (!(at('{') ? enterMember(token) : at('[') && enterElement(token))) {
                m_pos = container;
                break;
            }
        }
        return m_pos;
    }

private:
    static std::vector<std::string> splitPointer(std::string_view pointer) {
        std::vector<std::string> tokens;
        std::size_t i = 0;
        while (i < pointer.size() && pointer[i] == '/') {
            std::string token;
            for (++i; i < pointer.size() && pointer[i] != '/'; ++i) {
                if (pointer[i] == '~' && i + 1 < pointer.size()) {
                    token += pointer[i + 1] == '1' ? '/' : '~';
                    ++i;
                } else {
                    token += pointer[i];
                }
            }
            tokens.push_back(std::move(token));
        }
        return tokens;
    }

    bool at(char c) const { return m_pos < m_text.size() && m_text[m_pos] == c; }

    void skipWhitespace() {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' ||
                                         m_text[m_pos] == '\n' || m_text[m_pos] == '\r'))
            ++m_pos;
    }

    void skipSeparator() {
        skipWhitespace();
        if (at(',') || at(':'))
            ++m_pos;
        skipWhitespace();
    }

    void skipString() {
        for (++m_pos; m_pos < m_text.size(); ++m_pos) {
            if (m_text[m_pos] == '\\')
                ++m_pos;
            else if (m_text[m_pos] == '"')
                break;
        }
        ++m_pos;
    }

    // Keys are decoded by the real parser so escapes compare exactly as they were read.
    std::string readKey() {
        const std::size_t start = m_pos;
        skipString();
        const auto raw = m_text.substr(start, m_pos - start);
        const Json key = Json::parse(raw.begin(), raw.end(), nullptr, false);
        return key.is_string() ? key.get<std::string>() : std::string();
    }

    // Iterative, so deeply nested input cannot overflow the stack.
    void skipValue() {
        std::size_t depth = 0;
        do {
            skipWhitespace();
            if (m_pos >= m_text.size())
                return;
            const char c = m_text[m_pos];
            if (c == '"') {
                skipString();
            } else if (c == '{' || c == '[') {
                ++depth;
                ++m_pos;
            } else if (c == '}' || c == ']') {
                --depth;
                ++m_pos;
            } else if (c == ',' || c == ':') {
                ++m_pos;
            } else {
                while (m_pos < m_text.size() &&
                       std::string_view(",]} \t\r\n").find(m_text[m_pos]) == std::string_view::npos)
                    ++m_pos;
            }
        } while (depth > 0);
    }

    bool enterMember(const std::string& key) {
        std::optional<std::size_t> found;
        ++m_pos;
        skipWhitespace();
        while (at('"')) {
            const bool match = readKey() == key;
            skipSeparator();
            if (match)
                found = m_pos; // keep going: the parser lets the last duplicate win
            skipValue();
            skipSeparator();
        }
        if (found)
            m_pos = *found;
        return found.has_value();
    }

    bool enterElement(const std::string& token) {
        std::size_t index = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
        if (ec != std::errc() || end != token.data() + token.size())
            return false;
        ++m_pos;
        skipWhitespace();
        for (std::size_t i = 0; i < index; ++i) {
            if (at(']') || m_pos >= m_text.size())
                return false;
            skipValue();
            skipSeparator();
        }
        return !at(']') && m_pos < m_text.size();
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

// ---- Writing ----------------------------------------------------------------------------

OrderedJson provenanceToJson(const Provenance& p) {
    OrderedJson j;
    j["source"] = std::string(toString(p.source));
    j["device"] = p.device;
    j["computeCapability"] = p.computeCapability;
    j["driverVersion"] = p.driverVersion;
    j["runtimeVersion"] = p.runtimeVersion;
    j["date"] = p.date;
    j["command"] = p.command;
    j["host"] = p.host;
    j["notes"] = p.notes;
    return j;
}

OrderedJson toJson(const Trace& t) {
    OrderedJson root;
    root["formatVersion"] = t.formatVersion;
    root["kind"] = t.kind;
    root["provenance"] = provenanceToJson(t.provenance);
    root["metadata"] = OrderedJson::object();
    for (const auto& [key, value] : t.metadata)
        root["metadata"][key] = value;
    root["series"] = OrderedJson::array();
    for (const auto& s : t.series) {
        OrderedJson j;
        j["name"] = s.name;
        j["xUnit"] = s.xUnit;
        j["yUnit"] = s.yUnit;
        j["x"] = s.x;
        j["y"] = s.y;
        root["series"].push_back(std::move(j));
    }
    root["events"] = OrderedJson::array();
    for (const auto& e : t.events) {
        OrderedJson j;
        j["name"] = e.name;
        j["category"] = e.category;
        j["track"] = e.track;
        j["startNs"] = e.startNs;
        j["durationNs"] = e.durationNs;
        j["values"] = OrderedJson::object();
        for (const auto& [key, value] : e.values)
            j["values"][key] = value;
        root["events"].push_back(std::move(j));
    }
    return root;
}

// ---- Reading ----------------------------------------------------------------------------

// Thrown inside the reader only; traceFromJson turns it into a TraceError.
struct SchemaError {
    std::string path;
    std::string what;
};

[[noreturn]] void fail(const std::string& path, std::string what) {
    throw SchemaError{path, std::move(what)};
}

std::string typeOf(const Json& j) {
    switch (j.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return "a boolean";
    case Json::value_t::string:
        return "a string";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::object:
        return "an object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
        return "an integer";
    case Json::value_t::number_float:
        return "a fractional number";
    case Json::value_t::binary:
    case Json::value_t::discarded:
        break;
    }
    return "an unsupported value";
}

void requireObject(const Json& j, const std::string& path,
                   std::initializer_list<std::string_view> allowed) {
    if (!j.is_object())
        fail(path, "expected an object, got " + typeOf(j));
    for (const auto& item : j.items()) {
        bool known = false;
        std::string list;
        for (const auto key : allowed) {
            known = known || key == item.key();
            list += (list.empty() ? "" : ", ") + std::string(key);
        }
        if (!known)
            fail(path + "/" + jsonPointerToken(item.key()), "unknown key; expected one of " + list);
    }
}

const Json* member(const Json& obj, const char* key) {
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const Json& required(const Json& obj, const char* key, const std::string& path) {
    const Json* j = member(obj, key);
    if (j == nullptr)
        fail(path, std::string("missing required key \"") + key + "\"");
    return *j;
}

std::string readString(const Json& j, const std::string& path) {
    if (!j.is_string())
        fail(path, "expected a string, got " + typeOf(j));
    return j.get<std::string>();
}

// Absent optional strings read as empty, like the defaults in Trace.
std::string readOptionalString(const Json& obj, const char* key, const std::string& path) {
    const Json* j = member(obj, key);
    return j == nullptr ? std::string() : readString(*j, path + "/" + key);
}

double readFinite(const Json& j, const std::string& path) {
    if (!j.is_number())
        fail(path, "expected a finite number, got " + typeOf(j));
    const double v = j.get<double>();
    if (!std::isfinite(v))
        fail(path, "expected a finite number, got one outside the range of a double");
    return v;
}

std::int64_t readInt64(const Json& j, const std::string& path) {
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            fail(path, "expected an integer that fits in 64 bits, got " + std::to_string(u));
        return static_cast<std::int64_t>(u);
    }
    if (j.is_number_integer())
        return j.get<std::int64_t>();
    fail(path, "expected an integer, got " + typeOf(j));
}

int readInt(const Json& j, const std::string& path) {
    const std::int64_t v = readInt64(j, path);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        fail(path, "expected a 32-bit integer, got " + std::to_string(v));
    return static_cast<int>(v);
}

std::vector<double> readNumbers(const Json& j, const std::string& path) {
    if (!j.is_array())
        fail(path, "expected an array of numbers, got " + typeOf(j));
    std::vector<double> out;
    out.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i)
        out.push_back(readFinite(j[i], path + "/" + std::to_string(i)));
    return out;
}

Provenance readProvenance(const Json& j, const std::string& path) {
    requireObject(j, path,
                  {"source", "device", "computeCapability", "driverVersion", "runtimeVersion",
                   "date", "command", "host", "notes"});
    Provenance p;
    const std::string source = readString(required(j, "source", path), path + "/source");
    const auto parsed = traceSourceFromString(source);
    if (!parsed)
        fail(path + "/source",
             "unknown source \"" + source + "\"; expected one of " + allowedTraceSources());
    p.source = *parsed;
    p.device = readOptionalString(j, "device", path);
    p.computeCapability = readOptionalString(j, "computeCapability", path);
    p.driverVersion = readOptionalString(j, "driverVersion", path);
    p.runtimeVersion = readOptionalString(j, "runtimeVersion", path);
    p.date = readOptionalString(j, "date", path);
    p.command = readOptionalString(j, "command", path);
    p.host = readOptionalString(j, "host", path);
    p.notes = readOptionalString(j, "notes", path);
    return p;
}

TraceSeries readSeries(const Json& j, const std::string& path) {
    requireObject(j, path, {"name", "xUnit", "yUnit", "x", "y"});
    TraceSeries s;
    s.name = readString(required(j, "name", path), path + "/name");
    s.xUnit = readOptionalString(j, "xUnit", path);
    s.yUnit = readOptionalString(j, "yUnit", path);
    s.x = readNumbers(required(j, "x", path), path + "/x");
    s.y = readNumbers(required(j, "y", path), path + "/y");
    return s;
}

TraceEvent readEvent(const Json& j, const std::string& path) {
    requireObject(j, path, {"name", "category", "track", "startNs", "durationNs", "values"});
    TraceEvent e;
    e.name = readString(required(j, "name", path), path + "/name");
    e.category = readOptionalString(j, "category", path);
    if (const Json* track = member(j, "track"))
        e.track = readInt(*track, path + "/track");
    e.startNs = readInt64(required(j, "startNs", path), path + "/startNs");
    if (const Json* duration = member(j, "durationNs"))
        e.durationNs = readInt64(*duration, path + "/durationNs");
    if (const Json* values = member(j, "values")) {
        if (!values->is_object())
            fail(path + "/values", "expected an object of numbers, got " + typeOf(*values));
        for (const auto& item : values->items()) {
            const std::string itemPath = path + "/values/" + jsonPointerToken(item.key());
            e.values[item.key()] = readFinite(item.value(), itemPath);
        }
    }
    return e;
}

// Applies a reader to each element of an optional array member.
template <typename T, typename ReadOne>
std::vector<T> readList(const Json& obj, const char* key, ReadOne readOne) {
    std::vector<T> out;
    const Json* list = member(obj, key);
    if (list == nullptr)
        return out;
    const std::string path = std::string("/") + key;
    if (!list->is_array())
        fail(path, "expected an array, got " + typeOf(*list));
    for (std::size_t i = 0; i < list->size(); ++i)
        out.push_back(readOne((*list)[i], path + "/" + std::to_string(i)));
    return out;
}

Trace readTrace(const Json& root) {
    if (!root.is_object())
        fail("", "expected an object, got " + typeOf(root));
    Trace t;
    // The version comes first: a newer file may have keys this build does not know, and
    // "unsupported version" is the useful message then.
    t.formatVersion = readInt(required(root, "formatVersion", ""), "/formatVersion");
    if (t.formatVersion != kTraceFormatVersion)
        fail("/formatVersion", "unsupported format version " + std::to_string(t.formatVersion) +
                                   "; this build reads version " +
                                   std::to_string(kTraceFormatVersion));
    requireObject(root, "",
                  {"formatVersion", "kind", "provenance", "metadata", "series", "events"});
    t.kind = readString(required(root, "kind", ""), "/kind");
    t.provenance = readProvenance(required(root, "provenance", ""), "/provenance");
    if (const Json* metadata = member(root, "metadata")) {
        if (!metadata->is_object())
            fail("/metadata", "expected an object of strings, got " + typeOf(*metadata));
        for (const auto& item : metadata->items())
            t.metadata[item.key()] =
                readString(item.value(), "/metadata/" + jsonPointerToken(item.key()));
    }
    t.series = readList<TraceSeries>(root, "series", readSeries);
    t.events = readList<TraceEvent>(root, "events", readEvent);
    return t;
}

TraceError schemaError(std::string_view text, std::string path, const std::string& what) {
    TraceError e;
    e.byteOffset = JsonLocator(text).offsetOf(path);
    e.message = (path.empty() ? std::string("document") : path) + ": " + what +
                positionSuffix(text, e.byteOffset);
    e.path = std::move(path);
    return e;
}

TraceError syntaxError(std::string_view text) {
    const JsonSyntaxError syntax = jsonSyntaxError(text);
    TraceError e;
    e.byteOffset = syntax.byteOffset;
    e.message = syntax.message;
    return e;
}

TraceError prefixed(TraceError e, const std::string& file) {
    e.message = file + ": " + e.message;
    return e;
}

TraceError fileError(const std::string& file, const std::string& what) {
    TraceError e;
    e.message = file + ": " + what;
    return e;
}

} // namespace

std::variant<std::string, TraceError> traceToJsonChecked(const Trace& trace) {
    if (auto e = validateTrace(trace))
        return *e;
    try {
        return toJson(trace).dump(2) + "\n";
    } catch (const std::exception& ex) {
        // Unreachable after validation; kept so the function never throws.
        TraceError e;
        e.message = std::string("cannot serialize trace: ") + ex.what();
        return e;
    }
}

std::string traceToJson(const Trace& trace) {
    auto result = traceToJsonChecked(trace);
    if (auto* text = std::get_if<std::string>(&result))
        return std::move(*text);
    return {};
}

std::variant<Trace, TraceError> traceFromJson(std::string_view text) {
    try {
        const Json root = Json::parse(text.begin(), text.end(), nullptr, false);
        if (root.is_discarded())
            return syntaxError(text);
        Trace trace = readTrace(root);
        if (auto e = validateTrace(trace)) {
            // validateTrace words its message "<path>: <what>"; keep only <what> so the
            // located message does not repeat the path.
            const std::size_t prefix = e->path.empty() ? 0 : e->path.size() + 2;
            return schemaError(text, e->path, e->message.substr(prefix));
        }
        return trace;
    } catch (const SchemaError& err) {
        return schemaError(text, err.path, err.what);
    } catch (const std::exception& ex) {
        TraceError e;
        e.message = std::string("cannot read trace: ") + ex.what();
        return e;
    }
}

std::variant<Trace, TraceError> readTraceFile(const std::string& path) {
    try {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec))
            return fileError(path, "file not found");
        if (std::filesystem::is_directory(path, ec))
            return fileError(path, "is a folder, expected a trace file");
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return fileError(path, "cannot open for reading (check permissions)");
        std::string text;
        // Chunked reads rather than istreambuf_iterator, which trips GCC 12's
        // -Wnull-dereference inside libstdc++.
        std::vector<char> chunk(std::size_t{1} << 16);
        while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
            text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        if (in.bad())
            return fileError(path, "read failed");
        auto result = traceFromJson(text);
        if (auto* e = std::get_if<TraceError>(&result))
            return prefixed(std::move(*e), path);
        return result;
    } catch (const std::exception& ex) {
        return fileError(path, std::string("cannot read: ") + ex.what());
    }
}

std::optional<TraceError> writeTraceFile(const Trace& trace, const std::string& path) {
    try {
        auto json = traceToJsonChecked(trace);
        if (auto* e = std::get_if<TraceError>(&json))
            return prefixed(std::move(*e), path);
        const auto& text = std::get<std::string>(json);

        const std::filesystem::path target(path);
        std::error_code ec;
        if (target.has_parent_path() && !std::filesystem::is_directory(target.parent_path(), ec))
            return fileError(path, "folder " + target.parent_path().string() + " does not exist");
        const std::string temp = path + ".tmp";
        {
            std::ofstream out(temp, std::ios::binary | std::ios::trunc);
            if (!out)
                return fileError(path, "cannot open " + temp + " for writing (check permissions)");
            out.write(text.data(), static_cast<std::streamsize>(text.size()));
            out.close();
            if (!out) {
                std::filesystem::remove(temp, ec);
                return fileError(path, "write failed (disk full?)");
            }
        }
        std::filesystem::rename(temp, target, ec);
        if (ec) {
            std::filesystem::remove(temp, ec);
            return fileError(path, "cannot replace the file: " + ec.message());
        }
        return std::nullopt;
    } catch (const std::exception& ex) {
        return fileError(path, std::string("cannot write: ") + ex.what());
    }
}

} // namespace wb
