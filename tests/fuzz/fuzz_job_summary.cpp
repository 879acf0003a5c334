// libFuzzer target for the job summary reader (*.wbsum.json, summary/job_summary.h): any
// bytes give a JobSummary or a JobSummaryError, never another exception, a crash or a
// sanitizer report; what it reads writes back to JSON that reads again to the same summary.
#include "summary/job_summary.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    wb::JobSummary summary;
    try {
        summary = wb::parseJobSummary(text, "fuzz.wbsum.json");
    } catch (const wb::JobSummaryError&) {
        return 0;
    }
    // The reader takes finite numbers only, so the figures must come back equal. The
    // provenance is free-form (a number too large for a double reads as infinity and writes
    // as null), so it is left out of the comparison.
    wb::JobSummary again = wb::parseJobSummary(wb::jobSummaryJson(summary).dump(), "again");
    again.provenance = summary.provenance;
    if (!(again == summary))
        std::abort();
    return 0;
}
