#include "calc/gpu_calc_models.h"

namespace wb {

void appendAccessCalcModels(std::vector<CalcModel>& models) {
    (void)models; // the access models register here as they land
}

} // namespace wb
