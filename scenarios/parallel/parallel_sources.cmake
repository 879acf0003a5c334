# Parallelism models: pipeline bubble, cluster topology, transformer step.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cluster_topology.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout_search.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_budget.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pipeline_schedule.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pipeline_simulator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/strategy_timeline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/parallelism_strategies_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fabric_mapping_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/topology_frame_builder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transformer_step.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/calc/parallel_calc.cpp
)
