#pragma once
// The static list of scenarios. Adding a scenario is one line in registry.cpp.
#include "engine/scenario.h"

#include <memory>
#include <string_view>
#include <vector>

namespace wb {

const std::vector<std::unique_ptr<Scenario>>& allScenarios();
const Scenario* findScenario(std::string_view id);
const Scenario& defaultScenario();

} // namespace wb
