#include "import/chrome_trace_result.h"

namespace wb {

nlohmann::ordered_json ChromeTraceResult::summary() const {
    nlohmann::ordered_json j;
    j["path"] = path;
    j["format"] = format;
    j["events"] = eventCount;
    j["kernels"] = kernelCount;
    j["comm_kernels"] = commKernelCount;
    j["ranks"] = 1; // one trace file holds one rank's view
    j["rank"] = rank ? nlohmann::ordered_json(*rank) : nlohmann::ordered_json();
    j["rank_source"] = rankSource;
    if (worldSize)
        j["world_size"] = *worldSize;
    if (store.hasTime())
        j["span_us"] = static_cast<double>(store.maxNs() - store.minNs()) / 1000.0;
    else
        j["span_us"] = nullptr;
    j["tracks"] = store.tracks().size();
    j["flows"] = store.flowLinks().size();
    j["dangling_flow_points"] = store.danglingFlowPoints();
    j["unclosed_slices"] = unclosedSlices;
    j["unmatched_ends"] = unmatchedEnds;
    j["unmatched_async"] = unmatchedAsync;
    j["skipped_events"] = skippedEvents;
    return j;
}

} // namespace wb
