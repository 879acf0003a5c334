#include "engine/number_format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace wb {

std::optional<double> parseNumber(std::string_view text) {
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    if (text.empty())
        return std::nullopt;
    if (text.front() == '+')
        text.remove_prefix(1);
    double v = 0.0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::string formatNumber(double v) {
    std::array<char, 64> buf{};
    std::snprintf(buf.data(), buf.size(), "%.6g", v);
    return buf.data();
}

std::string formatSignificant(double v, int digits) {
    if (!std::isfinite(v))
        return "?";
    const double mag = std::fabs(v);
    const int exponent = mag > 0.0 ? static_cast<int>(std::floor(std::log10(mag))) : 0;
    const int decimals = std::clamp(digits - exponent - 1, 0, 12);
    std::array<char, 64> buf{};
    std::snprintf(buf.data(), buf.size(), "%.*f", decimals, v);
    std::string out = buf.data();
    if (out.find('.') != std::string::npos) {
        while (out.back() == '0')
            out.pop_back();
        if (out.back() == '.')
            out.pop_back();
    }
    return out == "-0" ? "0" : out;
}

namespace {
struct Prefix {
    double scale;
    const char* name;
};
constexpr std::array<Prefix, 11> kPrefixes{{{1e18, "E"},
                                            {1e15, "P"},
                                            {1e12, "T"},
                                            {1e9, "G"},
                                            {1e6, "M"},
                                            {1e3, "k"},
                                            {1.0, ""},
                                            {1e-3, "m"},
                                            {1e-6, "µ"},
                                            {1e-9, "n"},
                                            {1e-12, "p"}}};
constexpr size_t kUnitPrefix = 6;

std::string digits(double scaled, int significant, bool keepTrailingZeros) {
    std::array<char, 64> buf{};
    if (keepTrailingZeros) {
        const double mag = std::fabs(scaled);
        const int intDigits = mag < 1.0 ? 1 : static_cast<int>(std::floor(std::log10(mag))) + 1;
        std::snprintf(buf.data(), buf.size(), "%.*f", std::max(0, significant - intDigits), scaled);
    } else {
        std::snprintf(buf.data(), buf.size(), "%.*g", significant, scaled);
    }
    return buf.data();
}
} // namespace

std::string formatSi(double value, std::string_view unit, int significant, bool keepTrailingZeros) {
    if (!std::isfinite(value))
        return "? " + std::string(unit);
    const double mag = std::fabs(value);
    size_t k = kUnitPrefix;
    if (mag > 0.0) {
        k = kPrefixes.size() - 1;
        for (size_t i = 0; i < kPrefixes.size(); ++i) {
            if (mag >= kPrefixes[i].scale) {
                k = i;
                break;
            }
        }
    }
    std::string text = digits(value / kPrefixes[k].scale, significant, keepTrailingZeros);
    // 999.96 at three digits prints as 1000 (or 1e+03): step up to the next prefix.
    if (k > 0 && std::fabs(std::strtod(text.c_str(), nullptr)) >= 1000.0) {
        --k;
        text = digits(value / kPrefixes[k].scale, significant, keepTrailingZeros);
    }
    return text + " " + kPrefixes[k].name + std::string(unit);
}

std::string formatPercent(double percent, int digits) {
    return formatSignificant(percent, digits).append(" %");
}

std::string formatShare(double fraction, int digits) {
    return formatPercent(fraction * 100.0, digits);
}

std::string formatBytes(double bytes, bool keepTrailingZeros) {
    if (std::isfinite(bytes) && std::fabs(bytes) < 999.5)
        return std::to_string(std::lround(bytes)) + " B";
    return formatSi(bytes, "B", 3, keepTrailingZeros);
}

std::string formatCount(long long n, std::string_view one, std::string_view many) {
    std::string s = std::to_string(n);
    s.append(" ").append(n == 1 ? one : many);
    return s;
}

std::string formatIndexRanges(const std::vector<int>& ascending) {
    std::string s;
    for (std::size_t i = 0; i < ascending.size();) {
        std::size_t j = i;
        while (j + 1 < ascending.size() && ascending[j + 1] == ascending[j] + 1)
            ++j;
        if (!s.empty())
            s += ", ";
        s += std::to_string(ascending[i]);
        if (j > i)
            s += "–" + std::to_string(ascending[j]);
        i = j + 1;
    }
    return s;
}

} // namespace wb
