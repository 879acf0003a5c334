#pragma once
// The argument checks the reliability models share, so every model words a bad value the
// same way (the CLI shows these messages as they are).
#include "engine/sentence.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

inline void requirePositive(double v, const std::string& what) {
    if (!std::isfinite(v) || !(v > 0.0))
        throw std::invalid_argument(fill("%1 must be a positive number", {what}));
}

inline void requireNonNegative(double v, const std::string& what) {
    if (!std::isfinite(v) || v < 0.0)
        throw std::invalid_argument(fill("%1 must be zero or a positive number", {what}));
}

// The enum whose name (its index in `names`) is `name`; otherwise std::invalid_argument
// listing the allowed names.
template <typename Enum>
Enum parseNamed(const std::vector<std::string>& names, const std::string& name,
                const std::string& what) {
    std::string all;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name)
            return static_cast<Enum>(i);
        all += (i ? "|" : "") + names[i];
    }
    throw std::invalid_argument(fill("unknown %1 '%2'; allowed: %3", {what, name, all}));
}

} // namespace wb
