#pragma once
// The calc models of the "inside one GPU" scenarios, appended to the calc registry.
#include "calc/calc_models.h"

#include <vector>

namespace wb {

// access, banks, transpose, divergence (memory access model, SIMT interpreter).
void appendAccessCalcModels(std::vector<CalcModel>& models);
// occupancy, waves, littles-law (occupancy calculator, Little's law).
void appendOccupancyCalcModels(std::vector<CalcModel>& models);

} // namespace wb
