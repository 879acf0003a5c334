#pragma once
// `warpboard analyze --compare BEFORE AFTER`: what changed between two runs of one job, per
// kernel and per CPU operator, in the way HTA's trace diff answers "which ops got slower".
//
// Definitions (the report states them too):
// - Items. A kernel is a GPU event the importer classed as a kernel, compute or NCCL
//   (EventKind::Kernel, EventKind::CommKernel); an operator is a CPU op (cat cpu_op or
//   Operator: aten::mm, aten::linear, ...). Memcpys, memsets, runtime calls and annotations
//   are not compared.
// - Matching. Items match by the exact name the trace records: a kernel's full name with its
//   template arguments, an operator's name. Two kernels that differ only in a template
//   argument are two items (one removed, one added), because they are different code.
// - Figures. An item's count is the number of its events, its total the sum of their
//   durations. Operator totals are inclusive, as the profiler's own tables show them: a
//   nested op's time also counts in the op that called it (aten::linear includes its
//   aten::addmm), so the operators' table total counts nested time more than once: it compares
//   the two sides, it is not a wall time. Slices left open (B without E) are not counted.
// - Ranks. Each side is one or more trace files, one per rank. When both sides hold the same
//   number of ranks, figures are sums over all of them. When the rank counts differ, each
//   side's figures are per-rank averages (its sum ÷ its number of ranks; counts may then be
//   fractional, totals are rounded to the nanosecond), so a 4-rank run compares with an
//   8-rank run per GPU instead of by its size.
// - Status. added: absent before; removed: absent after; changed: count or total differs;
//   unchanged otherwise (counted, not listed).
// - Order. By impact, |Δ total| largest first; ties by |Δ count|, then by name.
#include "import/trace_store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

// One trace file of a side: its path and what the importer made of it.
struct CompareInput {
    std::string path;
    const TraceStore* store = nullptr;
};

enum class CompareStatus { Added, Removed, Changed, Unchanged };

// "added", "removed", "changed", "unchanged": the words of every output format.
const char* compareStatusName(CompareStatus status);

struct CompareItem {
    std::string name;
    CompareStatus status = CompareStatus::Unchanged;
    double beforeCount = 0.0; // events (a per-rank average when the rank counts differ)
    double afterCount = 0.0;
    std::int64_t beforeNs = 0; // total duration
    std::int64_t afterNs = 0;
    double deltaCount() const { return afterCount - beforeCount; }
    std::int64_t deltaNs() const { return afterNs - beforeNs; }
};

struct CompareTable {
    std::vector<CompareItem> items; // added, removed and changed, by impact
    int added = 0, removed = 0, changed = 0, unchanged = 0;
    // Over every item of the table, unchanged ones included.
    double beforeCount = 0.0, afterCount = 0.0;
    std::int64_t beforeNs = 0, afterNs = 0;
};

struct CompareSide {
    std::vector<std::string> files; // in the order given
    int ranks = 0;                  // one per file
};

struct TraceComparison {
    CompareSide before, after;
    bool perRankAverage = false; // the rank counts differ: figures are per-rank averages
    CompareTable kernels;
    CompareTable operators;
};

// Compares the two sides as defined above. Each side needs at least one input with a store.
TraceComparison compareTraces(const std::vector<CompareInput>& before,
                              const std::vector<CompareInput>& after);

} // namespace wb
