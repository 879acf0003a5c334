#include "calc/calc_models.h"
#include "cli/arguments.h"
#include "cli/cli_error.h"
#include "cli/commands.h"

#include <iostream>

namespace wb::cli {

namespace {
std::vector<std::string> modelIds() {
    std::vector<std::string> ids;
    for (const auto& m : calcModels())
        ids.push_back(m.id);
    return ids;
}

void printText(const nlohmann::ordered_json& j) {
    for (const auto& [k, v] : j.items())
        std::cout << k << ": " << (v.is_string() ? v.get<std::string>() : v.dump()) << "\n";
}
} // namespace

std::string calcUsage(const std::string& model) {
    const CalcModel* m = findCalcModel(model);
    if (!m)
        return {};
    std::string out = "warpboard calc " + m->id;
    for (const auto& a : m->arguments)
        out += a.required ? " --" + a.name + " V" : " [--" + a.name + " V]";
    out += " [--json]\n  " + m->summary + "\n";
    for (const auto& a : m->arguments)
        out += "  --" + Params::describe(a) + (a.required ? "" : "  optional") + "\n";
    return out;
}

int runCalc(const std::vector<std::string>& words) {
    const Arguments args(words, {"json", "help"});
    const auto& pos = args.positionals();
    if (pos.empty()) {
        if (args.flag("help")) {
            for (const auto& m : calcModels())
                std::cout << calcUsage(m.id) << "\n";
            return 0;
        }
        throw CliError("calc needs a model; allowed: " + joinAllowed(modelIds()));
    }
    const CalcModel* model = findCalcModel(pos.front());
    if (!model)
        throw CliError("unknown calc model '" + pos.front() +
                       "'; allowed: " + joinAllowed(modelIds()));
    if (pos.size() > 1)
        throw CliError("unexpected argument '" + pos[1] + "' for calc " + model->id);
    if (args.flag("help")) {
        std::cout << calcUsage(model->id);
        return 0;
    }
    std::vector<std::string> allowed{"json", "help"};
    for (const auto& a : model->arguments)
        allowed.push_back(a.name);
    args.requireKnown(allowed, "calc " + model->id);

    Params params(model->arguments);
    for (const auto& [name, value] : args.options()) {
        if (name == "json" || name == "help")
            continue;
        if (auto err = params.set(name, value))
            throw CliError("calc " + model->id + ": " + *err);
    }
    for (const auto& a : model->arguments)
        if (a.required && !params.isSet(a.name))
            throw CliError("calc " + model->id + ": missing --" + Params::describe(a));
    nlohmann::ordered_json result;
    try {
        result = model->run(params);
    } catch (const CalcError& e) {
        throw CliError("calc " + model->id + ": " + e.what());
    }
    if (args.flag("json"))
        std::cout << result.dump(2) << "\n";
    else
        printText(result);
    return 0;
}

} // namespace wb::cli
