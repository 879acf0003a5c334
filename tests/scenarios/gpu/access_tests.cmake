# Tests of the access models (CMAKE_CURRENT_LIST_DIR is this folder; expression language, SIMT interpreter, memory access,
# transpose, their calc models).
foreach(t expression simt_interpreter memory_access_model transpose_model access_calc)
  wb_add_test(test_${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_${t}.cpp LIBS wb_scenarios)
endforeach()
