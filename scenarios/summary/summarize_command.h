#pragma once
// warpboard-summarize's command line, Qt-free (summarize_main.cpp only picks the process
// group): `warpboard-summarize FILE|FOLDER... --out job.wbsum.json`. Every process parses the
// same words; only the root prints.
#include "summary/process_group.h"

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace wb {

extern const char* const kSummarizeUsage;

// The number of processes a launcher started (mpirun's OMPI_COMM_WORLD_SIZE, Slurm's or
// MPICH's PMI_SIZE), or nullopt when none did. `env` is getenv in the program.
std::optional<long> launcherWorldSize(const std::function<const char*(const char*)>& env);

// Exit codes: 0 done; 2 a usage mistake, a failed file or path (the rest is summarised), or a
// launcher that started several copies of a build that cannot talk to each other; 1 the
// summary could not be written.
struct SummarizeBuild {
    std::string version; // the project's, for --version and the provenance
    bool withMpi = false;
};
int runSummarizeCommand(const std::vector<std::string>& words, ProcessGroup& group,
                        const SummarizeBuild& build,
                        const std::function<const char*(const char*)>& env, std::ostream& out,
                        std::ostream& err);

} // namespace wb
