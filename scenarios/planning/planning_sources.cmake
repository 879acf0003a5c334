# Planning models: the cluster scheduler simulation, its job trace and
# placement rules, and the claims check; their `calc` commands (memory, activations, schedule,
# claims) live in calc/planning_calc.cpp.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/claims_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cluster_scheduler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gang_allocation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_placement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/job_trace.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_budget_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scale_fluency_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scheduler_scenario.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/calc/planning_calc.cpp
)
