#pragma once
// The command-line faces of the one binary. Each returns the process exit code; mistakes
// throw CliError (exit 2). calc and list need no display and create no QApplication.
#include <memory>
#include <string>
#include <vector>

namespace wb::cli {

int runCalc(const std::vector<std::string>& words); // warpboard calc MODEL ...
int runList(const std::vector<std::string>& words); // warpboard --list [--json]
int runExport(const std::vector<std::string>& words, int argc, char** argv);
int runImport(const std::vector<std::string>& words); // warpboard import FILE... [--json]
std::string usageText();                              // warpboard --help
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

// Imports every file, in order; the first that fails (or is cut mid-line) throws CliError
// with its path and position.
std::vector<std::unique_ptr<wb::ImportResult>> importAll(const std::vector<std::string>& files);

} // namespace wb::cli
