#pragma once
// A file's fingerprint for provenance (warpboard-summarize's summary names each trace it read
// by size and hash, so a later look can tell whether the file on disk is still that one).
// FNV-1a, 64 bits, over the bytes on disk (a .gz file as stored): no cryptographic claim,
// only "the same bytes", and no library needed on a cluster's bare build.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wb {

// FNV-1a 64 of `bytes`, continuing from `hash` (start with kFnv1a64Offset).
inline constexpr std::uint64_t kFnv1a64Offset = 0xcbf29ce484222325ULL;
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash = kFnv1a64Offset);

// The file's FNV-1a 64 as 16 lower-case hex digits; nullopt when it cannot be read.
std::optional<std::string> fileFnv1a64(const std::string& path);

} // namespace wb
