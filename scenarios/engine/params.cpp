#include "engine/params.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <cmath>
#include <stdexcept>

namespace wb {

Params::Params(std::vector<ParamSpec> specs)
    : m_specs(std::move(specs)) {
    for (const auto& s : m_specs) {
        if (s.kind == ParamSpec::Kind::Choice || s.kind == ParamSpec::Kind::Text)
            m_texts[s.name] = s.defaultChoice;
        else
            m_numbers[s.name] = s.defaultValue;
    }
}

const ParamSpec* Params::spec(const std::string& name) const {
    for (const auto& s : m_specs)
        if (s.name == name)
            return &s;
    return nullptr;
}

double Params::number(const std::string& name) const {
    auto it = m_numbers.find(name);
    if (it == m_numbers.end())
        throw std::out_of_range(fill("no numeric parameter '%1'", {name}));
    return it->second;
}

long long Params::integer(const std::string& name) const {
    return std::llround(number(name));
}

const std::string& Params::text(const std::string& name) const {
    auto it = m_texts.find(name);
    if (it == m_texts.end())
        throw std::out_of_range(fill("no choice or text parameter '%1'", {name}));
    return it->second;
}

std::string Params::describe(const ParamSpec& s) {
    if (s.kind == ParamSpec::Kind::Text)
        return fill("%1 (text)", {s.name});
    if (s.kind == ParamSpec::Kind::Choice) {
        std::string choices;
        for (size_t i = 0; i < s.choices.size(); ++i)
            choices += (i ? "|" : "") + s.choices[i];
        return fill("%1 (%2)", {s.name, choices});
    }
    return fill(s.kind == ParamSpec::Kind::Integer ? "%1 (%2…%3%4, integer)" : "%1 (%2…%3%4)",
                {s.name, formatNumber(s.min), formatNumber(s.max),
                 s.unit.empty() ? std::string{} : fill(" %1", {s.unit})});
}

std::optional<std::string> Params::setNumber(const std::string& name, double value) {
    const ParamSpec* s = spec(name);
    if (!s)
        return fill("unknown parameter '%1'", {name});
    if (s->kind == ParamSpec::Kind::Choice || s->kind == ParamSpec::Kind::Text)
        return fill("parameter '%1' is not a number; allowed %2", {name, describe(*s)});
    if (!std::isfinite(value) || value < s->min || value > s->max)
        return fill("parameter '%1' = %2 is out of range; allowed %3",
                    {name, formatNumber(value), describe(*s)});
    if (s->kind == ParamSpec::Kind::Integer && value != std::round(value))
        return fill("parameter '%1' must be a whole number; allowed %2", {name, describe(*s)});
    m_numbers[name] = value;
    m_set.insert(name);
    return std::nullopt;
}

std::optional<std::string> Params::set(const std::string& name, const std::string& value) {
    const ParamSpec* s = spec(name);
    if (!s)
        return fill("unknown parameter '%1'", {name});
    if (s->kind == ParamSpec::Kind::Text) {
        m_texts[name] = value;
        m_set.insert(name);
        return std::nullopt;
    }
    if (s->kind == ParamSpec::Kind::Choice) {
        for (const auto& c : s->choices) {
            if (c == value) {
                m_texts[name] = value;
                m_set.insert(name);
                return std::nullopt;
            }
        }
        return fill("parameter '%1' = '%2' is not allowed; allowed %3",
                    {name, value, describe(*s)});
    }
    auto parsed = parseNumber(value);
    if (!parsed)
        return fill("parameter '%1' = '%2' is not a number; allowed %3",
                    {name, value, describe(*s)});
    return setNumber(name, *parsed);
}

} // namespace wb
