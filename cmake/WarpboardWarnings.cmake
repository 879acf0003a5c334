# Warnings apply to C++ only: nvcc rejects most of these flags.
function(wb_set_warnings target)
  set(_flags -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
             -Wcast-align -Woverloaded-virtual -Wconversion -Wsign-conversion
             -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  if(WARPBOARD_WERROR)
    list(APPEND _flags -Werror)
  endif()
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${_flags}>")
endfunction()
