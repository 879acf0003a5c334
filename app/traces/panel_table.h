#pragma once
// A table of text drawn legibly on a panel: headers carry the units ("compute (µs)") and
// wrap at spaces, numbers are right-aligned, one named column (a kernel's name) wraps onto
// as many lines as it needs, nothing is elided. On a bounded page the rows stop where the
// page does and a line says how many are left and where they all are (the CSV); a docked
// page shows up to kDockedTableRows. Every panel's table and the comparison's go through here.
#include "analysis/analysis_table.h"
#include "traces/panel_canvas.h"

#include <QString>
#include <algorithm>
#include <cstddef>
#include <vector>

namespace wb {

inline constexpr std::size_t kDockedTableRows = 400;

struct PanelTable {
    QString id;    // the CSV's stem, named in the "N more rows" line; empty: none
    QString title; // drawn above as a heading; empty: none
    std::vector<QString> headers;
    std::vector<bool> alignRight; // per column: numbers
    std::vector<std::vector<QString>> rows;
    int wrapColumn = -1; // the column that wraps (a name); -1: the widest text column
    // The rows of the table it shows when `rows` holds only the first ones: no page draws
    // more than kDockedTableRows, so 131,072 rows (16,384 ranks × 8 steps) are not all made.
    std::size_t totalRows = 0;
    std::size_t rowCount() const { return std::max(totalRows, rows.size()); }
};

// An AnalysisTable as a panel shows it: the report's cell text, "title (unit)" headers; its
// first kDockedTableRows rows, the count of all in totalRows.
PanelTable panelTable(const AnalysisTable& table);

// Draws `table` at the canvas cursor and moves it past the table. Returns the box of each
// row drawn (index = row), so a panel can make the rows clickable; rows not drawn are absent.
// `pageShare`: on a bounded page, the share of the height left that the table may take (a
// panel with two tables leaves the second its room); ignored on a docked page.
std::vector<QRectF> drawPanelTable(PanelCanvas& canvas, const PanelTable& table,
                                   double pageShare = 1.0);

} // namespace wb
