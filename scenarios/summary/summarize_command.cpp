#include "summary/summarize_command.h"

#include "command_line/option_value.h"
#include "summary/job_summarizer.h"

#include <charconv>

namespace wb {

const char* const kSummarizeUsage =
    "usage: warpboard-summarize FILE|FOLDER... --out JOB.wbsum.json\n"
    "       mpirun -n P warpboard-summarize FILE|FOLDER... --out JOB.wbsum.json\n"
    "A folder stands for the profiler files directly inside it. Each process reads a share of\n"
    "the rank traces (balanced by size); the first writes one summary the app opens.\n"
    "Exit 2 when a file or path failed (the rest is summarised), 1 when nothing was written.";

namespace {

constexpr int kSummarizeUsageExit = 2;

} // namespace

std::optional<long> launcherWorldSize(const std::function<const char*(const char*)>& env) {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
        const char* text = env(name);
        if (!text)
            continue;
        long value = 0;
        const std::string_view v(text);
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
        if (ec == std::errc() && end == v.data() + v.size() && value > 0)
            return value;
    }
    return std::nullopt;
}

int runSummarizeCommand(const std::vector<std::string>& words, ProcessGroup& group,
                        const SummarizeBuild& build,
                        const std::function<const char*(const char*)>& env, std::ostream& out,
                        std::ostream& err) {
    // Several copies that cannot talk would each write the same summary over one another.
    if (const auto launched = launcherWorldSize(env);
        launched && *launched > 1 && group.size() == 1) {
        if (group.isRoot())
            err << "warpboard-summarize: started as one of " << *launched << " processes, but "
                << (build.withMpi ? "MPI sees only this one (the launcher belongs to another MPI "
                                    "than the one this was built with)"
                                  : "built without MPI (install libopenmpi-dev and rebuild, or "
                                    "run it once, without a launcher)")
                << "\n";
        return kSummarizeUsageExit;
    }
    SummarizeRequest request;
    request.toolVersion = build.version;
    std::string mistake;
    for (std::size_t i = 0; i < words.size() && mistake.empty(); ++i) {
        const std::string& w = words[i];
        if (w == "--help" || w == "-h") {
            if (group.isRoot())
                out << kSummarizeUsage << "\n";
            return 0;
        }
        if (w == "--version") {
            if (group.isRoot())
                out << "warpboard-summarize " << build.version
                    << (build.withMpi ? " (MPI)" : " (without MPI)") << "\n";
            return 0;
        }
        if (w.rfind("--out=", 0) == 0) {
            request.out = w.substr(6);
        } else if (w == "--out") {
            const auto value = optionValueAfter(words, i);
            if (!value)
                mistake = missingValueMessage("--out");
            else
                request.out = *value;
            ++i;
        } else if (isOptionWord(w)) {
            mistake = "unknown option '" + w + "'";
        } else {
            request.inputs.push_back(w);
        }
    }
    if (mistake.empty() && request.inputs.empty())
        mistake = "no files or folders given";
    if (mistake.empty() && request.out.empty())
        mistake = "--out JOB.wbsum.json is required";
    if (!mistake.empty()) {
        if (group.isRoot())
            err << "warpboard-summarize: " << mistake << "\n" << kSummarizeUsage << "\n";
        return kSummarizeUsageExit;
    }
    return runSummarizeJob(request, group, err);
}

} // namespace wb
