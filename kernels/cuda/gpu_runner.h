#pragma once
// The parts of the kernel runner that need no CUDA types: error values, the size check and
// timing arithmetic. They compile in every build (with or without nvcc), so the error paths
// are tested on machines without a GPU. Included by .cu files, so it stays within C++17.
#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace wb {

// A failed run, as a value: callers show the message as is. Runs never exit() or throw.
struct RunError {
    std::string message;
};

template <class T> using RunResult = std::variant<T, RunError>;

// CUDA's "no driver" and "no device" codes (classifyCudaError in device/no_gpu_cause.h):
// a machine without a GPU is a normal state, not a failure.
bool isNoGpuError(int code);

// "<what>: <text> (<name> = <code>)", or "no GPU: <text> (<code>)" for the no-GPU codes, so
// every caller words CUDA failures the same way. Empty name/text are replaced by "unknown".
RunError cudaRunError(int code, const std::string& name, const std::string& text,
                      const std::string& what);

// True when the message means "there is no GPU" rather than "the run failed".
bool isNoGpuMessage(const std::string& message);

// Refuses an allocation that would not leave headroom in free device memory. freeBytes is a
// parameter (not read here) so tests can inject any figure. The headroom (10 % of free memory,
// at least 64 MiB) keeps the runtime and other processes on the GPU working.
std::optional<RunError> checkAllocationFits(std::size_t requestedBytes, std::size_t freeBytes,
                                            const std::string& what);

// Mean of repeated timings in milliseconds; an empty list gives 0.
double meanMs(const std::vector<float>& samplesMs);

// Effective bandwidth in decimal GB/s for bytes moved in ms (0 when ms <= 0).
double gigabytesPerSecond(double bytes, double ms);

// Iteration limits shared by every probe: a kernel loop never runs more than this many
// dependent steps, and a timing loop never more than this many repetitions.
inline constexpr long kMaxKernelIterations = 1L << 24;
inline constexpr int kMaxRepetitions = 1000;
// Clamps a requested repetition/iteration count into [1, limit].
int clampRepetitions(int requested);
long clampIterations(long requested);

} // namespace wb
