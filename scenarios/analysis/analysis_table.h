#pragma once
// One table of `warpboard analyze`: columns with a key that names the unit (compute_us,
// overlap_pct), a title and a unit for the readable report, and rows of cells. The text
// report, the CSV files and the JSON rows are all written from it, so the three agree.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace wb {

struct AnalysisColumn {
    std::string key;   // JSON key and CSV header: "compute_us"
    std::string title; // "compute"
    std::string unit;  // "µs", "%", "" (shown in the report's header)
    int decimals = 1;  // in the readable report; CSV and JSON keep full precision
};

using AnalysisCell = std::variant<std::string, double, std::int64_t>;

struct AnalysisTable {
    std::string id;    // file name of its CSV: "per_rank" → per_rank.csv
    std::string title; // heading in the report
    std::vector<AnalysisColumn> columns;
    std::vector<std::vector<AnalysisCell>> rows;

    nlohmann::ordered_json rowJson(std::size_t row) const;
    nlohmann::ordered_json json() const; // an array of row objects
    std::string csv() const;             // header row, then one line per row
    std::string text() const;            // title, aligned columns with units
    // One cell as the readable report prints it (the column's decimals): the panels of the
    // Traces workspace show the same text.
    std::string cellText(std::size_t row, std::size_t column) const;
};

} // namespace wb
