#include "moe/capacity_dispatcher.h"

#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace wb {

long long expertCapacity(long long tokens, int experts, int topK, double capacityFactor) {
    if (tokens < 1)
        throw std::invalid_argument("tokens must be at least 1");
    if (experts < 1)
        throw std::invalid_argument("experts must be at least 1");
    if (topK < 1 || topK > experts)
        throw std::invalid_argument(
            fill("top-k must be between 1 and the number of experts (%1), got %2",
                 {std::to_string(experts), std::to_string(topK)}));
    if (!std::isfinite(capacityFactor) || !(capacityFactor > 0.0))
        throw std::invalid_argument("capacity factor must be a positive finite number");
    const double perExpert =
        static_cast<double>(topK) * static_cast<double>(tokens) * capacityFactor / experts;
    const double nearest = std::round(perExpert);
    // Products like 11.000000000000002 are 11 that floating point could not hold exactly: three
    // roundings are off by a few ulps at most, so 16 ulps away from an integer is that integer.
    const double ulps = 16.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, perExpert);
    if (std::fabs(perExpert - nearest) <= ulps)
        return static_cast<long long>(nearest);
    return static_cast<long long>(std::ceil(perExpert));
}

CapacityDispatcher::CapacityDispatcher(int experts, long long capacity) {
    if (experts < 1)
        throw std::invalid_argument("experts must be at least 1");
    if (capacity < 0)
        throw std::invalid_argument("capacity must not be negative");
    const auto n = static_cast<std::size_t>(experts);
    m_result.capacity = capacity;
    m_result.routed.assign(n, 0);
    m_result.kept.assign(n, 0);
    m_result.dropped.assign(n, 0);
}

bool CapacityDispatcher::admit(int expert) {
    const auto e = static_cast<std::size_t>(expert);
    ++m_result.routed[e];
    ++m_assignedThisToken;
    if (m_result.kept[e] < m_result.capacity) {
        ++m_result.kept[e];
        ++m_keptThisToken;
        return true;
    }
    ++m_result.dropped[e];
    ++m_result.droppedAssignments;
    return false;
}

void CapacityDispatcher::finishToken() {
    ++m_result.tokens;
    if (m_assignedThisToken > 0 && m_keptThisToken == 0)
        ++m_result.tokensFullyDropped;
    m_keptThisToken = 0;
    m_assignedThisToken = 0;
}

} // namespace wb
