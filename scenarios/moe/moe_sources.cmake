# Mixture of experts: capacity and drops, skewed routing, expert-parallel
# all-to-all, the toy router trained on its own routing, and `calc moe`.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/capacity_dispatcher.cpp
  ${CMAKE_CURRENT_LIST_DIR}/expert_parallel_traffic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/moe_routing_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/moe_routing_sim.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skewed_routing.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/calc/moe_calc.cpp
)
