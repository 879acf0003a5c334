#include "platform.h"

#include <QApplication>
#include <QByteArray>
#include <QString>
#include <QtGlobal>

namespace wb {

namespace {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx"))) void zeroUpper() {
    __builtin_ia32_vzeroupper();
}
#endif
} // namespace

void clearVectorUpperState() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx"))
        zeroUpper();
#endif
}

bool hasDisplay() {
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") ||
           !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

void selectOffscreenIfHeadless() {
    if (!hasDisplay())
        qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
}

namespace {
QtMessageHandler g_previous = nullptr;
void filterNotices(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type == QtWarningMsg && message.contains(QLatin1String("propagateSizeHints")))
        return;
    if (g_previous)
        g_previous(type, context, message);
}
} // namespace

void quietOffscreenNotices() {
    if (!g_previous)
        g_previous = qInstallMessageHandler(filterNotices);
}

std::unique_ptr<QApplication> startApplication(int& argc, char** argv) {
    selectOffscreenIfHeadless();
    quietOffscreenNotices();
    auto app = std::make_unique<QApplication>(argc, argv);
    clearVectorUpperState();
    return app;
}

} // namespace wb
