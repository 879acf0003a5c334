#pragma once
// What the Chrome/Kineto importer produces: the compact store plus the counts the summary
// and the diagnostics report.
#include "import/importer.h"
#include "import/trace_store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// Device-side events the analyses do not read (MTIA's, annotations in a trace without
// kernels, unknown categories on a device's rows), by category and device type.
struct UnanalysedDeviceEvents {
    std::string category;
    std::string deviceType; // "MTIA", "GPU", ... from the process label or the category
    std::uint64_t count = 0;
    bool operator==(const UnanalysedDeviceEvents&) const = default;
};

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

    std::vector<UnanalysedDeviceEvents> unanalysedDevice; // set by countUnanalysedDeviceEvents

    // Fills unanalysedDevice from the finished store and the kernel counts.
    void countUnanalysedDeviceEvents();
    // One sentence per entry of unanalysedDevice, for the summary and the GUI.
    std::vector<std::string> unanalysedNotes() const;

    nlohmann::ordered_json summary() const override;
};

} // namespace wb
