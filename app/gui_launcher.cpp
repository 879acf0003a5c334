#include "gui_launcher.h"

#include "cli/arguments.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/registry.h"
#include "engine/scenario_inputs.h"
#include "import/input_files.h"
#include "main_window.h"
#include "platform.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>
#include <iostream>

namespace wb {

using cli::CliError;

namespace {

// A plain word names files to open when it is a file or folder, or looks like a path (it
// has a '/' or a '.': "missing.json" is a missing file, not an unknown command).
bool namesAPath(const std::string& word) {
    return QFileInfo::exists(QString::fromStdString(word)) ||
           word.find_first_of("/.") != std::string::npos;
}

// No display and files given: import them here and render the lesson step that shows them
// (the first "Your …" step unless --step says otherwise) through `warpboard export`. Files
// that do not read are listed on stderr afterwards (exit 2), as `warpboard import` does.
int exportImported(const std::vector<std::string>& paths, const Scenario* scenario,
                   std::optional<int> step, int argc, char** argv) {
    cli::ImportOutcome outcome = cli::importAll(paths);
    if (outcome.results.empty())
        return cli::reportImportErrors(outcome);
    std::vector<std::shared_ptr<const ImportResult>> batch;
    for (auto& r : outcome.results)
        batch.push_back(std::move(r));
    if (!scenario) {
        for (const auto& r : batch)
            for (const auto& id : lessonsForFormat(r->format))
                if (!scenario)
                    scenario = findScenario(id);
        if (!scenario)
            scenario = &defaultScenario();
    }
    ScenarioInputs inputs;
    inputs.imported.addBatch(batch);
    if (!step)
        step = std::max(0, firstImportedStep(scenario->build(scenario->defaultParams(), inputs)));
    const std::string out =
        QDir::current()
            .absoluteFilePath(QString::fromStdString("warpboard-" + scenario->id() + "-step" +
                                                     std::to_string(*step + 1) + ".png"))
            .toStdString();
    std::cerr << "warpboard: no display found; rendering " << scenario->id() << " step "
              << *step + 1 << " with the imported files to a PNG instead\n";
    // Export draws from the imported files (and checks --step against the story with them).
    const int exported =
        cli::runExport({scenario->id(), "--step", std::to_string(*step + 1), "--out", out}, argc,
                       argv, std::move(inputs.imported));
    const int imported = cli::reportImportErrors(outcome);
    return exported != 0 ? exported : imported;
}

} // namespace

int runGui(const std::vector<std::string>& words, int argc, char** argv) {
    const cli::Arguments args(words, {"present", "first-frame-benchmark"});
    args.requireKnown({"scenario", "step", "present", "theme", "first-frame-benchmark"},
                      "warpboard");
    // Plain words are files or folders to open (profiler traces, CSVs, logs); any other
    // word is a mistake.
    std::vector<std::string> files;
    for (const auto& p : args.positionals()) {
        if (!namesAPath(p))
            throw CliError("unknown command or file '" + p +
                           "'; allowed: calc, export, import, record, --list, --help, GUI "
                           "options, or files and folders to open");
        files.push_back(p);
    }
    const Scenario* scenario = nullptr;
    if (auto id = args.value("scenario"))
        scenario = &cli::requireScenario(*id);
    int step = 0;
    std::optional<int> requestedStep;
    if (auto given = args.value("step"); given && !files.empty()) {
        // With files the story gains steps about them; the range is checked after import.
        const auto v = parseNumber(*given);
        if (!v || *v != int(*v) || *v < 1)
            throw CliError("--step '" + *given + "' must be a step number from 1");
        requestedStep = int(*v) - 1;
    } else if (auto s = args.value("step")) {
        const Scenario& sc = scenario ? *scenario : defaultScenario();
        const int count = static_cast<int>(sc.build(sc.defaultParams()).steps.size());
        const auto v = parseNumber(*s);
        if (!v || *v != int(*v) || *v < 1 || *v > count)
            throw CliError("--step '" + *s + "' is out of range; " + sc.id() + " has steps 1…" +
                           std::to_string(count));
        step = int(*v) - 1;
    }
    std::optional<bool> dark;
    if (auto th = args.value("theme")) {
        if (*th != "light" && *th != "dark")
            throw CliError("--theme '" + *th + "' is not allowed; allowed: light|dark");
        dark = *th == "dark";
    }

    if (!hasDisplay() && !args.flag("first-frame-benchmark")) {
        // No display: show what the app would open as a PNG.
        if (!files.empty())
            return exportImported(files, scenario, requestedStep, argc, argv);
        const Scenario& sc = scenario ? *scenario : defaultScenario();
        const std::string out =
            QDir::current()
                .absoluteFilePath(QString::fromStdString("warpboard-" + sc.id() + "-step" +
                                                         std::to_string(step + 1) + ".png"))
                .toStdString();
        std::cerr << "warpboard: no display found; rendering " << sc.id() << " step " << step + 1
                  << " to a PNG instead\n";
        return cli::runExport({sc.id(), "--step", std::to_string(step + 1), "--out", out}, argc,
                              argv);
    }

    if (!files.empty()) {
        // Nothing to open at all (missing paths, empty folders): say so here, in the words
        // `warpboard import` uses, rather than open a window that shows none of it. Otherwise
        // the window imports them and lists any that fail in one dialog.
        const InputFiles inputs = expandInputs(files);
        if (inputs.files.empty()) {
            cli::ImportOutcome nothing;
            for (const auto& problem : inputs.problems)
                nothing.errors.push_back(problem.describe());
            return cli::reportImportErrors(nothing);
        }
    }

    QElapsedTimer sinceStart;
    sinceStart.start();
    const auto application = startApplication(argc, argv);
    QApplication& app = *application;
    QApplication::setOrganizationName("Warpboard");
    QApplication::setApplicationName("Warpboard");
    QApplication::setApplicationVersion(WARPBOARD_VERSION);
    // Wayland shells find the window's icon and name through the installed desktop entry.
    QApplication::setDesktopFileName("warpboard");

    MainWindow window;
    window.openInitial(scenario, requestedStep.value_or(step), dark);
    if (args.flag("first-frame-benchmark")) {
        // Used by the startup benchmark: report when the first frame has been painted.
        QObject::connect(&window, &MainWindow::firstFramePainted, &app, [&] {
            std::cout << "first-frame-ms " << static_cast<double>(sinceStart.nsecsElapsed()) / 1e6
                      << std::endl;
            QTimer::singleShot(0, &app, &QApplication::quit);
        });
    }
    if (!files.empty()) {
        QStringList paths;
        for (const auto& f : files)
            paths << QString::fromStdString(f);
        window.importFiles(paths);
    } else {
        window.restoreTraces(); // the traces open when the window last closed, if any
    }
    if (args.flag("present"))
        window.setPresentation(true);
    else
        window.show();
    return QApplication::exec();
}

} // namespace wb
