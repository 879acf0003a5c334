# Sources of the trace importers (Chrome/Kineto): target_sources(wb_import PRIVATE ${CMAKE_CURRENT_LIST_DIR}/...)
target_sources(wb_import PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/chrome_trace_importer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chrome_trace_result.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_pull_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/micros_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_kernel_name.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_from_path.cpp
  ${CMAKE_CURRENT_LIST_DIR}/string_pool.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trace_store.cpp
)
