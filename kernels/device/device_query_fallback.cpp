// Built when WARPBOARD_CUDA is OFF: the same API, answering that there is no GPU to use.
#include "device/device_query.h"

namespace wb {

DeviceQuery queryDevices() {
    DeviceQuery q;
    q.noGpuReason = std::string(kNoGpuPrefix) + "Warpboard was built without CUDA";
    q.cause = NoGpuCause::BuiltWithoutCuda;
    return q;
}

bool cudaCompiledIn() {
    return false;
}

int cudaBuiltVersion() {
    return 0;
}

} // namespace wb
