#include "engine/text_numbers.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace wb {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// A character that makes the digits after it part of a name: H100, sm_90, §3, SC'20, v1.2,
// 2(N−1) keeps its 2 but log₂'s subscripts are not digits anyway.
bool namesFollowingDigits(std::string_view text, std::size_t at) {
    if (at == 0)
        return false;
    const char p = text[at - 1];
    if (isAsciiLetter(p) || p == '_' || p == '\'' || p == '.' || p == '#' || p == '-')
        return !(p == '-' && (at < 2 || text[at - 2] == ' ' || text[at - 2] == '('));
    // "§" is C2 A7 in UTF-8.
    return at >= 2 && static_cast<unsigned char>(text[at - 2]) == 0xC2 &&
           static_cast<unsigned char>(p) == 0xA7;
}

// Spaces that may sit between a number and its unit: ASCII, no-break, thin, narrow no-break.
std::size_t skipSpace(std::string_view text, std::size_t at) {
    if (at < text.size() && text[at] == ' ')
        return at + 1;
    if (text.substr(at, 2) == "\xC2\xA0")
        return at + 2;
    if (text.substr(at, 3) == "\xE2\x80\x89" || text.substr(at, 3) == "\xE2\x80\xAF")
        return at + 3;
    return at;
}

// The SI scale of a unit word ("GB/s" -> 1e9), or 0 when the word is not a unit with a prefix
// Warpboard writes (a count noun such as "blocks" scales by 1 and is not read here).
double unitScale(std::string_view word) {
    static constexpr std::array<std::string_view, 12> kUnits{
        "B", "B/s", "b/s", "s", "FLOP", "FLOP/s", "FLOP/B", "Hz", "W", "bit", "b", "tok/s"};
    const auto isUnit = [](std::string_view w) {
        for (std::string_view u : kUnits)
            if (w == u)
                return true;
        return false;
    };
    if (isUnit(word))
        return 1.0;
    static constexpr std::array<std::pair<std::string_view, double>, 9> kPrefixes{
        {{"E", 1e18}, // formatBytes writes exabytes for absurd memory needs
         {"k", 1e3},
         {"M", 1e6},
         {"G", 1e9},
         {"T", 1e12},
         {"P", 1e15},
         {"m", 1e-3},
         {"\xC2\xB5", 1e-6},
         {"n", 1e-9}}};
    for (const auto& [prefix, scale] : kPrefixes)
        if (word.size() > prefix.size() && word.substr(0, prefix.size()) == prefix &&
            isUnit(word.substr(prefix.size())))
            return scale;
    if (word == "k") // an axis tick: "10 k"
        return 1e3;
    return 0.0;
}

} // namespace

std::vector<QuotedNumber> quotedNumbers(std::string_view text) {
    std::vector<QuotedNumber> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (!isDigit(text[i])) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        const bool name = namesFollowingDigits(text, start);
        std::string digits;
        int decimals = -1;
        while (i < text.size()) {
            const char c = text[i];
            if (isDigit(c)) {
                digits.push_back(c);
                if (decimals >= 0)
                    ++decimals;
                ++i;
            } else if (c == '.' && decimals < 0 && i + 1 < text.size() && isDigit(text[i + 1])) {
                digits.push_back('.');
                decimals = 0;
                ++i;
            } else if (c == ',' && decimals < 0 && i + 3 < text.size() + 0 &&
                       isDigit(text[i + 1]) && isDigit(text[i + 2]) && isDigit(text[i + 3]) &&
                       (i + 4 >= text.size() || !isDigit(text[i + 4]))) {
                ++i; // a thousands separator: "1,057"
            } else {
                break;
            }
        }
        // Superscript powers ("4096³") keep the number; a letter right after ("3D", "2K")
        // makes the whole a name.
        while (text.substr(i, 2) == "\xC2\xB2" || text.substr(i, 2) == "\xC2\xB3")
            i += 2;
        if (name || (i < text.size() && (isAsciiLetter(text[i]) || text[i] == '_')))
            continue;
        QuotedNumber q;
        q.shown = std::strtod(digits.c_str(), nullptr);
        q.step = std::pow(10.0, -std::max(0, decimals));
        std::size_t end = i;
        const std::size_t unitAt = skipSpace(text, i);
        if (unitAt < text.size() && text[unitAt] == '%') {
            q.percent = true;
            end = unitAt + 1;
        } else {
            std::size_t w = unitAt;
            while (w < text.size() &&
                   (isAsciiLetter(text[w]) || text[w] == '/' || text.substr(w, 2) == "\xC2\xB5"))
                w += text.substr(w, 2) == "\xC2\xB5" ? std::size_t{2} : std::size_t{1};
            const double scale = unitScale(text.substr(unitAt, w - unitAt));
            if (scale > 0.0) {
                q.scale = scale;
                end = w;
            }
        }
        q.text = std::string(text.substr(start, end - start));
        out.push_back(std::move(q));
        i = end;
    }
    return out;
}

bool shows(const QuotedNumber& q, double value) {
    const auto near = [&](double shown, double step, double v) {
        // Half a last digit of rounding, and a hair for the value's own floating point.
        return std::abs(std::abs(v) - shown) <= step * 0.5 * (1.0 + 1e-9) + 1e-12 * std::abs(v);
    };
    if (near(q.shown, q.step, value) || near(q.shown * q.scale, q.step * q.scale, value))
        return true;
    return q.percent && near(q.shown / 100.0, q.step / 100.0, value);
}

} // namespace wb
