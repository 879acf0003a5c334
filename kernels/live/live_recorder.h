#pragma once
// Records live traces on this machine's GPU, one scenario at a time. Qt-free and compiled in
// every build: without CUDA, or without a device, recordScenario() answers RunError
// "no GPU: <reason>" and never substitutes a modeled trace. The Qt app's `warpboard record`
// and the plain `warpboard-record` executable both call this API.
#include "cuda/gpu_runner.h"
#include "trace/trace.h"

#include <string>
#include <variant>
#include <vector>

namespace wb {

struct RecordOptions {
    int device = 0;
    // Stored in provenance.command; the caller passes its command line.
    std::string command;
    // Empty: the recorder asks the system for the host name.
    std::string host;
    // Smaller problem sizes and fewer repetitions (tests, quick looks); same schema.
    bool quick = false;
};

// silicon-mapping, warp-divergence, memory-hierarchy, coalescing-transpose, occupancy,
// roofline — in that order.
std::vector<std::string> recordableScenarios();

// "silicon-mapping, warp-divergence, ...", for usage and error messages.
std::string recordableScenarioList();

// Measures one scenario. Errors: unknown id (names the allowed ones), "no GPU: ..." (also
// always in builds without CUDA), or the failing CUDA call's message.
std::variant<Trace, RunError> recordScenario(const std::string& id, const RecordOptions& options);

// The current UTC time as ISO 8601 ("2026-12-02T15:04:05Z").
std::string utcNowIso8601();

} // namespace wb
