#include "cli/ranked_traces.h"

#include "engine/imported_set.h"
#include "import/chrome_trace_result.h"

#include <algorithm>
#include <numeric>

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
    std::vector<std::size_t> order(traces.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return *traces[a]->rank < *traces[b]->rank;
    });
    RankedTraces out;
    for (const std::size_t i : order) {
        out.traces.push_back(traces[i]);
        out.resultIndex.push_back(index[i]);
        out.worldSize = std::max(out.worldSize, traces[i]->worldSize.value_or(0L));
    }
    return out;
}

} // namespace wb::cli
