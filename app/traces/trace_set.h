#pragma once
// The trace files opened together as the ranks of one job: what the Traces workspace shows,
// analyses and compares. Ranked by the one rule (ImportedSet::addBatch → assignRanks), so the
// workspace, `warpboard import` and `warpboard analyze` name every rank alike.
#include "analysis/analysis_scope.h"
#include "analysis/trace_compare.h"
#include "engine/imported_set.h"
#include "frames/timeline_frame.h"

#include <QStringList>
#include <optional>
#include <vector>

namespace wb {

struct TraceSet {
    std::vector<ImportedTrace> traces; // in rank order
    QStringList paths;                 // the files, as Open recent reopens them

    // The traces of `imported` (already ranked), and their files.
    static TraceSet fromImported(const ImportedSet& imported);
    // The traces among `batch` (files read together), ranked as an import ranks them.
    static TraceSet fromBatch(const std::vector<std::shared_ptr<const ImportResult>>& batch);
    bool empty() const { return traces.empty(); }
    // The largest distributedInfo.world_size, else 0 (triageVerdict's "unknown").
    long worldSize() const;
    std::vector<RankInput> rankInputs() const;
    std::vector<CompareInput> compareInputs() const;
    // One lane per rank, "rank N", in rank order; `straggler` is labelled and emphasised.
    std::vector<TimelineLane> lanes(std::optional<long> straggler) const;
    // The lane of `rank`, or -1.
    int laneOf(long rank) const;
};

} // namespace wb
