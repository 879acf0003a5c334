#pragma once
// The user's own files, as the lesson scenarios see them. The app imports files (on a worker
// thread), adds the results to the ImportedSet in its ScenarioInputs on the GUI thread and
// rebuilds the open story; a scenario's build() reads what it can draw from the inputs it is
// given: Nsight Compute kernels (roofline, occupancy), nccl-tests rows (ring all-reduce,
// measured vs model), NCCL rings and trees, Kineto traces (one per rank: the timeline and
// the slowdown triage) and PyTorch watchdog timeouts (the silent hang).
#include "engine/story.h"
#include "import/chrome_trace_result.h"
#include "import/nccl_log_importer.h"
#include "import/nccl_tests_importer.h"
#include "import/ncu_csv_importer.h"
#include "import/watchdog_log_importer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct ImportedTrace {
    std::shared_ptr<const ChromeTraceResult> result;
    long rank = 0; // distributedInfo, the file name, or the order given (see rankSource)
};

struct ImportedSet {
    std::vector<ImportedTrace> traces; // sorted by rank
    std::vector<std::shared_ptr<const NcuCsvResult>> ncu;
    std::vector<std::shared_ptr<const NcclTestsResult>> ncclTests;
    // NCCL logs on their own and the logs inside nccl-tests output, with the file they came from.
    struct Log {
        std::shared_ptr<const NcclLogData> data;
        std::string path;
    };
    std::vector<Log> ncclLogs;
    // PyTorch watchdog timeouts (silent-hang); their NCCL lines are in ncclLogs too.
    std::vector<std::shared_ptr<const WatchdogResult>> watchdogs;

    bool empty() const {
        return traces.empty() && ncu.empty() && ncclTests.empty() && ncclLogs.empty() &&
               watchdogs.empty();
    }
    // Adds the files the user opened together: traces in the batch replace the traces held
    // (the ranks of one job come together), and a file imported again replaces its earlier
    // import. Ranks are numbered as numberRanks() says.
    void addBatch(const std::vector<std::shared_ptr<const ImportResult>>& batch);
    // Every file held, once each.
    std::vector<std::string> paths() const;
};

// Rank numbers for traces whose own rank (distributedInfo or the file name) is `given[i]`:
// a given rank is kept; the others take the lowest ranks nobody gave, in order.
std::vector<long> numberRanks(const std::vector<std::optional<long>>& given);

// Ranks for a set of trace results: distributedInfo or the file name wins; the others take
// the lowest free ranks in the order given (and get rankSource "order given"). Shared by the
// import command and the GUI so both number ranks alike.
void assignRanks(const std::vector<ChromeTraceResult*>& traces);

// The order that lists traces numbered `ranks` by rank, ties in the order given: how
// `import --summary`, `analyze` and warpboard-summarize walk the ranks of one job.
std::vector<std::size_t> rankOrder(const std::vector<long>& ranks);

// The lessons that draw a file of `format` ("kineto", "ncu-csv", ...), most fitting first.
std::vector<std::string> lessonsForFormat(const std::string& format);
// The first step of `story` about the user's data (its title starts with "Your"), or -1.
int firstImportedStep(const Story& story);

// What a story adds to its provenance when steps draw the user's files: "; Your … steps:
// IMPORTED from a.csv, b.txt" (file names only), or "" for no paths.
std::string importedNote(const std::vector<std::string>& paths);

} // namespace wb
