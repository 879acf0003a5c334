// The PyTorch profiler (Kineto) and generic Chrome Trace Event Format importer. It walks the
// JSON with JsonPullReader, one event object at a time, straight into a TraceStore: no
// document tree, so memory stays near the size of the store whatever the file size.
#include "import/chrome_trace_result.h"
#include "import/importers.h"
#include "import/json_pull_reader.h"
#include "import/micros_text.h"
#include "import/nccl_kernel_name.h"
#include "import/rank_from_path.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <vector>

namespace wb {

namespace {

using Kind = JsonPullReader::Kind;

const char* kindName(Kind k) {
    switch (k) {
    case Kind::Object:
        return "an object";
    case Kind::Array:
        return "an array";
    case Kind::String:
        return "a string";
    case Kind::Number:
        return "a number";
    case Kind::True:
    case Kind::False:
        return "a boolean";
    case Kind::Null:
        return "null";
    case Kind::End:
        break;
    }
    return "the end of the input";
}

double toDouble(std::string_view text) {
    double v = 0.0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

// A correlation id as the store keeps it: ids are counters that start at 1; one that is not a
// whole number in (0, 2^32) is dropped (0) rather than wrapped, so it can never match the
// wrong launch.
std::uint32_t correlationId(double v) {
    if (!(v >= 1.0 && v < 4294967296.0) || v != std::floor(v))
        return 0;
    return static_cast<std::uint32_t>(v);
}

// The fields of one event object, reused from event to event to avoid allocations.
struct RawEvent {
    std::string name, cat, ph, pid, tid, id, bp, ts, dur;
    bool hasTs = false, hasDur = false, hasId = false;
    // args
    std::string argName, argLabels;
    std::vector<std::pair<std::string, double>> numbers; // numeric args (counters)
    KernelInfo kernel;
    bool hasKernelArgs = false;
    std::uint32_t correlation = 0;

    void clear() {
        name.clear();
        cat.clear();
        ph.clear();
        pid.clear();
        tid.clear();
        id.clear();
        bp.clear();
        hasTs = hasDur = hasId = false;
        argName.clear();
        argLabels.clear();
        numbers.clear();
        kernel = KernelInfo();
        hasKernelArgs = false;
        correlation = 0;
    }
};

bool isKernelCategory(std::string_view cat) {
    return cat == "kernel" || cat == "Kernel";
}

// Category names PyTorch's profiler writes (2021 and later names) and no other tool does.
bool isKinetoCategory(std::string_view cat) {
    static const char* const names[] = {"kernel",     "Kernel",           "gpu_memcpy",
                                        "gpu_memset", "cuda_runtime",     "cuda_driver",
                                        "cpu_op",     "python_function",  "gpu_user_annotation",
                                        "ac2g",       "async_cpu_to_gpu", "cpu_instant_event",
                                        "Runtime",    "Memcpy",           "Memset",
                                        "Operator"};
    for (const char* n : names)
        if (cat == n)
            return true;
    return false;
}

bool isKinetoTopKey(std::string_view key) {
    return key == "schemaVersion" || key == "deviceProperties" || key == "computeProperties" ||
           key == "distributedInfo" || key == "baseTimeNanoseconds" || key == "cupti_version" ||
           key == "cuda_runtime_version" || key == "roctracer_version" ||
           key == "hip_runtime_version" || key == "record_shapes";
}

EventKind kindOf(std::string_view cat) {
    if (isKernelCategory(cat))
        return EventKind::Kernel;
    if (cat == "gpu_memcpy" || cat == "Memcpy")
        return EventKind::Memcpy;
    if (cat == "gpu_memset" || cat == "Memset")
        return EventKind::Memset;
    if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime")
        return EventKind::Runtime;
    if (cat == "cpu_op" || cat == "Operator")
        return EventKind::CpuOp;
    if (cat == "user_annotation" || cat == "gpu_user_annotation")
        return EventKind::Annotation;
    return EventKind::Other;
}

class ChromeTraceParser {
public:
    ChromeTraceParser(ByteSource& source, const ImportControl& control)
        : m_reader(source, control)
        , m_result(std::make_unique<ChromeTraceResult>()) {}

    std::unique_ptr<ChromeTraceResult> run() {
        const Kind top = m_reader.peekKind();
        if (top == Kind::Array) {
            readEvents();
        } else if (top == Kind::Object) {
            readTopObject();
        } else {
            m_reader.fail(std::string("expected '{' or '[' at the start of a trace, found ") +
                          kindName(top));
        }
        m_reader.expectEnd();
        finish();
        return std::move(m_result);
    }

private:
    void readTopObject() {
        m_reader.beginObject();
        std::string_view key;
        bool sawEvents = false;
        bool sawNodes = false;
        std::optional<std::string> etSchema; // "schema" as PyTorch's execution trace writes it
        while (m_reader.nextKey(key)) {
            if (key == "traceEvents") {
                if (m_reader.peekKind() != Kind::Array)
                    m_reader.fail("\"traceEvents\" must be an array");
                readEvents();
                sawEvents = true;
                continue;
            }
            if (isKinetoTopKey(key))
                m_kineto = true;
            if (key == "distributedInfo" && m_reader.peekKind() == Kind::Object) {
                readDistributedInfo();
                continue;
            }
            if (key == "schema" && m_reader.peekKind() == Kind::String) {
                etSchema = std::string(m_reader.readString());
                continue;
            }
            // PyTorch's execution trace writes "schema" first, then "nodes": say what the
            // file is as soon as both are seen, without reading the whole operator graph.
            if (key == "nodes" && m_reader.peekKind() == Kind::Array) {
                if (etSchema)
                    failExecutionTrace(*etSchema);
                sawNodes = true;
            }
            m_reader.skipValue();
        }
        if (!sawEvents && sawNodes)
            failExecutionTrace(etSchema.value_or(""));
        if (!sawEvents)
            m_reader.fail("no \"traceEvents\" array in the top-level object");
    }

    [[noreturn]] void failExecutionTrace(const std::string& schema) {
        std::string message = "this is a PyTorch execution trace (the operator graph";
        if (!schema.empty())
            message.append(", schema ").append(schema.substr(0, 40));
        message.append("), not a profiler trace: it holds no kernel timings. Open the matching "
                       "profiler trace (Kineto: the .pt.trace.json torch.profiler writes)");
        m_reader.fail(message);
    }

    void readDistributedInfo() {
        m_reader.beginObject();
        std::string_view key;
        while (m_reader.nextKey(key)) {
            const bool isRank = key == "rank";
            const bool isWorld = key == "world_size";
            if ((isRank || isWorld) && m_reader.peekKind() == Kind::Number) {
                const auto v = static_cast<long>(toDouble(m_reader.readNumber()));
                (isRank ? m_distRank : m_result->worldSize) = v;
            } else {
                m_reader.skipValue();
            }
        }
    }

    void readEvents() {
        m_reader.beginArray();
        while (m_reader.nextElement()) {
            if (m_reader.peekKind() != Kind::Object)
                fieldError("", std::string("must be an object, found ") +
                                   kindName(m_reader.peekKind()));
            readEvent();
            storeEvent();
            ++m_result->eventCount;
        }
    }

    [[noreturn]] void fieldError(std::string_view field, const std::string& what) {
        std::string message = "traceEvents[" + std::to_string(m_result->eventCount) + "]";
        if (!field.empty()) {
            message += ": field \"";
            message.append(field);
            message += '"';
        }
        message += ' ';
        message += what;
        m_reader.fail(message);
    }

    // A string field (numbers are accepted as their text: names like 42 occur).
    void readText(std::string_view field, std::string& out) {
        const Kind k = m_reader.peekKind();
        if (k == Kind::String)
            out = m_reader.readString();
        else if (k == Kind::Number)
            out = m_reader.readNumber();
        else if (k == Kind::Null)
            m_reader.readNull();
        else
            fieldError(field, std::string("must be a string, found ") + kindName(k));
    }

    // ts and dur: microseconds as a number (its text is kept for exact nanoseconds).
    void readTime(std::string_view field, std::string& out) {
        const Kind k = m_reader.peekKind();
        if (k != Kind::Number)
            fieldError(field, std::string("must be a number, found ") + kindName(k));
        out = m_reader.readNumber();
    }

    void readEvent() {
        RawEvent& e = m_event;
        e.clear();
        m_reader.beginObject();
        std::string_view key;
        while (m_reader.nextKey(key)) {
            if (key == "ph") {
                readText("ph", e.ph);
            } else if (key == "name") {
                readText("name", e.name);
            } else if (key == "cat") {
                readText("cat", e.cat);
            } else if (key == "ts") {
                readTime("ts", e.ts);
                e.hasTs = true;
            } else if (key == "dur") {
                readTime("dur", e.dur);
                e.hasDur = true;
            } else if (key == "pid") {
                readText("pid", e.pid);
            } else if (key == "tid") {
                readText("tid", e.tid);
            } else if (key == "id") {
                readText("id", e.id);
                e.hasId = true;
            } else if (key == "bp") {
                readText("bp", e.bp);
            } else if (key == "args" && m_reader.peekKind() == Kind::Object) {
                readArgs();
            } else {
                m_reader.skipValue();
            }
        }
    }

    void readTriple(std::int32_t (&out)[3]) {
        m_reader.beginArray();
        int i = 0;
        while (m_reader.nextElement()) {
            if (i < 3 && m_reader.peekKind() == Kind::Number)
                out[i] = static_cast<std::int32_t>(toDouble(m_reader.readNumber()));
            else
                m_reader.skipValue();
            ++i;
        }
    }

    void readArgs() {
        RawEvent& e = m_event;
        m_reader.beginObject();
        std::string_view key;
        while (m_reader.nextKey(key)) {
            const Kind k = m_reader.peekKind();
            if (k == Kind::Number) {
                std::string name(key);
                const double v = toDouble(m_reader.readNumber());
                setKernelArg(name, v);
                if (key == "correlation")
                    e.correlation = correlationId(v);
                if (e.numbers.size() < 64)
                    e.numbers.emplace_back(std::move(name), v);
            } else if (k == Kind::String && (key == "name" || key == "labels")) {
                std::string& out = key == "name" ? e.argName : e.argLabels;
                out = m_reader.readString();
            } else if (k == Kind::Array && (key == "grid" || key == "block")) {
                readTriple(key == "grid" ? e.kernel.grid : e.kernel.block);
                e.hasKernelArgs = true;
            } else {
                m_reader.skipValue();
            }
        }
    }

    void setKernelArg(std::string_view key, double v) {
        KernelInfo& k = m_event.kernel;
        if (key == "registers per thread")
            k.registersPerThread = static_cast<std::int32_t>(v);
        else if (key == "shared memory")
            k.sharedMemory = static_cast<std::int32_t>(v);
        else if (key == "est. achieved occupancy %" || key == "theoretical occupancy %")
            k.occupancyPct = static_cast<float>(v);
        else if (key == "blocks per SM")
            k.blocksPerSm = static_cast<float>(v);
        else if (key == "warps per SM")
            k.warpsPerSm = static_cast<float>(v);
        else
            return;
        m_event.hasKernelArgs = true;
    }

    std::int64_t timeNs(std::string_view field, const std::string& text) {
        const auto ns = microsTextToNs(text);
        if (!ns)
            fieldError(field, "is out of range: " + text.substr(0, 40));
        return *ns;
    }

    void storeEvent() {
        RawEvent& e = m_event;
        TraceStore& s = m_result->store;
        const char ph = e.ph.size() == 1 ? e.ph[0] : '\0';
        if (ph == 'M') {
            storeMetadata();
            return;
        }
        if (!e.hasTs || ph == '\0') {
            ++m_result->skippedEvents;
            return;
        }
        if (!m_kineto && isKinetoCategory(e.cat))
            m_kineto = true;
        const std::int64_t ts = timeNs("ts", e.ts);
        const std::int64_t dur = e.hasDur ? timeNs("dur", e.dur) : 0;
        const std::uint32_t track = s.track(e.pid, e.tid);
        StoredEvent ev;
        ev.startNs = ts;
        ev.track = track;
        ev.name = s.strings().intern(e.name);
        ev.category = s.strings().intern(e.cat);
        ev.kind = kindOf(e.cat);
        ev.correlation = e.correlation;
        switch (ph) {
        case 'X': {
            ev.durNs = dur < 0 ? 0 : dur;
            if (ev.kind == EventKind::Kernel) {
                ++m_result->kernelCount;
                KernelInfo k = e.kernel;
                if (const auto nccl = parseNcclKernelName(e.name)) {
                    ++m_result->commKernelCount;
                    ev.kind = EventKind::CommKernel;
                    k.collective = s.strings().intern(nccl->collective);
                    k.algorithm = s.strings().intern(nccl->algorithm);
                    k.protocol = s.strings().intern(nccl->protocol);
                }
                if (e.hasKernelArgs || ev.kind == EventKind::CommKernel)
                    ev.kernel = s.addKernel(k);
            }
            s.addEvent(ev);
            s.noteTime(ts, ts + ev.durNs);
            return;
        }
        case 'B': {
            ev.flags = StoredEvent::kUnclosed;
            if (m_open.size() <= track)
                m_open.resize(track + 1);
            m_open[track].push_back(s.addEvent(ev));
            s.noteTime(ts, ts);
            return;
        }
        case 'E': {
            s.noteTime(ts, ts);
            if (track >= m_open.size() || m_open[track].empty()) {
                ++m_result->unmatchedEnds;
                return;
            }
            StoredEvent& begin = s.eventAt(m_open[track].back());
            m_open[track].pop_back();
            begin.durNs = ts > begin.startNs ? ts - begin.startNs : 0;
            begin.flags = 0;
            return;
        }
        case 'i':
        case 'I':
        case 'R':
            ev.phase = 'i';
            s.addEvent(ev);
            s.noteTime(ts, ts);
            return;
        case 'C':
            s.noteTime(ts, ts);
            for (const auto& [key, value] : e.numbers) {
                // Instance counters (same name, different "id") are separate series.
                std::string series = e.name;
                if (e.hasId) {
                    series += '[';
                    series += e.id;
                    series += ']';
                }
                series += '.';
                series += key;
                s.addCounter({ts, track, s.strings().intern(series), value});
            }
            return;
        case 's':
        case 't':
        case 'f':
            s.noteTime(ts, ts);
            if (!e.hasId) {
                ++m_result->skippedEvents;
                return;
            }
            {
                FlowPoint point{ts, 0, false, track, ph, ph == 'f' && e.bp == "e"};
                const std::string_view idText = e.id;
                const auto [end, ec] =
                    std::from_chars(idText.data(), idText.data() + idText.size(), point.id);
                if (idText.empty() || ec != std::errc() || end != idText.data() + idText.size()) {
                    point.id = s.strings().intern(idText);
                    point.textId = true;
                }
                s.addFlowPoint(point);
                return;
            }
        case 'b':
        case 'S':
            s.noteTime(ts, ts);
            ev.phase = 'b';
            ev.flags = StoredEvent::kUnclosed;
            m_async[asyncKey(ph)].push_back(s.addEvent(ev));
            return;
        case 'e':
        case 'F': {
            s.noteTime(ts, ts);
            auto it = m_async.find(asyncKey(ph == 'e' ? 'b' : 'S'));
            if (it == m_async.end() || it->second.empty()) {
                ++m_result->unmatchedAsync;
                return;
            }
            // Nested async slices close by name: an 'e' ends the innermost open 'b' with
            // its name (or the innermost one when the 'e' has no name), not just any.
            auto& open = it->second;
            auto match = open.end() - 1;
            if (!e.name.empty()) {
                const std::uint32_t name = s.strings().intern(e.name);
                while (match != open.begin() && s.eventAt(*match).name != name)
                    --match;
                if (s.eventAt(*match).name != name) {
                    ++m_result->unmatchedAsync;
                    return;
                }
            }
            StoredEvent& begin = s.eventAt(*match);
            open.erase(match);
            begin.durNs = ts > begin.startNs ? ts - begin.startNs : 0;
            begin.flags = 0;
            return;
        }
        case 'n':
            ev.phase = 'n';
            s.addEvent(ev);
            s.noteTime(ts, ts);
            return;
        default:
            // P (samples), O/N/D (objects), T (async steps), ...: counted, not drawn.
            s.noteTime(ts, ts);
            ++m_result->skippedEvents;
            return;
        }
    }

    // Async slices pair by category and id (nestable ones by a stack per pair).
    std::string asyncKey(char begin) const {
        std::string key(1, begin);
        key += m_event.cat;
        key += '\x1f';
        key += m_event.id;
        return key;
    }

    void storeMetadata() {
        RawEvent& e = m_event;
        TraceStore& s = m_result->store;
        if (e.name == "process_name" || e.name == "process_labels" ||
            e.name == "process_sort_index") {
            TraceProcess& p = s.processAt(s.process(e.pid));
            if (e.name == "process_name")
                p.name = e.argName;
            else if (e.name == "process_labels")
                p.labels = e.argLabels;
            else if (const auto v = sortIndex()) {
                p.sortIndex = *v;
                p.hasSortIndex = true;
            }
        } else if (e.name == "thread_name" || e.name == "thread_sort_index") {
            TraceTrack& t = s.trackAt(s.track(e.pid, e.tid));
            if (e.name == "thread_name") {
                t.name = e.argName;
            } else if (const auto v = sortIndex()) {
                t.sortIndex = *v;
                t.hasSortIndex = true;
            }
        }
    }

    std::optional<std::int64_t> sortIndex() const {
        for (const auto& [key, value] : m_event.numbers)
            if (key == "sort_index")
                return static_cast<std::int64_t>(value);
        return std::nullopt;
    }

    void finish() {
        ChromeTraceResult& r = *m_result;
        TraceStore& s = r.store;
        // Slices still open at the end are drawn to the end of the trace and reported.
        for (const auto& stack : m_open) {
            for (const std::uint32_t i : stack) {
                StoredEvent& ev = s.eventAt(i);
                ev.durNs = s.maxNs() > ev.startNs ? s.maxNs() - ev.startNs : 0;
                ++r.unclosedSlices;
            }
        }
        for (const auto& [key, stack] : m_async)
            r.unmatchedAsync += stack.size();
        s.finish();
        r.countUnanalysedDeviceEvents();
        r.format = m_kineto ? "kineto" : "chrome";
        if (m_distRank) {
            r.rank = m_distRank;
            r.rankSource = "distributedInfo";
        }
    }

    JsonPullReader m_reader;
    std::unique_ptr<ChromeTraceResult> m_result;
    RawEvent m_event;
    bool m_kineto = false;
    std::optional<long> m_distRank;
    std::vector<std::vector<std::uint32_t>> m_open; // per track: B events awaiting their E
    std::unordered_map<std::string, std::vector<std::uint32_t>> m_async;
};

double probeTrace(std::string_view head, const std::string& /*path*/) {
    std::size_t i = 0;
    if (head.substr(0, 3) == "\xEF\xBB\xBF")
        i = 3;
    auto skipSpace = [&] {
        while (i < head.size() &&
               (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
            ++i;
    };
    skipSpace();
    if (i >= head.size())
        return 0.0;
    const bool hasPh = head.find("\"ph\"") != std::string_view::npos;
    if (head[i] == '{') {
        if (head.find("\"traceEvents\"") != std::string_view::npos)
            return 0.95;
        if (head.find("\"schemaVersion\"") != std::string_view::npos)
            return 0.6;
        // A PyTorch execution trace: the parse names it and points to the profiler trace.
        if (head.find("\"nodes\"") != std::string_view::npos &&
            head.find("\"schema\"") != std::string_view::npos)
            return 0.5;
        return hasPh ? 0.5 : 0.1;
    }
    if (head[i] == '[') {
        ++i;
        skipSpace();
        if (i < head.size() && head[i] == '{')
            return hasPh ? 0.9 : 0.3;
        if (i < head.size() && head[i] == ']')
            return 0.3;
    }
    return 0.0;
}

std::variant<std::unique_ptr<ImportResult>, ImportError> parseTrace(ByteSource& source,
                                                                    const ImportControl& control) {
    ImportError error;
    error.path = source.path();
    try {
        ChromeTraceParser parser(source, control);
        std::unique_ptr<ChromeTraceResult> result = parser.run();
        if (!result->rank) {
            if (const auto r = rankFromPath(source.path())) {
                result->rank = r;
                result->rankSource = "file name";
            }
        }
        result->path = source.path();
        return std::unique_ptr<ImportResult>(std::move(result));
    } catch (const JsonSyntaxError& e) {
        error.message = e.what();
        error.byteOffset = e.byteOffset;
    } catch (const SourceFailure& e) {
        error = e.error;
    } catch (const std::bad_alloc&) {
        error.message = "out of memory";
    }
    return error;
}

} // namespace

Importer chromeTraceImporter() {
    return Importer{"kineto", probeTrace, parseTrace};
}

} // namespace wb
