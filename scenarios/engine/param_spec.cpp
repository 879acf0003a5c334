#include "engine/param_spec.h"

#include <utility>

namespace wb {

namespace {
ParamSpec numeric(ParamSpec::Kind kind, std::string name, std::string label, std::string unit,
                  double min, double max, double def, bool log, std::string help) {
    ParamSpec s;
    s.kind = kind;
    s.name = std::move(name);
    s.label = std::move(label);
    s.unit = std::move(unit);
    s.min = min;
    s.max = max;
    s.defaultValue = def;
    s.logScale = log;
    s.help = std::move(help);
    return s;
}
} // namespace

ParamSpec ParamSpec::integer(std::string name, std::string label, std::string unit, double min,
                             double max, double def, bool log, std::string help) {
    return numeric(Kind::Integer, std::move(name), std::move(label), std::move(unit), min, max, def,
                   log, std::move(help));
}

ParamSpec ParamSpec::real(std::string name, std::string label, std::string unit, double min,
                          double max, double def, bool log, std::string help) {
    return numeric(Kind::Real, std::move(name), std::move(label), std::move(unit), min, max, def,
                   log, std::move(help));
}

ParamSpec ParamSpec::choice(std::string name, std::string label, std::vector<std::string> choices,
                            std::string def, std::string help) {
    ParamSpec s;
    s.kind = Kind::Choice;
    s.name = std::move(name);
    s.label = std::move(label);
    s.choices = std::move(choices);
    s.defaultChoice = std::move(def);
    s.help = std::move(help);
    return s;
}

ParamSpec ParamSpec::text(std::string name, std::string label, std::string def, std::string help) {
    ParamSpec s;
    s.kind = Kind::Text;
    s.name = std::move(name);
    s.label = std::move(label);
    s.defaultChoice = std::move(def);
    s.help = std::move(help);
    return s;
}

} // namespace wb
