// warpboard: the app and its command line in one binary. calc and --list run without any
// Qt application object; export and the GUI create one (offscreen when headless).
#include "cli/analyze_compare.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "gui_launcher.h"
#include "live/record_command.h"

#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace wb::cli;
    const std::vector<std::string> words(argv + 1, argv + argc);
    const std::vector<std::string> rest(words.empty() ? words.end() : words.begin() + 1,
                                        words.end());
    auto has = [&](const char* w) {
        return std::find(words.begin(), words.end(), w) != words.end();
    };
    try {
        if (words.size() > 1 && words.front() == "analyze" && has("--compare"))
            return runAnalyzeCompare(rest);
        if (!words.empty() && words.front() == "calc")
            return runCalc(rest);
        if (!words.empty() && words.front() == "export")
            return runExport(rest, argc, argv);
        if (!words.empty() && words.front() == "lint")
            return runLint(rest, argc, argv);
        if (!words.empty() && words.front() == "import") // no display, no Qt needed
            return runImport(rest);
        if (!words.empty() && words.front() == "analyze") // no display, no Qt needed
            return runAnalyze(rest);
        if (!words.empty() && words.front() == "record") // no display, no Qt needed
            return wb::runRecordCommand("warpboard record", rest);
        if (has("--help") || has("-h")) {
            std::cout << usageText();
            return 0;
        }
        if (has("--version")) {
            std::cout << versionText();
            return 0;
        }
        if (has("--list"))
            return runList(words);
        return wb::runGui(words, argc, argv);
    } catch (const CliError& e) {
        std::cerr << "warpboard: " << e.what() << "\n(run 'warpboard --help' for usage)\n";
        return kUsageExitCode;
    } catch (const std::exception& e) {
        std::cerr << "warpboard: internal error: " << e.what() << "\n";
        return 1;
    }
}
