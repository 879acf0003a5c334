#pragma once
// Labels built by appending: GCC 12 at -O3 warns falsely (-Wrestrict) on
// `"literal" + std::string`, and warnings are errors. Sentences with words around values are
// fill() patterns (engine/sentence.h); this helper is for a fixed prefix before one text.
#include <string>

namespace wb {

inline std::string prefixed(const char* prefix, const std::string& text) {
    std::string s = prefix;
    s.append(text);
    return s;
}

} // namespace wb
