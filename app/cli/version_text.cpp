// warpboard --version: what a bug report needs in one paste: the version, the Qt it runs on,
// whether CUDA is compiled in, and what the device query found, with the raw reason (CUDA's
// text and error code) when there is no GPU. No QApplication: qVersion() needs none.
#include "cli/commands.h"
#include "device/device_query.h"

#include <QtGlobal>

namespace wb::cli {

std::string versionText() {
    // Appended piece by piece: GCC 12 at -O3 warns falsely on `"literal" + std::string`.
    std::string out("warpboard ");
    out.append(WARPBOARD_VERSION).append("\n");
    out.append("Qt: ").append(qVersion()).append(" (built with " QT_VERSION_STR ")\n");
    if (cudaCompiledIn())
        out.append("CUDA: compiled in (CUDA ")
            .append(formatCudaVersion(cudaBuiltVersion()))
            .append(")\n");
    else
        out.append("CUDA: not compiled in\n");
    const DeviceQuery q = queryDevices();
    out.append("GPU: ").append(q.statusLine()).append("\n");
    out.append("GPU query: ").append(q.diagnostics()).append("\n");
    return out;
}

} // namespace wb::cli
