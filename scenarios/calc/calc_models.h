#pragma once
// The models behind `warpboard calc MODEL --key value ... --json`. Each model declares its
// arguments as ParamSpecs (so range errors read the same as in the GUI) and returns one
// JSON object computed by the same functions the scenarios draw with.
#include "engine/params.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

// A valid-looking argument set that the model still rejects (e.g. FP8 on an A100).
struct CalcError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CalcModel {
    std::string id;
    std::string summary;
    std::vector<ParamSpec> arguments;
    std::function<nlohmann::ordered_json(const Params&)> run; // may throw CalcError
};

const std::vector<CalcModel>& calcModels();
const CalcModel* findCalcModel(std::string_view id);

} // namespace wb
