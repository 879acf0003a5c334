#include "cli/arguments.h"

#include "cli/cli_error.h"
#include "command_line/option_value.h"

#include <algorithm>

namespace wb::cli {

namespace {
bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}
} // namespace

Arguments::Arguments(const std::vector<std::string>& words, const std::vector<std::string>& flags) {
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (!isOptionWord(w)) {
            m_positionals.push_back(w);
            continue;
        }
        std::string name = w.substr(2);
        std::string val;
        const auto eq = name.find('=');
        if (eq != std::string::npos) {
            val = name.substr(eq + 1);
            name = name.substr(0, eq);
        } else if (contains(flags, name)) {
            m_flags[name] = 1;
            m_options.emplace_back(name, std::string{});
            continue;
        } else {
            const auto next = optionValueAfter(words, i);
            if (!next)
                throw CliError(missingValueMessage(name));
            val = *next;
            ++i;
        }
        m_options.emplace_back(name, val);
    }
}

std::optional<std::string> Arguments::value(const std::string& name) const {
    std::optional<std::string> out;
    for (const auto& [k, v] : m_options)
        if (k == name && !m_flags.count(k))
            out = v;
    return out;
}

std::vector<std::string> Arguments::values(const std::string& name) const {
    std::vector<std::string> out;
    for (const auto& [k, v] : m_options)
        if (k == name)
            out.push_back(v);
    return out;
}

void Arguments::requireKnown(const std::vector<std::string>& allowed,
                             const std::string& context) const {
    for (const auto& [k, v] : m_options) {
        if (!contains(allowed, k)) {
            std::vector<std::string> dashed;
            for (const auto& a : allowed)
                dashed.push_back("--" + a);
            throw CliError("unknown option --" + k + " for " + context +
                           "; allowed: " + joinAllowed(dashed, ", "));
        }
    }
}

std::string joinAllowed(const std::vector<std::string>& values, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < values.size(); ++i)
        out += (i ? sep : "") + values[i];
    return out;
}

} // namespace wb::cli
