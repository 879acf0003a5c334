#pragma once
// The check every model makes of its inputs: a false condition is the caller's mistake,
// reported as std::invalid_argument carrying the message (the command line and the panel both
// show it as it is).
#include <stdexcept>
#include <string>

namespace wb {

inline void require(bool ok, const std::string& message) {
    if (!ok)
        throw std::invalid_argument(message);
}

} // namespace wb
