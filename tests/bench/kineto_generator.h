#pragma once
// Writes a synthetic PyTorch-profiler (Kineto) trace of about `megabytes` MB for the import
// benchmark: CPU ops, runtime launches, GPU kernels (some NCCL) with ac2g flows, in the
// shapes real 2024 traces use (float µs with 3 decimals, kernel args, distributedInfo).
#include <string>

namespace wb::bench {

// Returns the number of trace events written.
long writeKinetoTrace(const std::string& path, double megabytes, unsigned seed = 7);

} // namespace wb::bench
