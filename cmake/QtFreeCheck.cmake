# scenarios/ and kernels/ must stay free of Qt so that models are testable and reusable
# without a GUI stack. This runs at configure time and fails the configure if a source
# includes a Qt header or the target links a Qt library. tests/ runs the same scan in
# script mode against a planted Qt include to prove the check can fail.
include(QtFreeScan)
function(wb_require_qt_free target dir)
  wb_scan_qt_includes(${dir} _bad)
  get_target_property(_libs ${target} LINK_LIBRARIES)
  foreach(_l IN LISTS _libs)
    if(_l MATCHES "Qt[0-9]*::|^Qt")
      list(APPEND _bad "${target} links ${_l}")
    endif()
  endforeach()
  if(_bad)
    list(JOIN _bad "\n  " _msg)
    message(FATAL_ERROR "${target} must not use Qt:\n  ${_msg}")
  endif()
endfunction()
