#pragma once
// The one rule every command line of Warpboard follows for an option's value (`warpboard
// calc/export/import`, the GUI options, `warpboard record` and the Qt-free
// `warpboard-record`): "--name value" takes the next word, unless there is none or the next
// word is itself an option. "--ranks --bytes 1e9" is a forgotten value, not a value
// "--bytes", so it says "--ranks needs a value" instead of failing later on "1e9". Qt-free
// and C++17, so the recorder built without Qt uses it too.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// True for "--name" and "--name=value": a word that starts an option, never a value.
// A lone "--" and single-dash words ("-5", "-h") are not options here.
bool isOptionWord(const std::string& word);

// The value of the option at words[i]: words[i + 1] when it exists and is not an option.
std::optional<std::string> optionValueAfter(const std::vector<std::string>& words, std::size_t i);

// "--ranks needs a value" for option "--ranks" (or "ranks").
std::string missingValueMessage(const std::string& option);

} // namespace wb
