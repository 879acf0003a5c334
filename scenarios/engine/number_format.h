#pragma once
// Number text in one place: parsing user input strictly and printing with SI units, so
// every view, the CLI and the answer cards write quantities the same way.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

// Whole-string parse of a finite decimal number ("8", "1e6", "0.25"); nullopt otherwise.
std::optional<double> parseNumber(std::string_view text);

// Shortest text that round-trips at 6 significant digits ("8", "0.25", "1e+06").
std::string formatNumber(double v);

// Plain decimal text with `digits` significant digits, never an exponent, trailing zeros
// dropped: 295.34 -> "295.3" (4), 0.083333 -> "0.0833" (3), 1365.3 -> "1365" (3).
std::string formatSignificant(double v, int digits = 3);

// A percentage with `digits` significant digits: 99.688 -> "99.7 %". formatShare takes a
// fraction of one instead (0.25 -> "25 %"); the scenarios' percentages all come through these.
std::string formatPercent(double percent, int digits = 3);
std::string formatShare(double fraction, int digits = 3);

// Value with a decimal SI prefix and unit: 1.5e9, "B" -> "1.5 GB"; 3.2e-6, "s" -> "3.2 µs".
// Rounding that carries into the next prefix moves up (999.96e3 -> "1 M..."). With
// keepTrailingZeros the text keeps `significant` digits ("1.50 MB"), so an animated
// counter does not change width every frame.
std::string formatSi(double value, std::string_view unit, int significant = 3,
                     bool keepTrailingZeros = false);

// Bytes with decimal prefixes (kB, MB, GB, TB): Warpboard uses decimal units throughout.
// Below 1 kB the count is a whole number ("512 B").
std::string formatBytes(double bytes, bool keepTrailingZeros = false);

// "1 rack", "3 racks": the count and the noun in the number it takes.
std::string formatCount(long long n, std::string_view one, std::string_view many);

// Ascending indices as runs: {0,1,2,3,4,6,7} -> "0–4, 6–7"; {5} -> "5". Lets a table say
// "ranks 0–4, 6–15" in one row instead of fifteen rows that all read the same.
std::string formatIndexRanges(const std::vector<int>& ascending);

} // namespace wb
