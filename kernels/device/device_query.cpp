// Formatting shared by the CUDA and fallback builds, so both describe devices identically.
#include "device/device_query.h"

#include <array>
#include <cstdio>

namespace wb {

std::string DeviceInfo::computeCapability() const {
    return std::to_string(ccMajor) + "." + std::to_string(ccMinor);
}

std::string DeviceInfo::summary() const {
    std::array<char, 32> memory{};
    std::snprintf(memory.data(), memory.size(), "%.1f GB", memoryGB);
    return name + " · " + std::to_string(smCount) + " SMs · " + memory.data() + " · CC " +
           computeCapability();
}

std::string DeviceQuery::summary() const {
    if (devices.empty())
        return noGpuReason.empty() ? std::string(kNoGpuPrefix) + "unknown reason" : noGpuReason;
    std::string out;
    for (const auto& d : devices) {
        if (!out.empty())
            out += "; ";
        out += d.summary();
    }
    return out;
}

std::string formatCudaVersion(int version) {
    if (version <= 0)
        return "none";
    const int major = version / 1000;
    const int minor = (version % 1000) / 10;
    return std::to_string(major) + "." + std::to_string(minor);
}

} // namespace wb
