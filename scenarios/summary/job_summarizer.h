#pragma once
// warpboard-summarize's work, on every process of a ProcessGroup (process_group.h):
//   1. the root expands the paths by the one folder rule (input_files.h), and shares the
//      files out balanced by size (largest first, each to the least loaded process);
//   2. each process reads its files one at a time (rank_summary.h) and reduces the shortest
//      NCCL calls of its own ranks; the root merges those partial reductions (an associative
//      merge, step_breakdown.h JobShortestCalls) and sends the job's back;
//   3. each process turns its ranks' measurements into figures and sends only those;
//   4. the root numbers the ranks (orderRanks, imported_set.h, as `import` does), runs the
//      cross-rank analyses (triageVerdict, stragglerCandidates) and writes the summary to a
//      temporary name, renamed at the end, so a failed job leaves nothing half-written.
// With one process the same steps run with the messages passed by hand.
#include "summary/job_summary.h"
#include "summary/process_group.h"

#include <ostream>
#include <string>
#include <vector>

namespace wb {

struct SummarizeRequest {
    std::vector<std::string> inputs; // files and folders
    std::string out;                 // the summary's path
    std::string toolVersion;
};

// The summary of the files `request` names; on the root the whole summary, elsewhere an empty
// one. Throws ProcessGroupError when the processes cannot finish together.
JobSummary summarizeJob(const SummarizeRequest& request, ProcessGroup& group);

// summarizeJob, then the root writes request.out and reports failed files on `log`. The exit
// code: 0, or 2 when any path or file failed (the rest is summarised), or when writing failed.
int runSummarizeJob(const SummarizeRequest& request, ProcessGroup& group, std::ostream& log);

// Share of files among `processes`, balanced by size: the reader of each file.
std::vector<int> balanceFiles(const std::vector<std::uint64_t>& bytes, int processes);

} // namespace wb
