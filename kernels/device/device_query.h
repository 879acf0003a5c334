#pragma once
// GPU discovery. The implementation is chosen at build time (CUDA or fallback), but the
// answer is always a value: a machine without a GPU or driver is a normal state that the UI
// explains, not an error that aborts the program.
#include "device/device_info.h"
#include "device/no_gpu_cause.h"

#include <string>
#include <vector>

namespace wb {

struct DeviceQuery {
    std::vector<DeviceInfo> devices;
    // Empty when a GPU was found; otherwise "no GPU: <reason>" with CUDA's own text and
    // code: for diagnostics (tooltips, `warpboard --version`, `warpboard record`).
    std::string noGpuReason;
    // What noGpuReason means, for people; only read when there is no device.
    NoGpuCause cause = NoGpuCause::NoDevice;

    bool hasGpu() const { return !devices.empty(); }
    // One line per device joined by "; ", or noGpuReason when there is none.
    std::string summary() const;
    // What the status line shows: the devices, or noGpuSentence(cause) for this build.
    std::string statusLine() const;
    // The details behind it, for a tooltip and `warpboard --version`: per device its driver
    // release and CUDA versions, or the raw noGpuReason (CUDA's text and code).
    std::string diagnostics() const;
};

// Enumerates CUDA devices. Never throws and never exits, whatever the driver state.
DeviceQuery queryDevices();

// True when this binary was built with WARPBOARD_CUDA=ON.
bool cudaCompiledIn();

// The CUDA version this binary was built against (CUDA's encoding, 13000 = 13.0); 0 without
// CUDA.
int cudaBuiltVersion();

// CUDA's integer version encoding (1000 * major + 10 * minor) as text: 12040 -> "12.4".
// Zero or negative (no driver) gives "none".
std::string formatCudaVersion(int version);

// The release in the text of /proc/driver/nvidia/version: the first dotted number after
// "Kernel Module" ("...Kernel Module  580.159.04  Thu..." -> "580.159.04"; the open modules'
// "Kernel Module for x86_64  580.65.06" too). Empty when there is none.
std::string parseNvidiaDriverRelease(const std::string& versionFileText);

// parseNvidiaDriverRelease of this machine's /proc/driver/nvidia/version; empty elsewhere.
std::string nvidiaDriverRelease();

// The common prefix of every noGpuReason, so callers and tests need not repeat it.
inline constexpr const char* kNoGpuPrefix = "no GPU: ";

} // namespace wb
