# Sources of the occupancy models (scenarios/gpu), added to wb_scenarios.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/occupancy_calculator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wave_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/thread_map.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hbm_latency.cpp
  ${CMAKE_CURRENT_LIST_DIR}/littles_law.cpp
  ${CMAKE_CURRENT_LIST_DIR}/warp_scheduler_sim.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../calc/gpu_occupancy_calc.cpp
)
