// CUDA-free half of the runner; see gpu_runner.h.
#include "cuda/gpu_runner.h"

#include "device/no_gpu_cause.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace wb {

bool isNoGpuError(int code) {
    const NoGpuCause cause = classifyCudaError(code);
    return cause == NoGpuCause::NoDevice || cause == NoGpuCause::DriverMissingOrOld;
}

RunError cudaRunError(int code, const std::string& name, const std::string& text,
                      const std::string& what) {
    const std::string t = text.empty() ? std::string("unknown CUDA error") : text;
    if (isNoGpuError(code))
        return RunError{"no GPU: " + t + " (" + std::to_string(code) + ")"};
    const std::string n = name.empty() ? std::string("unknown") : name;
    return RunError{what + ": " + t + " (" + n + " = " + std::to_string(code) + ")"};
}

bool isNoGpuMessage(const std::string& message) {
    return message.rfind("no GPU: ", 0) == 0;
}

std::optional<RunError> checkAllocationFits(std::size_t requestedBytes, std::size_t freeBytes,
                                            const std::string& what) {
    constexpr std::size_t kMinHeadroom = std::size_t{64} << 20;
    const std::size_t headroom = std::max(kMinHeadroom, freeBytes / 10);
    const std::size_t usable = freeBytes > headroom ? freeBytes - headroom : 0;
    if (requestedBytes <= usable)
        return std::nullopt;
    return RunError{what + ": needs " + std::to_string(requestedBytes) + " bytes but only " +
                    std::to_string(usable) + " of " + std::to_string(freeBytes) +
                    " free bytes may be used (headroom " + std::to_string(headroom) + ")"};
}

double meanMs(const std::vector<float>& samplesMs) {
    if (samplesMs.empty())
        return 0.0;
    double sum = 0.0;
    for (float s : samplesMs)
        sum += static_cast<double>(s);
    return sum / static_cast<double>(samplesMs.size());
}

double gigabytesPerSecond(double bytes, double ms) {
    if (ms <= 0.0)
        return 0.0;
    return bytes / (ms * 1e-3) / 1e9;
}

int clampRepetitions(int requested) {
    return std::clamp(requested, 1, kMaxRepetitions);
}

long clampIterations(long requested) {
    return std::clamp(requested, 1L, kMaxKernelIterations);
}

} // namespace wb
