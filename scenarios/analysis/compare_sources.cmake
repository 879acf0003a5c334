# warpboard analyze --compare: per-kernel and per-operator differences between two runs.
target_sources(wb_scenarios PRIVATE ${CMAKE_CURRENT_LIST_DIR}/trace_compare.cpp)
