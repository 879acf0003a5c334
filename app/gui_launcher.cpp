#include "gui_launcher.h"

#include "cli/arguments.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "engine/number_format.h"
#include "engine/registry.h"
#include "main_window.h"
#include "platform.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>
#include <iostream>

namespace wb {

using cli::CliError;

int runGui(const std::vector<std::string>& words, int argc, char** argv) {
    const cli::Arguments args(words, {"present", "first-frame-benchmark"});
    args.requireKnown({"scenario", "step", "present", "theme", "first-frame-benchmark"},
                      "warpboard");
    if (!args.positionals().empty())
        throw CliError("unknown command '" + args.positionals().front() +
                       "'; allowed: calc, export, --list, --help, or GUI options");
    const Scenario* scenario = nullptr;
    if (auto id = args.value("scenario"))
        scenario = &cli::requireScenario(*id);
    int step = 0;
    if (auto s = args.value("step")) {
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

    QElapsedTimer sinceStart;
    sinceStart.start();
    selectOffscreenIfHeadless();
    quietOffscreenNotices();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Warpboard");
    QApplication::setApplicationName("Warpboard");
    QApplication::setApplicationVersion(WARPBOARD_VERSION);

    MainWindow window;
    window.openInitial(scenario, step, dark);
    if (args.flag("first-frame-benchmark")) {
        // Used by the startup benchmark: report when the first frame has been painted.
        QObject::connect(&window, &MainWindow::firstFramePainted, &app, [&] {
            std::cout << "first-frame-ms " << static_cast<double>(sinceStart.nsecsElapsed()) / 1e6
                      << std::endl;
            QTimer::singleShot(0, &app, &QApplication::quit);
        });
    }
    if (args.flag("present"))
        window.setPresentation(true);
    else
        window.show();
    return QApplication::exec();
}

} // namespace wb
