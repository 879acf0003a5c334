#pragma once
// GPU discovery. The implementation is chosen at build time (CUDA or fallback), but the
// answer is always a value: a machine without a GPU or driver is a normal state that the UI
// explains, not an error that aborts the program.
#include "device/device_info.h"

#include <string>
#include <vector>

namespace wb {

struct DeviceQuery {
    std::vector<DeviceInfo> devices;
    // Empty when a GPU was found; otherwise "no GPU: <reason>" ready to show as is.
    std::string noGpuReason;

    bool hasGpu() const { return !devices.empty(); }
    // One line per device joined by "; ", or noGpuReason when there is none.
    std::string summary() const;
};

// Enumerates CUDA devices. Never throws and never exits, whatever the driver state.
DeviceQuery queryDevices();

// True when this binary was built with WARPBOARD_CUDA=ON.
bool cudaCompiledIn();

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
