#pragma once
// A short table of the numbers a step is about, each with its unit and source, so that no
// number appears on screen without saying where it comes from.
#include <string>
#include <vector>

namespace wb {

struct FactRow {
    std::string label;
    std::string value; // formatted with its unit
    std::string source;
    bool emphasis = false;
    bool operator==(const FactRow&) const = default;
};

struct FactsFrame {
    std::string title;
    std::vector<FactRow> rows;
    bool operator==(const FactsFrame&) const = default;
};

} // namespace wb
