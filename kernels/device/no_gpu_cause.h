#pragma once
// Why there is no GPU to use, as a cause and as the sentence the app shows for it. The raw
// CUDA text and code stay in DeviceQuery::noGpuReason (tooltips, `warpboard --version`); a
// person reads this. Included by .cu files, so it stays within C++17.
#include <string>

namespace wb {

// The CUDA runtime's codes that mean "no GPU here" rather than "a run failed" (cudaError
// values, stable across CUDA releases).
inline constexpr int kCudaErrorStubLibrary = 34;                 // libcuda is the toolkit's stub
inline constexpr int kCudaErrorInsufficientDriver = 35;          // driver older than the runtime
inline constexpr int kCudaErrorCallRequiresNewerDriver = 36;     // likewise, for one call
inline constexpr int kCudaErrorNoDevice = 100;                   // driver fine, no device
inline constexpr int kCudaErrorSystemDriverMismatch = 803;       // kernel module vs libcuda
inline constexpr int kCudaErrorCompatNotSupportedOnDevice = 804; // forward compat refused

enum class NoGpuCause {
    NoDevice,           // the driver answered: there is no CUDA device
    DriverMissingOrOld, // no driver, only a stub, or one too old for this build's CUDA
    BuiltWithoutCuda,   // WARPBOARD_CUDA=OFF
    Unusable,           // any other CUDA error: a device may be there but cannot be used
};

// The one mapping from a CUDA error code to a cause.
NoGpuCause classifyCudaError(int code);

// The status-line sentence: "No NVIDIA GPU found — showing recorded or modeled data",
// "NVIDIA driver missing or too old for CUDA 13.0 — showing recorded or modeled data", where
// the version is the CUDA this binary was built against (CUDA's encoding, 13000; 0 = not
// known, and then no number is given).
std::string noGpuSentence(NoGpuCause cause, int builtCudaVersion);

} // namespace wb
