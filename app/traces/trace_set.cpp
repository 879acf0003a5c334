#include "traces/trace_set.h"

#include <algorithm>

namespace wb {

TraceSet TraceSet::fromImported(const ImportedSet& imported) {
    TraceSet set;
    set.traces = imported.traces;
    for (const ImportedTrace& t : set.traces)
        set.paths << QString::fromStdString(t.result->path);
    return set;
}

TraceSet TraceSet::fromBatch(const std::vector<std::shared_ptr<const ImportResult>>& batch) {
    std::vector<std::shared_ptr<const ImportResult>> traces;
    for (const auto& r : batch)
        if (dynamic_cast<const ChromeTraceResult*>(r.get()) != nullptr)
            traces.push_back(r);
    ImportedSet imported;
    imported.addBatch(traces);
    return fromImported(imported);
}

long TraceSet::worldSize() const {
    long size = 0;
    for (const ImportedTrace& t : traces)
        size = std::max(size, t.result->worldSize.value_or(0L));
    return size;
}

std::vector<RankInput> TraceSet::rankInputs() const {
    std::vector<RankInput> ranks;
    for (const ImportedTrace& t : traces)
        ranks.push_back({.store = &t.result->store, .rank = t.rank});
    return ranks;
}

std::vector<CompareInput> TraceSet::compareInputs() const {
    std::vector<CompareInput> inputs;
    for (const ImportedTrace& t : traces)
        inputs.push_back({.path = t.result->path, .store = &t.result->store});
    return inputs;
}

std::vector<TimelineLane> TraceSet::lanes(std::optional<long> straggler) const {
    std::vector<TimelineLane> out;
    for (const ImportedTrace& t : traces) {
        TimelineLane lane;
        // The store lives inside its result: share the result's ownership.
        lane.store = std::shared_ptr<const TraceStore>(t.result, &t.result->store);
        const bool slow = straggler && *straggler == t.rank;
        lane.label = std::string("rank ").append(std::to_string(t.rank));
        if (slow)
            lane.label.append(" (straggler)");
        lane.emphasis = slow;
        out.push_back(std::move(lane));
    }
    return out;
}

int TraceSet::laneOf(long rank) const {
    for (std::size_t i = 0; i < traces.size(); ++i)
        if (traces[i].rank == rank)
            return static_cast<int>(i);
    return -1;
}

} // namespace wb
