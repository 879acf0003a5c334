# What makes a first build short on a small machine (two cores build the app in a few
# minutes rather than half an hour): unity builds for the big libraries, so each batch of
# sources parses the standard library, nlohmann::json and Qt once, and a precompiled header
# of the Qt and standard headers every widget, app and test file includes. Both can be
# switched off (-DWARPBOARD_UNITY=OFF -DWARPBOARD_PCH=OFF), e.g. to check that every file
# includes what it uses.
option(WARPBOARD_UNITY "Compile the big libraries in unity batches" ON)
option(WARPBOARD_PCH "Precompile the Qt and standard headers" ON)
set(WARPBOARD_UNITY_BATCH 12 CACHE STRING "Sources per unity batch")

function(wb_unity target)
  if(WARPBOARD_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
      UNITY_BUILD_BATCH_SIZE ${WARPBOARD_UNITY_BATCH})
  endif()
endfunction()

# The headers nearly every Qt translation unit parses (widgets, app, Qt tests): precompiled
# once per target, or once for all tests (REUSE_FROM).
set(WB_QT_PCH_HEADERS <QtWidgets/QWidget> <QtGui/QPainter> <QtGui/QPainterPath>
    <QtGui/QFontMetricsF> <QtCore/QString> <QtCore/QObject> <string> <vector> <map>
    <memory> <optional> <variant> <algorithm> <functional>)

function(wb_qt_pch target)
  if(WARPBOARD_PCH)
    target_precompile_headers(${target} PRIVATE ${WB_QT_PCH_HEADERS})
  endif()
endfunction()
