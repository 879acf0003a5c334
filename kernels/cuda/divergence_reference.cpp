// CPU reference for the divergence kernel; see divergence_reference.h.
#include "cuda/divergence_reference.h"

#include <random>

namespace wb {
namespace {

constexpr int kWarp = 32;
constexpr std::int32_t kDataRange = 1000; // same range as the SIMT model

} // namespace

const std::vector<std::string>& divergenceBranchKinds() {
    static const std::vector<std::string> kinds = {"odd-even",      "half-warp", "warp-uniform",
                                                   "block-uniform", "data",      "nested"};
    return kinds;
}

const std::vector<std::string>& divergencePoints(const std::string& kind) {
    static const std::vector<std::string> plain = {"before", "then", "else", "after"};
    static const std::vector<std::string> nested = {"before",     "then", "inner-then",
                                                    "inner-else", "else", "after"};
    return kind == "nested" ? nested : plain;
}

std::vector<std::int32_t> divergenceData(std::uint64_t seed, int blockDim) {
    std::mt19937_64 rng(seed);
    std::vector<std::int32_t> data(static_cast<std::size_t>(blockDim > 0 ? blockDim : 0));
    for (auto& d : data)
        d = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(kDataRange));
    return data;
}

std::int32_t divergenceThreshold(double p) {
    return static_cast<std::int32_t>(p * static_cast<double>(kDataRange) + 0.5);
}

std::optional<std::uint32_t>
expectedDivergenceMask(const std::string& kind, const std::string& point, int block, int warp,
                       int blockDim, const std::vector<std::int32_t>& data, double p) {
    const std::int32_t threshold = divergenceThreshold(p);
    std::uint32_t mask = 0;
    for (int lane = 0; lane < kWarp; ++lane) {
        const int t = warp * kWarp + lane;
        if (t >= blockDim)
            break;
        const auto d = t < static_cast<int>(data.size()) ? data[static_cast<std::size_t>(t)] : 0;
        bool cond = false;
        if (kind == "odd-even")
            cond = t % 2 != 0;
        else if (kind == "half-warp" || kind == "nested")
            cond = t < 16; // threadIdx.x < 16, as in the SIMT model: warp 1 is uniform
        else if (kind == "warp-uniform")
            cond = t / kWarp == 0;
        else if (kind == "block-uniform")
            cond = block % 2 != 0;
        else if (kind == "data")
            cond = d < threshold;
        bool active = false;
        if (point == "before" || point == "after")
            active = true;
        else if (point == "then")
            active = cond;
        else if (point == "else")
            active = !cond;
        else if (point == "inner-then")
            active = cond && t % 2 != 0;
        else if (point == "inner-else")
            active = cond && t % 2 == 0;
        if (active)
            mask |= 1u << lane;
    }
    if (mask == 0)
        return std::nullopt;
    return mask;
}

} // namespace wb
