#pragma once
// What the Chrome/Kineto importer produces: the compact store plus the counts the summary
// and the diagnostics report.
#include "import/importer.h"
#include "import/trace_store.h"

#include <cstdint>
#include <optional>
#include <string>

namespace wb {

struct ChromeTraceResult final : ImportResult {
    TraceStore store;
    std::uint64_t eventCount = 0;      // objects in traceEvents (every phase)
    std::uint64_t kernelCount = 0;     // complete X events with cat kernel/Kernel
    std::uint64_t commKernelCount = 0; // ... of them NCCL/RCCL kernels
    std::uint64_t unclosedSlices = 0;  // B without E
    std::uint64_t unmatchedEnds = 0;   // E without B
    std::uint64_t unmatchedAsync = 0;  // b/S without e/F, or the reverse
    std::uint64_t skippedEvents = 0;   // phases not stored (P, O/N/D, ...) or without ts

    std::optional<long> rank; // distributedInfo.rank, else from the file name
    std::string rankSource;   // "distributedInfo", "file name", "order given"
    std::optional<long> worldSize;

    nlohmann::ordered_json summary() const override;
};

} // namespace wb
