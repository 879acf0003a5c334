#pragma once
// Runs the warpboard binary as a user would on a server: no display at all (the program
// must choose offscreen itself), optionally in a working directory; returns the exit code
// and both outputs. Shared by the CLI test programs.
#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace wb::test {

struct CliResult {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

inline CliResult runWarpboard(const QStringList& args, bool headless = true,
                              const QString& workingDir = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (headless) {
        env.remove("QT_QPA_PLATFORM");
        env.remove("DISPLAY");
        env.remove("WAYLAND_DISPLAY");
    }
    p.setProcessEnvironment(env);
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.start(WARPBOARD_BIN, args);
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace wb::test
