#pragma once
// A number as a person types it into a field ("1057", "1,057", "1 057", "3.35e3", "75 %"):
// one reader for the answer card's "Check yourself" fields, Qt-free so its test needs no GUI.
#include <optional>
#include <string_view>

namespace wb {

// The value of `typed`, or nullopt when it is not one number. Spaces around it are dropped;
// the whole part may be grouped in threes by commas or spaces (one kind throughout: "1,057",
// "1 057", "1,057,000"; never after a leading 0); an exponent is allowed ("3.35e3"); the
// question's `unit` may follow, with or without a space ("75 %", "75%", "8 blocks"). Nothing
// else: "1,5", "0,057", "12 34", "8x" and "" are not numbers.
std::optional<double> parseTypedNumber(std::string_view typed, std::string_view unit = {});

} // namespace wb
