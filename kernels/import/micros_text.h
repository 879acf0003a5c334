#pragma once
// Trace timestamps are microseconds written as JSON numbers ("1665536373729077",
// "4443247216.123", rarely "1.5e3"). Kineto's values are ~1.7e15 µs, where a double keeps
// only whole microseconds, so the text itself is turned into integer nanoseconds.
#include <cstdint>
#include <optional>
#include <string_view>

namespace wb {

// Integer nanoseconds for a JSON number of microseconds, rounded half away from zero below
// 1 ns; nullopt when the text is not a number or the value does not fit in int64.
std::optional<std::int64_t> microsTextToNs(std::string_view text);

} // namespace wb
