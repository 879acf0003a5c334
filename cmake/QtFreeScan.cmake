# wb_scan_qt_includes(dir outvar): lists "file: line" for every Qt include below dir.
# Shared by the configure-time check and the script-mode test (check_qt_free.cmake).
function(wb_scan_qt_includes dir outvar)
  file(GLOB_RECURSE _files ${dir}/*.h ${dir}/*.hpp ${dir}/*.cpp ${dir}/*.cu ${dir}/*.cuh)
  set(_bad "")
  foreach(_f IN LISTS _files)
    file(STRINGS ${_f} _hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](Q[A-Za-z]|Qt[A-Za-z]*/)")
    if(_hits)
      list(APPEND _bad "${_f}: ${_hits}")
    endif()
  endforeach()
  set(${outvar} "${_bad}" PARENT_SCOPE)
endfunction()
