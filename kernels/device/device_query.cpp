// Formatting shared by the CUDA and fallback builds, so both describe devices identically.
#include "device/device_query.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

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

std::string DeviceQuery::statusLine() const {
    return hasGpu() ? summary() : noGpuSentence(cause, cudaBuiltVersion());
}

std::string DeviceQuery::diagnostics() const {
    if (!hasGpu())
        return summary();
    std::string out;
    for (const auto& d : devices) {
        if (!out.empty())
            out += "; ";
        out += "device " + std::to_string(d.index) + ": " + d.summary() + " · driver " +
               (d.driverRelease.empty() ? std::string("release unknown") : d.driverRelease) +
               " (CUDA " + formatCudaVersion(d.driverVersion) + "), runtime CUDA " +
               formatCudaVersion(d.runtimeVersion);
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

std::string parseNvidiaDriverRelease(const std::string& versionFileText) {
    const auto module = versionFileText.find("Kernel Module");
    if (module == std::string::npos)
        return {};
    const auto lineEnd = versionFileText.find('\n', module);
    std::istringstream words(versionFileText.substr(module, lineEnd - module));
    std::string word;
    while (words >> word) {
        const bool dotted = std::isdigit(static_cast<unsigned char>(word.front())) &&
                            word.find('.') != std::string::npos &&
                            word.find_first_not_of("0123456789.") == std::string::npos;
        if (dotted)
            return word;
    }
    return {};
}

std::string nvidiaDriverRelease() {
    std::ifstream file("/proc/driver/nvidia/version");
    if (!file)
        return {};
    std::ostringstream text;
    text << file.rdbuf();
    return parseNvidiaDriverRelease(text.str());
}

} // namespace wb
