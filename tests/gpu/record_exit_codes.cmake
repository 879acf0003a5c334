# Checks warpboard-record's exit codes (run by ctest with -DRECORD, -DOUT, -DCUDA).
cmake_minimum_required(VERSION 3.25) # IN_LIST needs the modern policies
function(run_record expected_codes)
  execute_process(COMMAND ${RECORD} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc IN_LIST expected_codes)
    message(FATAL_ERROR "warpboard-record ${ARGN}: exit ${rc}, expected one of "
                        "${expected_codes}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(last_rc ${rc} PARENT_SCOPE)
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

run_record("2")
run_record("2" no-such-scenario --out ${OUT})
if(NOT last_err MATCHES "roofline")
  message(FATAL_ERROR "unknown id must list the allowed ones, got: ${last_err}")
endif()
run_record("2" roofline --bogus)
run_record("2" roofline --device x)

if(CUDA)
  # With CUDA built in, this machine may or may not have a GPU.
  run_record("0;3" warp-divergence --quick --out ${OUT})
else()
  run_record("3" all --out ${OUT})
endif()
if(last_rc EQUAL 3)
  if(NOT last_out MATCHES ": no GPU: ")
    message(FATAL_ERROR "exit 3 must say 'no GPU: <reason>', got: ${last_out}")
  endif()
elseif(NOT EXISTS ${OUT}/warp-divergence.json)
  message(FATAL_ERROR "exit 0 but ${OUT}/warp-divergence.json was not written")
endif()
message(STATUS "warpboard-record exit codes ok (last run: ${last_rc}: ${last_out})")
