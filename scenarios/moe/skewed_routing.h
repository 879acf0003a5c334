#pragma once
// A routing with a chosen imbalance, for the capacity and all-to-all arithmetic when no gate
// is trained (`warpboard calc moe --skew Z`).
//
// Skew Z is a Zipf-like exponent over experts: expert i (0-based) receives a share of the k·T
// assignments proportional to (i+1)^(−Z). Z = 0 is perfectly uniform routing (k·T/E each,
// the remainder one apiece to the first experts); Z = 1 is Zipf's law, where the hottest of
// 8 experts gets 37% of the assignments. A token picks k distinct experts, so no expert can
// hold more than T: shares above T are capped and the excess water-filled over the rest.
#include "moe/capacity_dispatcher.h"

#include <cstdint>
#include <vector>

namespace wb {

// Integer loads per expert summing to k·T (largest-remainder rounding of the shares).
// Throws std::invalid_argument for T < 1, E < 1, k outside 1…E, or Z negative/not finite.
std::vector<long long> skewedExpertLoads(long long tokens, int experts, int topK, double skew);

// The same loads through a capacity of ⌈k·T/E·C⌉, by counting alone: each expert drops
// what exceeds its capacity. Which tokens lose all k experts needs the token layout below,
// so tokensFullyDropped is left at −1.
ExpertDispatch dispatchCounts(long long tokens, int experts, int topK, double capacityFactor,
                              double skew);

// The loads above laid out as tokens (token t's slot s is assignment s·T + t of the experts'
// runs, so every token gets k distinct experts), arriving in a seeded random order, through
// a capacity of ⌈k·T/E·C⌉. The seed only changes which tokens lose all k experts.
ExpertDispatch dispatchSkewed(long long tokens, int experts, int topK, double capacityFactor,
                              double skew, std::uint64_t seed);

} // namespace wb
