#pragma once
// Labels built by appending: GCC 12 at -O3 warns falsely (-Wrestrict) on
// `"literal" + std::string`, and warnings are errors. Every scenario that builds labels from
// pieces calls these helpers instead of chaining operator+.
#include <string>

namespace wb {

// The pieces (string literals or std::strings) appended in order.
template <typename... Pieces> std::string concat(const Pieces&... pieces) {
    std::string s;
    (s.append(pieces), ...);
    return s;
}

inline std::string prefixed(const char* prefix, const std::string& text) {
    return concat(prefix, text);
}

} // namespace wb
