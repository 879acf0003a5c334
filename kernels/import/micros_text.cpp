#include "import/micros_text.h"

#include <limits>

namespace wb {

namespace {

constexpr std::uint64_t kMaxMantissa = (std::numeric_limits<std::uint64_t>::max() - 9) / 10;

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

} // namespace

std::optional<std::int64_t> microsTextToNs(std::string_view text) {
    std::size_t i = 0;
    const bool negative = i < text.size() && text[i] == '-';
    if (negative)
        ++i;
    // The value is mantissa × 10^exp10 nanoseconds (µs → ns is the starting 10^3).
    std::uint64_t mantissa = 0;
    long exp10 = 3;
    std::size_t digits = 0;
    bool roundUp = false; // first digit dropped for precision was ≥ 5
    bool dropped = false;
    auto take = [&](char c, bool fraction) {
        ++digits;
        if (!dropped && mantissa <= kMaxMantissa) {
            mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
            if (fraction)
                --exp10;
            return;
        }
        if (!dropped)
            roundUp = c >= '5';
        dropped = true;
        if (!fraction)
            ++exp10;
    };
    while (i < text.size() && isDigit(text[i]))
        take(text[i++], false);
    if (i < text.size() && text[i] == '.') {
        ++i;
        const std::size_t before = digits;
        while (i < text.size() && isDigit(text[i]))
            take(text[i++], true);
        if (digits == before)
            return std::nullopt; // "1." is not JSON
    }
    if (digits == 0)
        return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            expNegative = text[i++] == '-';
        long e = 0;
        const std::size_t start = i;
        while (i < text.size() && isDigit(text[i])) {
            if (e < 100000)
                e = e * 10 + (text[i] - '0');
            ++i;
        }
        if (i == start)
            return std::nullopt;
        exp10 += expNegative ? -e : e;
    }
    if (i != text.size())
        return std::nullopt;
    if (roundUp && mantissa < std::numeric_limits<std::uint64_t>::max())
        ++mantissa;

    std::uint64_t value = mantissa;
    if (exp10 >= 0) {
        for (long k = 0; k < exp10 && value != 0; ++k) {
            if (value > std::numeric_limits<std::uint64_t>::max() / 10)
                return std::nullopt;
            value *= 10;
        }
    } else if (exp10 < -19) {
        value = 0; // far below a nanosecond
    } else {
        std::uint64_t divisor = 1;
        for (long k = 0; k < -exp10; ++k)
            divisor *= 10;
        const std::uint64_t rest = value % divisor;
        value /= divisor;
        if (rest >= divisor - rest)
            ++value;
    }
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (value > kMax)
        return std::nullopt;
    const auto signedValue = static_cast<std::int64_t>(value);
    return negative ? -signedValue : signedValue;
}

} // namespace wb
