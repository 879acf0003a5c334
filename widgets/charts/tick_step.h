#pragma once
// Axis ticks at 1, 2 or 5 × 10^k: the step that gives about `target` ticks over `range`.
#include <algorithm>
#include <cmath>

namespace wb {

inline double niceTickStep(double range, int target) {
    const double raw = std::max(range / std::max(1, target), 1e-300);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0})
        if (m * power >= raw)
            return m * power;
    return 10.0 * power;
}

} // namespace wb
