# warpboard analyze: HTA-style analyses of imported traces (Qt-free).
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/analysis_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/duration_stats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_launches.cpp
  ${CMAKE_CURRENT_LIST_DIR}/idle_breakdown.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernel_breakdown.cpp
  ${CMAKE_CURRENT_LIST_DIR}/launch_stats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profiler_steps.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_breakdown.cpp
  ${CMAKE_CURRENT_LIST_DIR}/straggler_candidates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/temporal_breakdown.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trace_analysis.cpp
)
# It includes the reliability model's straggler_detection.h, whose wb::median would meet
# triage_verdict.cpp's file-local median in one unity batch.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/straggler_candidates.cpp
  PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
