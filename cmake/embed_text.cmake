# Script mode: writes INPUT as a raw string literal named SYMBOL into OUTPUT.
file(READ ${INPUT} _text)
string(FIND "${_text}" ")wbembed\"" _clash)
if(NOT _clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter")
endif()
file(WRITE ${OUTPUT}.tmp
  "// Generated from ${INPUT}; do not edit.\n#include <string_view>\nnamespace wb::embedded {\n"
  "extern const std::string_view ${SYMBOL};\n"
  "const std::string_view ${SYMBOL} = R\"wbembed(${_text})wbembed\";\n}\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
