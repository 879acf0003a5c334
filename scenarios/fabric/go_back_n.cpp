#include "fabric/go_back_n.h"

#include <cmath>
#include <stdexcept>

namespace wb {

double goBackNResentPerLoss(int roundTripSlots) {
    if (roundTripSlots < 0)
        throw std::invalid_argument("go-back-N: a round trip cannot be negative");
    return roundTripSlots + 1.0;
}

double goBackNGoodputFraction(double dropRate, double resentPerLoss) {
    if (!std::isfinite(dropRate) || dropRate < 0 || dropRate >= 1)
        throw std::invalid_argument("go-back-N: drop rate must be in [0, 1)");
    if (!std::isfinite(resentPerLoss) || resentPerLoss < 1)
        throw std::invalid_argument("go-back-N: a loss resends at least the lost packet");
    return 1.0 / (1.0 + resentPerLoss * dropRate / (1.0 - dropRate));
}

} // namespace wb
