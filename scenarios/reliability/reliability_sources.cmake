# Reliability models: checkpoint interval, failure Monte Carlo, Llama 3's
# interruption table, stragglers, blast radius, the silent hang; and their calc commands.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/blast_radius_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/checkpoint_interval.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cluster_failure_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collective_hang.cpp
  ${CMAKE_CURRENT_LIST_DIR}/failure_simulator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/failures_checkpoint_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/llama3_interruptions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/silent_hang_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/straggler_detection.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/calc/reliability_calc.cpp
)
