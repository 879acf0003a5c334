#include "command_line/option_value.h"

namespace wb {

bool isOptionWord(const std::string& word) {
    return word.size() > 2 && word.rfind("--", 0) == 0;
}

std::optional<std::string> optionValueAfter(const std::vector<std::string>& words, std::size_t i) {
    if (i + 1 >= words.size() || isOptionWord(words[i + 1]))
        return std::nullopt;
    return words[i + 1];
}

std::string missingValueMessage(const std::string& option) {
    return (option.rfind("--", 0) == 0 ? option : "--" + option) + " needs a value";
}

} // namespace wb
