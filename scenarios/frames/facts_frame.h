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

// Table: label, value and source per row, compact beside a picture. Slide: the rows are the
// points of a spoken answer (the whiteboard step), numbered and as large as the stage allows.
enum class FactsLayout { Table, Slide };

struct FactsFrame {
    std::string title;
    std::vector<FactRow> rows;
    FactsLayout layout = FactsLayout::Table;
    bool operator==(const FactsFrame&) const = default;
};

} // namespace wb
