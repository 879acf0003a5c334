#include "engine/typed_number.h"

#include "engine/number_format.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <iterator>
#include <string>
#include <utility>

namespace wb {

namespace {

// Spaces a keyboard or a copied number may carry (no-break, narrow no-break, thin) read as
// plain spaces, and the typographic minus as '-'.
std::string plainSpaces(std::string_view text) {
    static constexpr std::pair<std::string_view, char> kSpellings[] = {
        {"\u00a0", ' '}, {"\u202f", ' '}, {"\u2009", ' '}, {"\t", ' '}, {"\u2212", '-'}};
    std::string out;
    while (!text.empty()) {
        const auto* hit = std::find_if(std::begin(kSpellings), std::end(kSpellings),
                                       [&](const auto& s) { return text.starts_with(s.first); });
        if (hit != std::end(kSpellings)) {
            out += hit->second;
            text.remove_prefix(hit->first.size());
        } else {
            out += text.front();
            text.remove_prefix(1);
        }
    }
    return out;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

bool endsWithUnit(std::string_view s, std::string_view unit) {
    return !unit.empty() && s.size() >= unit.size() &&
           std::equal(unit.begin(), unit.end(), s.end() - static_cast<std::ptrdiff_t>(unit.size()),
                      [](char a, char b) {
                          return std::tolower(static_cast<unsigned char>(a)) ==
                                 std::tolower(static_cast<unsigned char>(b));
                      });
}

// The whole part without its group separators, or nullopt when they do not group it in
// threes: "1,057" -> "1057", "1 057 000" -> "1057000"; "1,5", "0,057" and "1,057 000" ->
// nullopt.
std::optional<std::string> ungrouped(std::string_view whole) {
    const auto sep = whole.find_first_of(", ");
    if (sep == std::string_view::npos)
        return std::string(whole);
    if (sep == 0 || sep > 3 || whole.front() == '0') // "0,057" is a decimal comma, not 57
        return std::nullopt;
    const char mark = whole[sep];
    std::string out(whole.substr(0, sep));
    for (std::size_t at = sep; at < whole.size(); at += 4) {
        const std::string_view group = whole.substr(at + 1, 3);
        if (whole[at] != mark || group.size() != 3 ||
            !std::all_of(group.begin(), group.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return std::nullopt;
        out += group;
    }
    return out;
}

} // namespace

std::optional<double> parseTypedNumber(std::string_view typed, std::string_view unit) {
    const std::string plain = plainSpaces(typed);
    std::string_view s = trimmed(plain);
    const std::string unitText = plainSpaces(trimmed(unit));
    if (endsWithUnit(s, unitText))
        s = trimmed(s.substr(0, s.size() - unitText.size()));
    // Sign, whole part, then the fraction and exponent, which are never grouped.
    std::string_view sign;
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
        sign = s.substr(0, 1);
        s.remove_prefix(1);
    }
    const std::size_t tail = std::min(s.find_first_of(".eE"), s.size());
    const auto whole = ungrouped(s.substr(0, tail));
    if (!whole || (whole->empty() && tail == s.size()))
        return std::nullopt;
    return parseNumber(std::string(sign) + *whole + std::string(s.substr(tail)));
}

} // namespace wb
