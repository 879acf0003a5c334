# Job summaries (warpboard-summarize, *.wbsum.json): the per-rank part that runs where a trace
# is read, the cross-rank part, and the summary's writer and reader (Qt-free).
target_sources(wb_scenarios PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/job_summary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_summary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/summary_wire.cpp
  ${CMAKE_CURRENT_LIST_DIR}/process_group.cpp
  ${CMAKE_CURRENT_LIST_DIR}/summarize_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/job_summarizer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/summary_analysis.cpp
)
