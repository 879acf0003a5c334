#include "calc/gpu_calc_models.h"

namespace wb {

void appendOccupancyCalcModels(std::vector<CalcModel>& models) {
    (void)models; // the occupancy models register here as they land
}

} // namespace wb
