#include "analysis/trace_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

namespace wb {

namespace {

struct CmpSums {
    std::int64_t count = 0;
    std::int64_t ns = 0;
};

// Per name, over every file of one side: kernels and operators.
struct CmpSideSums {
    std::map<std::string, CmpSums> kernels;
    std::map<std::string, CmpSums> operators;
};

CmpSideSums cmpSumSide(const std::vector<CompareInput>& inputs) {
    CmpSideSums side;
    for (const auto& input : inputs) {
        const TraceStore& store = *input.store;
        // Summed by interned id first: one string lookup per distinct name, not per event.
        std::vector<CmpSums> byId(store.strings().size());
        std::vector<char> isKernel(store.strings().size(), 0);
        std::vector<char> isOperator(store.strings().size(), 0);
        for (const StoredEvent& e : store.events()) {
            const bool kernel = e.kind == EventKind::Kernel || e.kind == EventKind::CommKernel;
            if (!kernel && e.kind != EventKind::CpuOp)
                continue;
            // The store keeps one record per event whatever its phase; only slices have a
            // duration worth comparing, and kernels and ops are slices (ph X); an unclosed one's
            // duration is made up (drawn to the trace end).
            if (e.phase != 'X' || (e.flags & StoredEvent::kUnclosed))
                continue;
            ++byId[e.name].count;
            byId[e.name].ns += e.durNs;
            (kernel ? isKernel : isOperator)[e.name] = 1;
        }
        for (std::uint32_t id = 0; id < byId.size(); ++id) {
            if (byId[id].count == 0)
                continue;
            // A name used both as a kernel and as an op (never seen in practice) counts as a
            // kernel: the GPU's time is what the comparison is about.
            auto& table = isKernel[id] ? side.kernels : side.operators;
            CmpSums& sums = table[std::string(store.strings().text(id))];
            sums.count += byId[id].count;
            sums.ns += byId[id].ns;
        }
    }
    return side;
}

// A side's figure as the comparison shows it: the sum, or its per-rank average.
double cmpCount(std::int64_t count, int ranks, bool average) {
    return average ? static_cast<double>(count) / ranks : static_cast<double>(count);
}

std::int64_t cmpNs(std::int64_t ns, int ranks, bool average) {
    return average ? std::llround(static_cast<double>(ns) / ranks) : ns;
}

CompareTable cmpTable(const std::map<std::string, CmpSums>& before,
                      const std::map<std::string, CmpSums>& after, int beforeRanks, int afterRanks,
                      bool average) {
    CompareTable table;
    std::map<std::string, CompareItem> items;
    for (const auto& [name, s] : before) {
        CompareItem& item = items[name];
        item.beforeCount = cmpCount(s.count, beforeRanks, average);
        item.beforeNs = cmpNs(s.ns, beforeRanks, average);
    }
    for (const auto& [name, s] : after) {
        CompareItem& item = items[name];
        item.afterCount = cmpCount(s.count, afterRanks, average);
        item.afterNs = cmpNs(s.ns, afterRanks, average);
    }
    for (auto& [name, item] : items) {
        item.name = name;
        table.beforeCount += item.beforeCount;
        table.afterCount += item.afterCount;
        table.beforeNs += item.beforeNs;
        table.afterNs += item.afterNs;
        if (!before.count(name)) {
            item.status = CompareStatus::Added;
            ++table.added;
        } else if (!after.count(name)) {
            item.status = CompareStatus::Removed;
            ++table.removed;
        } else if (item.beforeCount != item.afterCount || item.beforeNs != item.afterNs) {
            item.status = CompareStatus::Changed;
            ++table.changed;
        } else {
            ++table.unchanged;
            continue;
        }
        table.items.push_back(item);
    }
    std::stable_sort(
        table.items.begin(), table.items.end(), [](const CompareItem& a, const CompareItem& b) {
            const auto da = std::llabs(a.deltaNs()), db = std::llabs(b.deltaNs());
            if (da != db)
                return da > db;
            const double ca = std::fabs(a.deltaCount()), cb = std::fabs(b.deltaCount());
            if (ca != cb)
                return ca > cb;
            return a.name < b.name;
        });
    return table;
}

CompareSide cmpSide(const std::vector<CompareInput>& inputs) {
    CompareSide side;
    for (const auto& input : inputs) {
        if (!input.store)
            throw std::invalid_argument(
                std::string("compareTraces: '").append(input.path).append("' has no trace"));
        side.files.push_back(input.path);
    }
    side.ranks = static_cast<int>(inputs.size());
    if (side.ranks == 0)
        throw std::invalid_argument("compareTraces: a side without traces");
    return side;
}

} // namespace

const char* compareStatusName(CompareStatus status) {
    switch (status) {
    case CompareStatus::Added:
        return "added";
    case CompareStatus::Removed:
        return "removed";
    case CompareStatus::Changed:
        return "changed";
    case CompareStatus::Unchanged:
        break;
    }
    return "unchanged";
}

TraceComparison compareTraces(const std::vector<CompareInput>& before,
                              const std::vector<CompareInput>& after) {
    TraceComparison c;
    c.before = cmpSide(before);
    c.after = cmpSide(after);
    c.perRankAverage = c.before.ranks != c.after.ranks;
    const CmpSideSums b = cmpSumSide(before);
    const CmpSideSums a = cmpSumSide(after);
    c.kernels = cmpTable(b.kernels, a.kernels, c.before.ranks, c.after.ranks, c.perRankAverage);
    c.operators =
        cmpTable(b.operators, a.operators, c.before.ranks, c.after.ranks, c.perRankAverage);
    return c;
}

} // namespace wb
