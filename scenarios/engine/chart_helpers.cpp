#include "engine/chart_helpers.h"

#include <cmath>

namespace wb {

std::vector<double> logSpace(double from, double to, int count) {
    std::vector<double> out;
    const double a = std::log10(from);
    const double b = std::log10(to);
    for (int i = 0; i < count; ++i)
        out.push_back(std::pow(10.0, a + (b - a) * i / (count - 1)));
    return out;
}

double decadeBelow(double v) {
    return std::pow(10.0, std::floor(std::log10(v)));
}

double decadeAbove(double v) {
    return std::pow(10.0, std::ceil(std::log10(v)));
}

} // namespace wb
