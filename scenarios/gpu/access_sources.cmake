# Sources of the access models (scenarios/gpu), added to wb_scenarios.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/../calc/gpu_access_calc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/expr/expression.cpp
  ${CMAKE_CURRENT_LIST_DIR}/simt_interpreter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_access_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transpose_model.cpp
)
