#pragma once
// One way to build a sentence: a pattern with %1…%9 filled from already formatted values
// (formatCount, formatSi, formatPercent, …), so the words around a number are written once
// and every number in them is a value the model produced.
#include <initializer_list>
#include <string>
#include <string_view>

namespace wb {

// "%1 of %2 SMs" with {"12", "132"} -> "12 of 132 SMs". A %n without an argument is a
// programming error and stays in the text (a test that reads the text sees it).
std::string fill(std::string_view pattern, std::initializer_list<std::string_view> args);

} // namespace wb
