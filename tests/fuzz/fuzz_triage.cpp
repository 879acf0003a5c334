// libFuzzer target for the slowdown triage on whatever the trace importer accepts: odd
// traces (no kernels, zero or huge durations, one collective kind on one rank only, nested
// and overlapping kernels) must give figures and a verdict, never a crash or a sanitizer
// report. The same store stands for two ranks, and a rank with an empty trace joins them.
#include "import/byte_source.h"
#include "import/chrome_trace_result.h"
#include "import/importers.h"
#include "triage/rank_analysis.h"
#include "triage/triage_verdict.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const wb::Importer importer = wb::chromeTraceImporter();
    auto source =
        wb::ByteSource::fromMemory(std::string(reinterpret_cast<const char*>(data), size));
    auto result = importer.parse(*source, {});
    auto* ok = std::get_if<std::unique_ptr<wb::ImportResult>>(&result);
    if (!ok)
        return 0;
    const auto* trace = dynamic_cast<const wb::ChromeTraceResult*>(ok->get());
    if (!trace)
        return 0;
    static wb::TraceStore empty = [] {
        wb::TraceStore s;
        s.finish();
        return s;
    }();
    const auto figures = wb::analyseRanks({{&trace->store, 0}, {&trace->store, 1}, {&empty, 2}});
    (void)wb::triageVerdict(figures);
    (void)wb::triageVerdict(wb::analyseRanks({{&trace->store, 0}}));
    return 0;
}
