#pragma once
// α-β cost of collectives and nccl-tests' bus-bandwidth factors. Every caller (the ring
// scenario, `warpboard calc`, the tests) uses these functions; nothing restates them.
//
// Model (Thakur, Rabenseifner & Gropp 2005): sending m bytes over one link costs
// α + m/B, with α the per-message latency and B the link bandwidth in bytes/s. The
// reduction arithmetic (γ) is ignored: on GPUs it hides under the transfer.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

enum class AllReduceAlgorithm { Ring, Tree, DoubleBinaryTree };
enum class Collective { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll };

std::optional<AllReduceAlgorithm> parseAllReduceAlgorithm(std::string_view name);
std::string algorithmName(AllReduceAlgorithm a);  // "ring", "tree", "double-binary-tree"
std::string algorithmTitle(AllReduceAlgorithm a); // "Ring", "Binary tree", ...
const std::vector<std::string>& allReduceAlgorithmNames();

std::optional<Collective> parseCollective(std::string_view name);
const std::vector<std::string>& collectiveNames();

struct AlphaBeta {
    double alphaS = 5e-6;             // per-message latency, seconds
    double bandwidthBytesPerS = 50e9; // link bandwidth per direction, bytes/s (decimal)
};

struct AllReduceCost {
    double latencyS = 0.0;   // the α part
    double bandwidthS = 0.0; // the bytes/B part
    double timeS = 0.0;      // sum of the two
    double bytesSentPerRank = 0.0;
    int steps = 0;               // message rounds on the critical path
    double algbwBytesPerS = 0.0; // K / time
    double busbwBytesPerS = 0.0; // algbw × busbwFactor(AllReduce, N)
    double busbwFactor = 0.0;
};

int ceilLog2(int n); // ⌈log₂ n⌉ for n ≥ 1

// Cost of all-reducing `bytes` (K) across `ranks` (N ≥ 2) with the given algorithm.
AllReduceCost allReduceCost(AllReduceAlgorithm a, int ranks, double bytes, const AlphaBeta& ab);

// The fewest bytes any all-reduce algorithm must send per rank (Patarasuk & Yuan, JPDC 2009):
// every rank ends with the full reduced K bytes, of which only its own 1/N can be finished
// without data from others, and every byte it contributes must leave it once to be reduced
// and the result of each other rank's share must reach it: (N−1)/N · K received in the
// reduction and again in the distribution, 2(N−1)K/N in all. The ring meets it exactly.
double allReduceLowerBoundBytes(int ranks, double bytes);

// Ring cost of any collective over `ranks` equal links, for K = `bytes` as nccl-tests counts
// it (the whole array for all-gather/reduce-scatter/all-to-all, the buffer for the others):
//   all-reduce: allReduceCost(Ring) = 2(N−1)α + 2(N−1)/N · K/B
//   all-gather, reduce-scatter: (N−1)α + (N−1)/N · K/B (half of the all-reduce ring)
//   all-to-all: (N−1)α + (N−1)/N · K/B (each rank sends K/N to every other rank)
//   broadcast, reduce: pipelined chain, (N−1)α + K/B
// bytesSentPerRank, algbw and busbw follow; busbw = algbw × busbwFactor, so a collective
// that runs at the link rate reports busbw = B, as nccl-tests intends.
AllReduceCost collectiveCost(Collective c, int ranks, double bytes, const AlphaBeta& ab);

// nccl-tests' bus-bandwidth factor (doc/PERFORMANCE.md): busbw = algbw × factor.
double busbwFactor(Collective c, int ranks);

// Message size at which two algorithms cost the same, or nullopt when one is never slower.
// Both costs are affine in K (t = L + K·s), so the crossover is (L₁−L₂)/(s₂−s₁).
std::optional<double> crossoverBytes(AllReduceAlgorithm a, AllReduceAlgorithm b, int ranks,
                                     const AlphaBeta& ab);

} // namespace wb
