# Tests of the occupancy models (scenarios/gpu): calculator, waves, Little's law, warp
# scheduler simulation and their calc models.
foreach(t occupancy_calculator wave_model thread_map littles_law warp_scheduler_sim occupancy_calc)
  wb_add_test(test_${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_${t}.cpp LIBS wb_scenarios)
endforeach()
