#include "engine/params.h"

#include "engine/number_format.h"

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
        throw std::out_of_range("no numeric parameter '" + name + "'");
    return it->second;
}

long long Params::integer(const std::string& name) const {
    return std::llround(number(name));
}

const std::string& Params::text(const std::string& name) const {
    auto it = m_texts.find(name);
    if (it == m_texts.end())
        throw std::out_of_range("no choice or text parameter '" + name + "'");
    return it->second;
}

std::string Params::describe(const ParamSpec& s) {
    if (s.kind == ParamSpec::Kind::Text)
        return s.name + " (text)";
    if (s.kind == ParamSpec::Kind::Choice) {
        std::string out = s.name + " (";
        for (size_t i = 0; i < s.choices.size(); ++i)
            out += (i ? "|" : "") + s.choices[i];
        return out + ")";
    }
    std::string out = s.name + " (" + formatNumber(s.min) + "…" + formatNumber(s.max);
    if (!s.unit.empty())
        out += " " + s.unit;
    if (s.kind == ParamSpec::Kind::Integer)
        out += ", integer";
    return out + ")";
}

std::optional<std::string> Params::setNumber(const std::string& name, double value) {
    const ParamSpec* s = spec(name);
    if (!s)
        return "unknown parameter '" + name + "'";
    if (s->kind == ParamSpec::Kind::Choice || s->kind == ParamSpec::Kind::Text)
        return "parameter '" + name + "' is not a number; allowed " + describe(*s);
    if (!std::isfinite(value) || value < s->min || value > s->max)
        return "parameter '" + name + "' = " + formatNumber(value) + " is out of range; allowed " +
               describe(*s);
    if (s->kind == ParamSpec::Kind::Integer && value != std::round(value))
        return "parameter '" + name + "' must be a whole number; allowed " + describe(*s);
    m_numbers[name] = value;
    m_set.insert(name);
    return std::nullopt;
}

std::optional<std::string> Params::set(const std::string& name, const std::string& value) {
    const ParamSpec* s = spec(name);
    if (!s)
        return "unknown parameter '" + name + "'";
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
        return "parameter '" + name + "' = '" + value + "' is not allowed; allowed " + describe(*s);
    }
    auto parsed = parseNumber(value);
    if (!parsed)
        return "parameter '" + name + "' = '" + value + "' is not a number; allowed " +
               describe(*s);
    return setNumber(name, *parsed);
}

} // namespace wb
