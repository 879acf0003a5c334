# RoCE vs InfiniBand: the incast simulation, DCQCN, the decision model.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/dcqcn_rate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fabric_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fabric_recommendation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fabric_sim.cpp
  ${CMAKE_CURRENT_LIST_DIR}/go_back_n.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roce_vs_infiniband_scenario.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/calc/fabric_calc.cpp
)
