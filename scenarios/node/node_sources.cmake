# NCCL topology: the server diagram, modeled rings/trees, RDMA paths, GPU-Util.
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/collective_wait_timeline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_util_sampler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_channels.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_log_topology.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_topology_scenario.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_diagram.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_routes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rdma_path.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/calc/node_calc.cpp
)
