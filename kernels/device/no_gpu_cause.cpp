#include "device/no_gpu_cause.h"

#include "device/device_query.h"

namespace wb {

NoGpuCause classifyCudaError(int code) {
    switch (code) {
    case kCudaErrorNoDevice:
        return NoGpuCause::NoDevice;
    case kCudaErrorStubLibrary:
    case kCudaErrorInsufficientDriver:
    case kCudaErrorCallRequiresNewerDriver:
    case kCudaErrorSystemDriverMismatch:
    case kCudaErrorCompatNotSupportedOnDevice:
        return NoGpuCause::DriverMissingOrOld;
    default:
        return NoGpuCause::Unusable;
    }
}

std::string noGpuSentence(NoGpuCause cause, int builtCudaVersion) {
    // Every case ends the same way: the lessons still work, from recordings or models.
    const std::string fallback = " — showing recorded or modeled data";
    switch (cause) {
    case NoGpuCause::NoDevice:
        return "No NVIDIA GPU found" + fallback;
    case NoGpuCause::DriverMissingOrOld:
        return (builtCudaVersion > 0 ? "NVIDIA driver missing or too old for CUDA " +
                                           formatCudaVersion(builtCudaVersion)
                                     : std::string("NVIDIA driver missing or too old for CUDA")) +
               fallback;
    case NoGpuCause::BuiltWithoutCuda:
        return "This build has no CUDA support" + fallback;
    case NoGpuCause::Unusable:
        break;
    }
    return "No usable NVIDIA GPU" + fallback;
}

} // namespace wb
