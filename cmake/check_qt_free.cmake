# Script mode: cmake -DDIR=<folder> -P check_qt_free.cmake fails if DIR includes Qt.
list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR})
include(QtFreeScan)
wb_scan_qt_includes(${DIR} _bad)
if(_bad)
  list(JOIN _bad "\n  " _msg)
  message(FATAL_ERROR "Qt used in a Qt-free folder:\n  ${_msg}")
endif()
message(STATUS "${DIR}: Qt-free")
