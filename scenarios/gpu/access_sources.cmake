# Sources of the access models (scenarios/gpu), added to wb_scenarios.
target_sources(wb_scenarios PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../calc/gpu_access_calc.cpp)
