#pragma once
// What Warpboard knows about one GPU. Plain data so that it can be shown, logged and
// stored in trace provenance without touching the CUDA runtime again. Included by .cu files,
// so it stays within C++17: CMake 3.25 cannot pass -std=c++20 to nvcc.
#include <string>

namespace wb {

struct DeviceInfo {
    int index = 0;
    std::string name;
    int smCount = 0;
    double memoryGB = 0.0; // decimal gigabytes (1e9 bytes), like every size in Warpboard
    int ccMajor = 0;
    int ccMinor = 0;
    double smClockGHz = 0.0;
    double memoryClockGHz = 0.0;
    int memoryBusWidthBits = 0;
    double l2CacheMB = 0.0; // decimal megabytes
    int maxThreadsPerSm = 0;
    // Opt-in maximum (what a kernel can request), in KiB because that is how CUDA sizes it.
    int maxSharedPerBlockKB = 0;
    int driverVersion = 0;  // CUDA encoding, 12040 = 12.4; see formatCudaVersion()
    int runtimeVersion = 0; // same encoding
    // The kernel module's release ("580.159.04", what nvidia-smi calls the driver version);
    // empty where the system does not say. Recordings cite this, not the CUDA version above.
    std::string driverRelease;

    // "9.0"
    std::string computeCapability() const;
    // "NVIDIA H100 80GB HBM3 · 132 SMs · 85.5 GB · CC 9.0"
    std::string summary() const;
};

} // namespace wb
