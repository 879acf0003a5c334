# Embeds a text file (e.g. the hardware catalogue) into a Qt-free library as a
# std::string_view, so the binary needs no resource files at run time.
function(wb_embed_text target input symbol)
  get_filename_component(_name ${input} NAME_WE)
  set(_out ${CMAKE_CURRENT_BINARY_DIR}/embedded/${symbol}.cpp)
  add_custom_command(
    OUTPUT ${_out}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${_out} -DSYMBOL=${symbol}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake
    DEPENDS ${input} ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake
    COMMENT "Embedding ${_name}")
  target_sources(${target} PRIVATE ${_out})
endfunction()
