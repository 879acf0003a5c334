#pragma once
// The compact, drawable form of a trace: fixed-size event records with interned strings and
// integer nanoseconds, tracks (one per pid/tid), kernel details, counters and flow links.
// After finish() the events of each track are sorted by start, with a running maximum of
// their ends, so a view finds what overlaps a time window by binary search.
#include "import/string_pool.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wb {

enum class EventKind : std::uint8_t {
    Other,
    Kernel,     // a compute kernel (cat kernel/Kernel)
    CommKernel, // an NCCL/RCCL kernel
    Memcpy,
    Memset,
    Runtime, // CUDA/HIP runtime and driver calls
    CpuOp,
    Annotation,
};

// One slice or instant; 40 bytes.
struct StoredEvent {
    std::int64_t startNs = 0;
    std::int64_t durNs = 0; // 0 for instants
    std::uint32_t name = 0;
    std::uint32_t category = 0;
    std::uint32_t track = 0;
    std::uint32_t kernel = kNoKernel; // index into TraceStore::kernels()
    char phase = 'X'; // X (also matched B/E), i (also I), b (matched async b/e, S/F), n
    EventKind kind = EventKind::Other;
    std::uint16_t flags = 0;
    // The CUDA/HIP correlation id (args.correlation) that ties a runtime call to the GPU work
    // it launched; 0 when the trace gives none or one that does not fit 32 bits. It sits in
    // what was padding, so the record stays 40 bytes.
    std::uint32_t correlation = 0;

    static constexpr std::uint32_t kNoKernel = 0xffffffffu;
    static constexpr std::uint16_t kUnclosed = 1; // B without E: drawn to the trace end
    std::int64_t endNs() const { return startNs + durNs; }
    bool operator==(const StoredEvent&) const = default;
};
static_assert(sizeof(StoredEvent) == 40, "a trace holds millions of events: keep them small");

// Launch details of a kernel where the trace has them (-1 / NaN-free 0 when absent).
struct KernelInfo {
    std::uint32_t event = 0; // index into events()
    std::int32_t grid[3] = {-1, -1, -1};
    std::int32_t block[3] = {-1, -1, -1};
    std::int32_t registersPerThread = -1;
    std::int32_t sharedMemory = -1; // bytes
    float occupancyPct = -1.0f;     // est. achieved (theoretical in 2021 traces)
    float blocksPerSm = -1.0f;
    float warpsPerSm = -1.0f;
    std::uint32_t collective = 0; // interned; 0 = not a collective
    std::uint32_t algorithm = 0;
    std::uint32_t protocol = 0;
    bool operator==(const KernelInfo&) const = default;
};

struct TraceProcess {
    std::string pid; // numbers kept as their text: pids may be strings ("Spans")
    std::string name;
    std::string labels;
    std::int64_t sortIndex = 0;
    bool hasSortIndex = false;
    bool operator==(const TraceProcess&) const = default;
};

struct TraceTrack {
    std::uint32_t process = 0;
    std::string tid;
    std::string name;
    std::int64_t sortIndex = 0;
    bool hasSortIndex = false;
    std::uint32_t begin = 0, end = 0; // events()[begin, end) after finish()
    bool operator==(const TraceTrack&) const = default;
};

struct CounterSample {
    std::int64_t tsNs = 0;
    std::uint32_t track = 0;
    std::uint32_t series = 0; // interned "name.key"
    double value = 0.0;
    bool operator==(const CounterSample&) const = default;
};

struct FlowPoint {
    std::int64_t tsNs = 0;
    // The flow id: its value when the id is a decimal integer (Kineto's correlation ids, up
    // to 2^64 − 1), else the interned id text with textId set. Only equality matters (points
    // are grouped by sorting), and numbers skip the string pool's hash map, which dominated
    // import time on large traces.
    std::uint64_t id = 0;
    bool textId = false;
    std::uint32_t track = 0;
    char phase = 's';      // s, t or f
    bool bindNext = false; // f with bp "e": binds to the enclosing slice
    bool operator==(const FlowPoint&) const = default;
};

struct FlowLink {
    std::uint32_t from = 0, to = 0; // indexes into flowPoints()
    bool operator==(const FlowLink&) const = default;
};

class TraceStore {
public:
    StringPool& strings() { return m_strings; }
    const StringPool& strings() const { return m_strings; }

    std::uint32_t process(std::string_view pid);
    std::uint32_t track(std::string_view pid, std::string_view tid);
    TraceProcess& processAt(std::uint32_t i) { return m_processes[i]; }
    TraceTrack& trackAt(std::uint32_t i) { return m_tracks[i]; }

    std::uint32_t addEvent(const StoredEvent& e);
    std::uint32_t addKernel(const KernelInfo& k);
    void addCounter(const CounterSample& c) { m_counters.push_back(c); }
    void addFlowPoint(const FlowPoint& f) { m_flowPoints.push_back(f); }
    StoredEvent& eventAt(std::uint32_t i) { return m_events[i]; }

    // Sorts events per track, builds the end index and links flows. Call once, at the end.
    void finish();

    const std::vector<StoredEvent>& events() const { return m_events; }
    const std::vector<KernelInfo>& kernels() const { return m_kernels; }
    const std::vector<TraceProcess>& processes() const { return m_processes; }
    const std::vector<TraceTrack>& tracks() const { return m_tracks; }
    const std::vector<CounterSample>& counters() const { return m_counters; }
    const std::vector<FlowPoint>& flowPoints() const { return m_flowPoints; }
    const std::vector<FlowLink>& flowLinks() const { return m_flowLinks; }
    std::size_t danglingFlowPoints() const { return m_dangling; }

    // Events of `track` that overlap [t0, t1): indexes [first, last) into events(), where
    // some in the range may still end before t0 (check endNs()).
    std::pair<std::uint32_t, std::uint32_t> overlapping(std::uint32_t track, std::int64_t t0,
                                                        std::int64_t t1) const;

    std::int64_t minNs() const { return m_minNs; }
    std::int64_t maxNs() const { return m_maxNs; }
    // Extends the time span (events, counters, flows all count).
    void noteTime(std::int64_t startNs, std::int64_t endNs);
    bool hasTime() const { return m_minNs <= m_maxNs; }

    // Same content: two imports (or generations) of the same trace compare equal, so frames
    // that show them do too, whichever objects hold them.
    bool operator==(const TraceStore&) const = default;

private:
    StringPool m_strings;
    std::vector<StoredEvent> m_events;
    std::vector<std::int64_t> m_maxEndNs; // running max of ends within each track
    std::vector<KernelInfo> m_kernels;
    std::vector<TraceProcess> m_processes;
    std::vector<TraceTrack> m_tracks;
    std::vector<CounterSample> m_counters;
    std::vector<FlowPoint> m_flowPoints;
    std::vector<FlowLink> m_flowLinks;
    std::size_t m_dangling = 0;
    std::unordered_map<std::string, std::uint32_t> m_processIds;
    std::unordered_map<std::string, std::uint32_t> m_trackIds;
    std::int64_t m_minNs = std::numeric_limits<std::int64_t>::max();
    std::int64_t m_maxNs = std::numeric_limits<std::int64_t>::min();
};

} // namespace wb
