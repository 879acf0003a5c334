// `warpboard-record` and `warpboard record`: one implementation of the recording command.
//   all|ID [--out DIR] [--quick] [--device N]
// Exit codes: 0 recorded, 2 usage error, 3 no GPU, 1 a run failed.
#include "live/record_command.h"

#include "command_line/option_value.h"
#include "live/live_recorder.h"
#include "trace/trace_json.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace wb {

namespace {

int printUsage(const std::string& program, const std::string& problem) {
    std::fprintf(stderr,
                 "%s: %s\n"
                 "usage: %s all|ID [--out DIR] [--quick] [--device N]\n"
                 "IDs: %s\n",
                 program.c_str(), problem.c_str(), program.c_str(),
                 recordableScenarioList().c_str());
    return 2;
}

} // namespace

int runRecordCommand(const std::string& program, const std::vector<std::string>& args) {
    auto usage = [&](const std::string& problem) { return printUsage(program, problem); };
    const auto argc = args.size();
    std::string which;
    std::string outDir = ".";
    RecordOptions options;
    std::string command = program;
    for (const auto& a : args)
        command += " " + a;
    options.command = command;
    for (std::size_t i = 0; i < argc; ++i) {
        const std::string arg = args[i];
        if (arg == "--out" || arg == "--device") {
            const auto next = optionValueAfter(args, i);
            if (!next)
                return usage(missingValueMessage(arg));
            const std::string value = *next;
            ++i;
            if (arg == "--out") {
                outDir = value;
            } else {
                try {
                    std::size_t used = 0;
                    options.device = std::stoi(value, &used);
                    if (used != value.size() || options.device < 0)
                        return usage("--device needs a number >= 0, got '" + value + "'");
                } catch (const std::exception&) {
                    return usage("--device needs a number >= 0, got '" + value + "'");
                }
            }
        } else if (arg == "--quick") {
            options.quick = true;
        } else if (arg == "-h" || arg == "--help") {
            usage("records live GPU traces");
            return 0;
        } else if (!arg.empty() && arg[0] == '-') {
            return usage("unknown option '" + arg + "'");
        } else if (which.empty()) {
            which = arg;
        } else {
            return usage("more than one scenario given ('" + which + "', '" + arg + "')");
        }
    }
    if (which.empty())
        return usage("no scenario given");
    std::vector<std::string> ids;
    if (which == "all") {
        ids = recordableScenarios();
    } else {
        const auto all = recordableScenarios();
        bool known = false;
        for (const auto& id : all)
            known = known || id == which;
        if (!known)
            return usage("unknown scenario '" + which + "'");
        ids.push_back(which);
    }
    std::error_code ec;
    std::filesystem::create_directories(outDir, ec);
    if (ec) {
        std::fprintf(stderr, "%s: cannot create %s: %s\n", program.c_str(), outDir.c_str(),
                     ec.message().c_str());
        return 1;
    }
    int failures = 0;
    for (const auto& id : ids) {
        auto result = recordScenario(id, options);
        if (const auto* e = std::get_if<RunError>(&result)) {
            if (isNoGpuMessage(e->message)) {
                std::printf("%s: %s\n", id.c_str(), e->message.c_str());
                return 3;
            }
            std::printf("%s: FAILED: %s\n", id.c_str(), e->message.c_str());
            ++failures;
            continue;
        }
        const auto& trace = std::get<Trace>(result);
        const std::string path = (std::filesystem::path(outDir) / (id + ".json")).string();
        if (auto err = writeTraceFile(trace, path)) {
            std::printf("%s: FAILED to write: %s\n", id.c_str(), err->message.c_str());
            ++failures;
            continue;
        }
        std::printf("%s: %s (%zu events, %zu series) on %s\n", id.c_str(), path.c_str(),
                    trace.events.size(), trace.series.size(), trace.provenance.device.c_str());
    }
    return failures == 0 ? 0 : 1;
}

} // namespace wb
