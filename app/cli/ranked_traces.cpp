#include "cli/ranked_traces.h"

#include "engine/imported_set.h"
#include "import/chrome_trace_result.h"

#include <algorithm>

namespace wb::cli {

RankedTraces rankTraces(const ImportOutcome& outcome) {
    std::vector<ChromeTraceResult*> traces;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < outcome.results.size(); ++i)
        if (auto* trace = dynamic_cast<ChromeTraceResult*>(outcome.results[i].get())) {
            traces.push_back(trace);
            index.push_back(i);
        }
    assignRanks(traces);
    std::vector<long> ranks;
    for (const auto* t : traces)
        ranks.push_back(*t->rank);
    RankedTraces out;
    for (const std::size_t i : rankOrder(ranks)) {
        out.traces.push_back(traces[i]);
        out.resultIndex.push_back(index[i]);
        out.worldSize = std::max(out.worldSize, traces[i]->worldSize.value_or(0L));
    }
    return out;
}

} // namespace wb::cli
