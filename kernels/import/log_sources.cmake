# Sources of the log importers (ncu CSV, NCCL log, nccl-tests): target_sources(wb_import PRIVATE ${CMAKE_CURRENT_LIST_DIR}/...)
target_sources(wb_import PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/line_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ncu_csv_importer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_log_importer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_ring_rebuild.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nccl_tests_importer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watchdog_log_importer.cpp
)
