#include "import/file_hash.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <vector>

namespace wb {

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash) {
    constexpr std::uint64_t kPrime = 0x100000001b3ULL;
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= kPrime;
    }
    return hash;
}

std::optional<std::string> fileFnv1a64(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::vector<char> chunk(std::size_t{1} << 20);
    std::uint64_t hash = kFnv1a64Offset;
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        hash = fnv1a64(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())), hash);
    }
    if (in.bad())
        return std::nullopt;
    std::array<char, 17> hex{};
    std::snprintf(hex.data(), hex.size(), "%016llx", static_cast<unsigned long long>(hash));
    return std::string(hex.data());
}

} // namespace wb
