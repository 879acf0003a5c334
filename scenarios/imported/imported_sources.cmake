# Helpers that turn the user's imported files (engine/imported_set.h) into what the lesson
# scenarios draw: Nsight Compute kernels, nccl-tests rows and their α-β fit, NCCL rings/trees,
# PyTorch watchdog timeouts.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/comm_graph_builder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ncu_kernels.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_tests_fit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watchdog_timeouts.cpp
)
