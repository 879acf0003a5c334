#pragma once
// The trace files of one import as the ranks of one job: numbered as the GUI numbers them
// (assignRanks: distributedInfo or file name first, then the lowest free rank) and put in
// rank order, with the job's size where a file says it. Shared by `import --summary` and
// `analyze`, so both name the same rank the same way.
#include "cli/commands.h"

#include <cstddef>
#include <vector>

namespace wb {
struct ChromeTraceResult;
}

namespace wb::cli {

struct RankedTraces {
    std::vector<ChromeTraceResult*> traces; // in rank order; each has a rank
    std::vector<std::size_t> resultIndex;   // each one's index into ImportOutcome::results
    long worldSize = 0;                     // the largest distributedInfo.world_size, else 0
};

RankedTraces rankTraces(const ImportOutcome& outcome);

} // namespace wb::cli
