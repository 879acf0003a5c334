#pragma once
// Small numeric helpers for building ChartFrames: sample points and round axis ranges.
#include <vector>

namespace wb {

std::vector<double> logSpace(double from, double to, int count); // count ≥ 2, from, to > 0
double decadeBelow(double v);                                    // 10^floor(log10 v)
double decadeAbove(double v);                                    // 10^ceil(log10 v)

} // namespace wb
