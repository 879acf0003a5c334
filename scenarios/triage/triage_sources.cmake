# Sources of the slowdown triage: target_sources(wb_scenarios PRIVATE ${CMAKE_CURRENT_LIST_DIR}/...)
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/kineto_trace_generator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_analysis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triage_verdict.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triage_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slowdown_triage_scenario.cpp
)
