#include "analysis/analysis_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb {

namespace {

nlohmann::ordered_json anCellJson(const AnalysisCell& c) {
    if (const auto* s = std::get_if<std::string>(&c))
        return *s;
    if (const auto* d = std::get_if<double>(&c))
        return *d;
    return std::get<std::int64_t>(c);
}

// Ten significant digits keep a µs figure's exact nanoseconds up to 10 s (1e7 µs), and
// print 0.1 + 0.2 as 0.3 rather than its binary tail.
std::string anCsvNumber(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string anCsvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (const char ch : s) {
        if (ch == '"')
            out += '"';
        out += ch;
    }
    return out + '"';
}

std::string anCellText(const AnalysisCell& c, int decimals) {
    if (const auto* s = std::get_if<std::string>(&c))
        return *s;
    if (const auto* i = std::get_if<std::int64_t>(&c))
        return std::to_string(*i);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::get<double>(c));
    return buf;
}

// Display width of UTF-8 text (µ is two bytes, one column).
std::size_t anWidth(const std::string& s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
}

} // namespace

nlohmann::ordered_json AnalysisTable::rowJson(std::size_t row) const {
    nlohmann::ordered_json o;
    for (std::size_t c = 0; c < columns.size(); ++c)
        o[columns[c].key] = anCellJson(rows[row][c]);
    return o;
}

nlohmann::ordered_json AnalysisTable::json() const {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (std::size_t r = 0; r < rows.size(); ++r)
        a.push_back(rowJson(r));
    return a;
}

std::string AnalysisTable::cellText(std::size_t row, std::size_t column) const {
    return anCellText(rows[row][column], columns[column].decimals);
}

std::string AnalysisTable::csv() const {
    std::string out;
    for (std::size_t c = 0; c < columns.size(); ++c)
        out.append(c ? "," : "").append(anCsvField(columns[c].key));
    out += '\n';
    for (const auto& row : rows) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            out.append(c ? "," : "");
            if (const auto* d = std::get_if<double>(&row[c]))
                out.append(anCsvNumber(*d));
            else
                out.append(anCsvField(anCellText(row[c], 0)));
        }
        out += '\n';
    }
    return out;
}

std::string AnalysisTable::text() const {
    std::vector<std::string> header;
    for (const AnalysisColumn& c : columns)
        header.push_back(c.unit.empty()
                             ? c.title
                             : std::string(c.title).append(" (").append(c.unit).append(")"));
    std::vector<std::vector<std::string>> cells;
    std::vector<std::size_t> width;
    for (const std::string& h : header)
        width.push_back(anWidth(h));
    for (const auto& row : rows) {
        auto& line = cells.emplace_back();
        for (std::size_t c = 0; c < columns.size(); ++c) {
            line.push_back(anCellText(row[c], columns[c].decimals));
            width[c] = std::max(width[c], anWidth(line.back()));
        }
    }
    std::string out = title;
    out += '\n';
    // Text columns left-aligned, numbers right-aligned, each header like its column.
    std::vector<bool> left(columns.size(), false);
    for (std::size_t c = 0; c < columns.size() && !rows.empty(); ++c)
        left[c] = std::holds_alternative<std::string>(rows.front()[c]);
    auto emit = [&](const std::vector<std::string>& line) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            const std::size_t pad = width[c] - anWidth(line[c]);
            if (c)
                text += "  ";
            if (left[c])
                text.append(line[c]).append(c + 1 < line.size() ? pad : 0, ' ');
            else
                text.append(pad, ' ').append(line[c]);
        }
        out.append(text).append("\n");
    };
    emit(header);
    for (const auto& line : cells)
        emit(line);
    if (rows.empty())
        out += "  (none)\n";
    return out;
}

} // namespace wb
