#pragma once
// The CUDA half of the runner, shared by every kernel family: error checks that return
// values, device buffers sized against free memory, and event timing with warm-up. Only .cu
// files include this header.
#include "cuda/gpu_runner.h"

#include <cuda_runtime_api.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

inline std::optional<RunError> cudaCheck(cudaError_t err, const std::string& what) {
    if (err == cudaSuccess)
        return std::nullopt;
    // Clear the non-sticky error so the next call starts clean; sticky errors stay, and the
    // next check reports them again, which is what we want.
    cudaGetLastError();
    return cudaRunError(static_cast<int>(err), cudaGetErrorName(err), cudaGetErrorString(err),
                        what);
}

// Picks device 0 (the one the recorder describes) and fails with "no GPU" where there is none.
inline std::optional<RunError> selectDevice(int device) {
    int count = 0;
    if (auto e = cudaCheck(cudaGetDeviceCount(&count), "cudaGetDeviceCount"))
        return e;
    if (count <= device)
        return RunError{"no GPU: device " + std::to_string(device) + " not present (" +
                        std::to_string(count) + " found)"};
    return cudaCheck(cudaSetDevice(device), "cudaSetDevice");
}

inline int deviceAttribute(cudaDeviceAttr attr, int device) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess)
        return 0;
    return value;
}

// Owns one plain cudaMalloc allocation (never managed memory: oversubscribing managed memory
// can hang the GPU). Allocation goes through allocate(), which checks free memory first.
template <class T> class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : m_ptr(std::exchange(other.m_ptr, nullptr))
        , m_count(std::exchange(other.m_count, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            reset();
            m_ptr = std::exchange(other.m_ptr, nullptr);
            m_count = std::exchange(other.m_count, 0);
        }
        return *this;
    }
    ~DeviceBuffer() { reset(); }

    std::optional<RunError> allocate(std::size_t count, const std::string& what) {
        reset();
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        if (auto e = cudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo"))
            return e;
        const std::size_t bytes = count * sizeof(T);
        if (auto e = checkAllocationFits(bytes, freeBytes, what))
            return e;
        void* p = nullptr;
        if (auto e = cudaCheck(cudaMalloc(&p, bytes), what + ": cudaMalloc"))
            return e;
        m_ptr = static_cast<T*>(p);
        m_count = count;
        return std::nullopt;
    }
    void reset() {
        if (m_ptr != nullptr)
            cudaFree(m_ptr);
        m_ptr = nullptr;
        m_count = 0;
    }
    T* get() const { return m_ptr; }
    std::size_t size() const { return m_count; }
    std::size_t bytes() const { return m_count * sizeof(T); }

private:
    T* m_ptr = nullptr;
    std::size_t m_count = 0;
};

class EventPair {
public:
    EventPair() {
        m_ok = cudaEventCreate(&m_start) == cudaSuccess && cudaEventCreate(&m_stop) == cudaSuccess;
    }
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;
    ~EventPair() {
        if (m_start != nullptr)
            cudaEventDestroy(m_start);
        if (m_stop != nullptr)
            cudaEventDestroy(m_stop);
    }
    bool ok() const { return m_ok; }
    cudaEvent_t start() const { return m_start; }
    cudaEvent_t stop() const { return m_stop; }

private:
    cudaEvent_t m_start = nullptr;
    cudaEvent_t m_stop = nullptr;
    bool m_ok = false;
};

// Runs launch() warmups times untimed, then repetitions times each between two events, and
// returns the mean milliseconds per launch. launch() enqueues one kernel; its launch error is
// checked after every call so a bad configuration fails at once instead of timing nothing.
template <class Launch>
RunResult<double> timeKernelMs(Launch&& launch, int warmups, int repetitions,
                               const std::string& what) {
    for (int i = 0; i < warmups; ++i) {
        launch();
        if (auto e = cudaCheck(cudaGetLastError(), what + ": launch"))
            return *e;
    }
    if (auto e = cudaCheck(cudaDeviceSynchronize(), what + ": warm-up"))
        return *e;
    EventPair ev;
    if (!ev.ok())
        return RunError{what + ": cudaEventCreate failed"};
    std::vector<float> samples;
    const int reps = clampRepetitions(repetitions);
    samples.reserve(static_cast<std::size_t>(reps));
    for (int i = 0; i < reps; ++i) {
        cudaEventRecord(ev.start());
        launch();
        if (auto e = cudaCheck(cudaGetLastError(), what + ": launch"))
            return *e;
        cudaEventRecord(ev.stop());
        if (auto e = cudaCheck(cudaEventSynchronize(ev.stop()), what + ": kernel"))
            return *e;
        float ms = 0.0f;
        if (auto e = cudaCheck(cudaEventElapsedTime(&ms, ev.start(), ev.stop()),
                               what + ": cudaEventElapsedTime"))
            return *e;
        samples.push_back(ms);
    }
    return meanMs(samples);
}

template <class T>
std::optional<RunError> copyToDevice(T* dst, const std::vector<T>& src, const std::string& what) {
    return cudaCheck(cudaMemcpy(dst, src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice),
                     what + ": copy to device");
}

template <class T>
std::optional<RunError> copyToHost(std::vector<T>& dst, const T* src, const std::string& what) {
    return cudaCheck(cudaMemcpy(dst.data(), src, dst.size() * sizeof(T), cudaMemcpyDeviceToHost),
                     what + ": copy to host");
}

} // namespace wb
