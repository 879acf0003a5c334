#pragma once
// Expert capacity and token dropping (Switch Transformer, Fedus et al. arXiv:2101.03961,
// FACTS.md §8): each expert processes at most `capacity` token assignments per batch; the
// ones that arrive after it is full are dropped (they skip the expert through the residual).
#include <cstdint>
#include <limits>
#include <vector>

namespace wb {

// Switch Eq. 3 generalised to top-k routing: capacity = ⌈(k·T / E) · C⌉ assignments per
// expert for T tokens, E experts and capacity factor C. k·T/E·C is formed in floating point,
// so a product that is an integer up to rounding (1·100·1.1/10 = 11.000000000000002) is taken
// as that integer rather than rounded up. Throws std::invalid_argument naming the value when
// T < 1, E < 1, k outside 1…E, or C not a positive finite number.
long long expertCapacity(long long tokens, int experts, int topK, double capacityFactor);

inline constexpr long long kUnlimitedCapacity = std::numeric_limits<long long>::max();

// What a batch of assignments did at one capacity.
struct ExpertDispatch {
    long long capacity = kUnlimitedCapacity;
    std::vector<long long> routed;  // assignments the router sent to each expert
    std::vector<long long> kept;    // of those, processed (within capacity)
    std::vector<long long> dropped; // of those, over capacity
    long long droppedAssignments = 0;
    long long tokens = 0;
    long long tokensFullyDropped = 0; // tokens none of whose k experts had room
};

// Tokens in arrival order: admit() each of a token's assignments, then finishToken().
class CapacityDispatcher {
public:
    CapacityDispatcher(int experts, long long capacity);

    // One assignment of the current token to `expert`; false when the expert is full.
    bool admit(int expert);
    void finishToken();

    const ExpertDispatch& result() const { return m_result; }

private:
    ExpertDispatch m_result;
    int m_keptThisToken = 0;
    int m_assignedThisToken = 0;
};

} // namespace wb
