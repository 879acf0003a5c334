# Sources of the slowdown triage (C4): target_sources(wb_scenarios PRIVATE ${CMAKE_CURRENT_LIST_DIR}/...)
