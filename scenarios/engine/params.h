#pragma once
// A set of parameter values checked against their specs. Values that are out of range or
// not among the choices are rejected with a message that names the allowed values, so the
// command line and the GUI report the same thing.
#include "engine/param_spec.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace wb {

class Params {
public:
    Params() = default;
    explicit Params(std::vector<ParamSpec> specs); // every value at its default

    const std::vector<ParamSpec>& specs() const { return m_specs; }
    const ParamSpec* spec(const std::string& name) const;

    double number(const std::string& name) const;
    long long integer(const std::string& name) const;
    const std::string& text(const std::string& name) const;
    bool isSet(const std::string& name) const { return m_set.count(name) != 0; }

    // Sets from text ("8", "1e6", "h100-sxm"). Returns an error message, or nullopt.
    std::optional<std::string> set(const std::string& name, const std::string& value);
    std::optional<std::string> setNumber(const std::string& name, double value);

    // "name (min…max unit)" or "name (a|b|c)": used in error messages and --help.
    static std::string describe(const ParamSpec& spec);

    bool operator==(const Params&) const = default;

private:
    std::vector<ParamSpec> m_specs;
    std::map<std::string, double> m_numbers;
    std::map<std::string, std::string> m_texts;
    std::set<std::string> m_set; // explicitly given, not defaulted
};

} // namespace wb
