#include "collectives/collective_cost.h"

#include <array>
#include <cmath>
#include <stdexcept>

namespace wb {

double allReduceLowerBoundBytes(int ranks, double bytes) {
    if (ranks < 1)
        throw std::invalid_argument("all-reduce needs at least 1 rank");
    const double n = ranks;
    return 2.0 * (n - 1.0) / n * bytes;
}

namespace {
struct AlgorithmName {
    AllReduceAlgorithm algorithm;
    const char* name;
    const char* title;
};
constexpr std::array<AlgorithmName, 3> kAlgorithms{{
    {AllReduceAlgorithm::Ring, "ring", "Ring"},
    {AllReduceAlgorithm::Tree, "tree", "Binary tree (pipelined)"},
    {AllReduceAlgorithm::DoubleBinaryTree, "double-binary-tree", "Double binary tree"},
}};

struct CollectiveName {
    Collective collective;
    const char* name;
};
constexpr std::array<CollectiveName, 6> kCollectives{{
    {Collective::AllReduce, "allreduce"},
    {Collective::AllGather, "allgather"},
    {Collective::ReduceScatter, "reducescatter"},
    {Collective::Broadcast, "broadcast"},
    {Collective::Reduce, "reduce"},
    {Collective::AllToAll, "alltoall"},
}};

// The cost of every algorithm is L + K·s: latency L and seconds per byte of message s.
struct Affine {
    double latencyS;
    double secondsPerByte;
    double bytesSentPerByte; // bytes a rank sends per byte of message
    int steps;
};

Affine affineCost(AllReduceAlgorithm a, int n, const AlphaBeta& ab) {
    if (n < 2)
        throw std::invalid_argument("all-reduce needs at least 2 ranks");
    if (!(ab.bandwidthBytesPerS > 0.0) || !(ab.alphaS >= 0.0))
        throw std::invalid_argument("α must be ≥ 0 and bandwidth > 0");
    const double B = ab.bandwidthBytesPerS;
    switch (a) {
    case AllReduceAlgorithm::Ring: {
        // Reduce-scatter then all-gather, N−1 rounds each; every round each rank sends one
        // K/N chunk to its successor while receiving one, links full-duplex:
        //   t = 2(N−1)α + 2(N−1)/N · K/B,   bytes sent per rank = 2(N−1)K/N.
        // The ring sends exactly the all-reduce lower bound.
        const int steps = 2 * (n - 1);
        const double perByte = allReduceLowerBoundBytes(n, 1.0);
        return {steps * ab.alphaS, perByte / B, perByte, steps};
    }
    case AllReduceAlgorithm::Tree: {
        // One binary tree, pipelined: chunks go up (reduce) and come back down (broadcast)
        // at the same time. An interior rank sends K to its parent and K to each of its two
        // children, 3K through one link, so the bandwidth term is 3K/B; the pipeline fills
        // in ⌈log₂N⌉ hops each way: t = 2⌈log₂N⌉α + 3K/B.
        const int steps = 2 * ceilLog2(n);
        return {steps * ab.alphaS, 3.0 / B, 3.0, steps};
    }
    case AllReduceAlgorithm::DoubleBinaryTree: {
        // NCCL ≥ 2.4: two complementary trees, each carrying half the data; a rank is
        // interior in at most one. Interior: K/2 up + 2·K/2 down; leaf in the other: K/2 up.
        // 2K per rank through its link: t = 2⌈log₂N⌉α + 2K/B.
        const int steps = 2 * ceilLog2(n);
        return {steps * ab.alphaS, 2.0 / B, 2.0, steps};
    }
    }
    throw std::invalid_argument("unknown algorithm");
}
} // namespace

int ceilLog2(int n) {
    int k = 0;
    while ((1 << k) < n)
        ++k;
    return k;
}

std::optional<AllReduceAlgorithm> parseAllReduceAlgorithm(std::string_view name) {
    for (const auto& a : kAlgorithms)
        if (name == a.name)
            return a.algorithm;
    return std::nullopt;
}

std::string algorithmName(AllReduceAlgorithm a) {
    for (const auto& x : kAlgorithms)
        if (x.algorithm == a)
            return x.name;
    return {};
}

std::string algorithmTitle(AllReduceAlgorithm a) {
    for (const auto& x : kAlgorithms)
        if (x.algorithm == a)
            return x.title;
    return {};
}

const std::vector<std::string>& allReduceAlgorithmNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& a : kAlgorithms)
            v.emplace_back(a.name);
        return v;
    }();
    return names;
}

