// Built when WARPBOARD_CUDA is ON. Uses only the runtime API; the static runtime loads the
// driver lazily, so on a machine without one every call below returns an error code that
// becomes the "no GPU" reason instead of a crash.
#include "device/device_query.h"

#include <cuda_runtime_api.h>
#include <exception>

namespace wb {
namespace {

std::string errorText(cudaError_t err) {
    const char* text = cudaGetErrorString(err);
    return std::string(text != nullptr ? text : "unknown CUDA error") + " (" +
           std::to_string(static_cast<int>(err)) + ")";
}

// CUDA 13 removed clockRate and memoryClockRate from cudaDeviceProp, so clocks come from
// attributes. A failed lookup reads as 0 rather than failing the whole query.
int attribute(cudaDeviceAttr attr, int device) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess)
        return 0;
    return value;
}

DeviceInfo describe(int index, const cudaDeviceProp& prop, int driver, int runtime) {
    DeviceInfo d;
    d.index = index;
    d.name = prop.name;
    d.smCount = prop.multiProcessorCount;
    d.memoryGB = static_cast<double>(prop.totalGlobalMem) / 1e9;
    d.ccMajor = prop.major;
    d.ccMinor = prop.minor;
    d.smClockGHz = attribute(cudaDevAttrClockRate, index) / 1e6;           // kHz -> GHz
    d.memoryClockGHz = attribute(cudaDevAttrMemoryClockRate, index) / 1e6; // kHz -> GHz
    d.memoryBusWidthBits = prop.memoryBusWidth;
    d.l2CacheMB = prop.l2CacheSize / 1e6;
    d.maxThreadsPerSm = prop.maxThreadsPerMultiProcessor;
    d.maxSharedPerBlockKB = static_cast<int>(prop.sharedMemPerBlockOptin / 1024);
    d.driverVersion = driver;
    d.runtimeVersion = runtime;
    d.driverRelease = nvidiaDriverRelease();
    return d;
}

DeviceQuery queryDevicesUnchecked() {
    DeviceQuery q;
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        // Clear the sticky error so that later runtime calls start from a clean state.
        cudaGetLastError();
        q.noGpuReason = std::string(kNoGpuPrefix) + errorText(err);
        q.cause = classifyCudaError(static_cast<int>(err));
        return q;
    }
    if (count <= 0) {
        q.noGpuReason = std::string(kNoGpuPrefix) + "no CUDA devices found";
        q.cause = NoGpuCause::NoDevice;
        return q;
    }
    int driver = 0;
    int runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    std::string firstFailure;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        const cudaError_t propErr = cudaGetDeviceProperties(&prop, i);
        if (propErr != cudaSuccess) {
            cudaGetLastError();
            if (firstFailure.empty())
                firstFailure = "device " + std::to_string(i) + ": " + errorText(propErr);
            continue;
        }
        q.devices.push_back(describe(i, prop, driver, runtime));
    }
    if (q.devices.empty()) {
        q.noGpuReason = std::string(kNoGpuPrefix) + firstFailure;
        q.cause = NoGpuCause::Unusable;
    }
    return q;
}

} // namespace

DeviceQuery queryDevices() {
    // The contract is "never throws": std::bad_alloc from a string is the only candidate.
    try {
        return queryDevicesUnchecked();
    } catch (const std::exception& e) {
        DeviceQuery q;
        q.noGpuReason = std::string(kNoGpuPrefix) + e.what();
        q.cause = NoGpuCause::Unusable;
        return q;
    }
}

bool cudaCompiledIn() {
    return true;
}

int cudaBuiltVersion() {
    return CUDART_VERSION;
}

} // namespace wb
