#include "engine/imported_set.h"

#include <algorithm>
#include <set>

namespace wb {

void assignRanks(const std::vector<ChromeTraceResult*>& traces) {
    std::set<long> taken;
    for (const auto* t : traces)
        if (t->rank)
            taken.insert(*t->rank);
    long next = 0;
    for (auto* t : traces) {
        if (t->rank)
            continue;
        while (taken.count(next))
            ++next;
        t->rank = next;
        t->rankSource = "order given";
        taken.insert(next);
    }
}

void ImportedSet::add(std::shared_ptr<const ImportResult> result) {
    if (!result)
        return;
    if (auto trace = std::dynamic_pointer_cast<const ChromeTraceResult>(result)) {
        std::set<long> taken;
        for (const auto& t : traces)
            taken.insert(t.rank);
        long rank = trace->rank.value_or(-1);
        if (rank < 0 || taken.count(rank)) {
            rank = 0;
            while (taken.count(rank))
                ++rank;
        }
        traces.push_back({trace, rank});
        std::stable_sort(
            traces.begin(), traces.end(),
            [](const ImportedTrace& a, const ImportedTrace& b) { return a.rank < b.rank; });
    } else if (auto n = std::dynamic_pointer_cast<const NcuCsvResult>(result)) {
        ncu.push_back(n);
    } else if (auto t = std::dynamic_pointer_cast<const NcclTestsResult>(result)) {
        ncclTests.push_back(t);
        if (t->log)
            ncclLogs.push_back({std::shared_ptr<const NcclLogData>(t, &*t->log), t->path});
    } else if (auto l = std::dynamic_pointer_cast<const NcclLogResult>(result)) {
        ncclLogs.push_back({std::shared_ptr<const NcclLogData>(l, &l->log), l->path});
    }
}

ImportedSet& importedSet() {
    static ImportedSet set;
    return set;
}

} // namespace wb
