#pragma once
// Splits argv into the command word, --key value options and --flags, without Qt, so the
// calc and list commands run with no application object at all.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb::cli {

class Arguments {
public:
    // `flags` are options that take no value (e.g. "json", "present"); every other
    // --name takes the next word (or "--name=value"); values() collects repeated ones.
    // Throws CliError "--name needs a value" when the next word is missing or is itself an
    // option (command_line/option_value.h, the rule every command shares).
    Arguments(const std::vector<std::string>& words, const std::vector<std::string>& flags);

    const std::vector<std::string>& positionals() const { return m_positionals; }
    bool flag(const std::string& name) const { return m_flags.count(name) != 0; }
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;
    // Options given in order of appearance (name, value); flags have an empty value.
    const std::vector<std::pair<std::string, std::string>>& options() const { return m_options; }

    // Throws CliError naming the first option not in `allowed` (flags and valued options).
    void requireKnown(const std::vector<std::string>& allowed, const std::string& context) const;

private:
    std::vector<std::string> m_positionals;
    std::map<std::string, int> m_flags;
    std::vector<std::pair<std::string, std::string>> m_options;
};

std::string joinAllowed(const std::vector<std::string>& values, const std::string& sep = "|");

} // namespace wb::cli
