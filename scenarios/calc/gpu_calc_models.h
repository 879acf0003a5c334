#pragma once
// Calc models that live in their own files, appended to the calc registry.
#include "calc/calc_models.h"

#include <vector>

namespace wb {

// access, banks, transpose, divergence (memory access model, SIMT interpreter).
void appendAccessCalcModels(std::vector<CalcModel>& models);
// occupancy, waves, littles-law (occupancy calculator, Little's law).
void appendOccupancyCalcModels(std::vector<CalcModel>& models);
// pipeline, step, collective (parallelism and cluster models).
void appendParallelCalcModels(std::vector<CalcModel>& models);
// checkpoint, goodput, blast-radius, hang, stragglers (reliability models).
void appendReliabilityCalcModels(std::vector<CalcModel>& models);
// fabric, fabric-decision (the roce-vs-infiniband incast simulation and the IB-or-RoCE decision
// model).
void appendFabricCalcModels(std::vector<CalcModel>& models);
// gpu-util, rdma-path (nccl-topology: NVML's GPU-Util vs SM activity, GPUDirect RDMA vs the
// bounce).
void appendNodeCalcModels(std::vector<CalcModel>& models);
// memory, activations, schedule, claims (memory budget, cluster scheduler, claims check).
void appendPlanningCalcModels(std::vector<CalcModel>& models);
// moe (expert capacity, dropped tokens, expert-parallel all-to-all).
void appendMoeCalcModels(std::vector<CalcModel>& models);

} // namespace wb