std::optional<Collective> parseCollective(std::string_view name) {
    for (const auto& c : kCollectives)
        if (name == c.name)
            return c.collective;
    return std::nullopt;
}

const std::vector<std::string>& collectiveNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& c : kCollectives)
            v.emplace_back(c.name);
        return v;
    }();
    return names;
}

AllReduceCost allReduceCost(AllReduceAlgorithm a, int ranks, double bytes, const AlphaBeta& ab) {
    if (!(bytes > 0.0) || !std::isfinite(bytes))
        throw std::invalid_argument("message size must be a positive number of bytes");
    const Affine c = affineCost(a, ranks, ab);
    AllReduceCost out;
    out.latencyS = c.latencyS;
    out.bandwidthS = bytes * c.secondsPerByte;
    out.timeS = out.latencyS + out.bandwidthS;
    out.bytesSentPerRank = bytes * c.bytesSentPerByte;
    out.steps = c.steps;
    out.algbwBytesPerS = bytes / out.timeS;
    out.busbwFactor = busbwFactor(Collective::AllReduce, ranks);
    out.busbwBytesPerS = out.algbwBytesPerS * out.busbwFactor;
    return out;
}

AllReduceCost collectiveCost(Collective c, int ranks, double bytes, const AlphaBeta& ab) {
    if (c == Collective::AllReduce)
        return allReduceCost(AllReduceAlgorithm::Ring, ranks, bytes, ab);
    if (ranks < 2)
        throw std::invalid_argument("a collective needs at least 2 ranks");
    if (!(bytes > 0.0) || !std::isfinite(bytes))
        throw std::invalid_argument("message size must be a positive number of bytes");
    if (!(ab.bandwidthBytesPerS > 0.0) || !(ab.alphaS >= 0.0))
        throw std::invalid_argument("link bandwidth must be positive and latency not negative");
    const double n = ranks;
    // Bytes each rank puts on its link per byte of K.
    const double perByte =
        (c == Collective::Broadcast || c == Collective::Reduce) ? 1.0 : (n - 1.0) / n;
    AllReduceCost out;
    out.steps = ranks - 1;
    out.latencyS = (n - 1.0) * ab.alphaS;
    out.bytesSentPerRank = bytes * perByte;
    out.bandwidthS = out.bytesSentPerRank / ab.bandwidthBytesPerS;
    out.timeS = out.latencyS + out.bandwidthS;
    out.algbwBytesPerS = bytes / out.timeS;
    out.busbwFactor = busbwFactor(c, ranks);
    out.busbwBytesPerS = out.algbwBytesPerS * out.busbwFactor;
    return out;
}

double busbwFactor(Collective c, int ranks) {
    // nccl-tests doc/PERFORMANCE.md: the factor turns algbw (S/t) into the rate each rank's
    // link must sustain, independent of the algorithm used.
    if (ranks < 1)
        throw std::invalid_argument("ranks must be ≥ 1");
    const double n = ranks;
    switch (c) {
    case Collective::AllReduce:
        return allReduceLowerBoundBytes(ranks, 1.0); // each rank moves 2(n−1)/n · S
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
        return (n - 1.0) / n; // S is the whole array; each rank moves (n−1)/n of it
    case Collective::Broadcast:
    case Collective::Reduce:
        return 1.0; // the root's link carries all S
    }
    throw std::invalid_argument("unknown collective");
}

std::optional<double> crossoverBytes(AllReduceAlgorithm a, AllReduceAlgorithm b, int ranks,
                                     const AlphaBeta& ab) {
    const Affine ca = affineCost(a, ranks, ab);
    const Affine cb = affineCost(b, ranks, ab);
    const double dSlope = cb.secondsPerByte - ca.secondsPerByte;
    const double dLatency = ca.latencyS - cb.latencyS;
    if (dSlope == 0.0)
        return std::nullopt;
    const double k = dLatency / dSlope;
    if (!(k > 0.0) || !std::isfinite(k))
        return std::nullopt;
    return k;
}

} // namespace wb
