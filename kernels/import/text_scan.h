#pragma once
// Small helpers shared by the text importers: trimming, whitespace tokens and number parsing
// that keeps integers exact (sizes above 2^53 must not pass through a double).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb::text {

std::string_view trim(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
std::vector<std::string_view> splitWhitespace(std::string_view s);
// Whole-string parses; nullopt when anything but the number is present.
std::optional<std::int64_t> parseInt(std::string_view s);
std::optional<double> parseDouble(std::string_view s);
// ncu writes "1,342,177,280": the commas are thousands separators, never decimal marks.
std::optional<double> parseGroupedNumber(std::string_view s);
// Invalid UTF-8 sequences become U+FFFD so results can always be written as JSON.
bool isValidUtf8(std::string_view s);
std::string toValidUtf8(std::string_view s);
// True when the bytes look like text (no NUL and mostly printable), used by probes.
bool looksLikeText(std::string_view head);

} // namespace wb::text
