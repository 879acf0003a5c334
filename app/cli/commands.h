#pragma once
// The command-line faces of the one binary. Each returns the process exit code; mistakes
// throw CliError (exit 2). calc and list need no display and create no QApplication.
#include "engine/imported_set.h"

#include <memory>
#include <string>
#include <vector>

namespace wb::cli {

int runCalc(const std::vector<std::string>& words); // warpboard calc MODEL ...
int runList(const std::vector<std::string>& words); // warpboard --list [--json]
// `imported`: files already imported (the GUI launcher without a display); --import adds to them.
int runExport(const std::vector<std::string>& words, int argc, char** argv,
              ImportedSet imported = {});
int runImport(const std::vector<std::string>& words); // warpboard import FILE... [--json]
// warpboard analyze FILE|FOLDER... [--json] [--csv DIR] [--range START_US END_US]
int runAnalyze(const std::vector<std::string>& words);
int runLint(const std::vector<std::string>& words, int argc, char** argv); // warpboard lint
std::string usageText();                                                   // warpboard --help
std::string versionText(); // warpboard --version: versions, CUDA, the device query's answer
std::string calcUsage(const std::string& model); // warpboard calc MODEL --help

} // namespace wb::cli

namespace wb {
class Scenario;
struct ImportResult;
} // namespace wb

namespace wb::cli {

// The scenario with this id, or CliError listing the ids.
const wb::Scenario& requireScenario(const std::string& id);

// Applies "--param k=v" pairs to a scenario's parameters; throws CliError.
struct ParamAssignment {
    std::string name;
    std::string value;
};
std::vector<ParamAssignment> parseParamAssignments(const std::vector<std::string>& values);

// What importing a list of paths gave: the files that read, in order (folders expanded to
// the profiler files inside them), and one line per path or file that did not, naming it
// and saying why ("FILE: byte N: ...", "cannot open 'FILE': no such file", "'FILE' is
// empty (0 bytes)", "no profiler files in 'DIR'"; a file cut mid-line is one of them).
struct ImportOutcome {
    std::vector<std::unique_ptr<wb::ImportResult>> results;
    std::vector<std::string> errors;
};
// Reads up to `workers` files at once (0: defaultImportWorkers()); the outcome is the same
// for any number of workers, in the order of the paths.
ImportOutcome importAll(const std::vector<std::string>& paths, unsigned workers = 0);
// One worker per core (std::thread::hardware_concurrency, at least 1).
unsigned defaultImportWorkers();
// Prints the outcome's errors on stderr, one a line; returns the exit code: 0 without errors,
// else kUsageExitCode (2).
int reportImportErrors(const ImportOutcome& outcome);

} // namespace wb::cli
