#pragma once
// Horizontal stacked bars, one row per rank or stream, for the temporal, idle and kernel
// panels: a legend of the series, then rows of label · bar · note, the note carrying the
// figures in their units so the bar is never the only place a number is. Bars are drawn to
// a common scale (scaleMax) or each to its own total (shares); a page that cannot hold every
// row ends with a line saying how many are left and where they are.
#include "traces/panel_canvas.h"

#include <QColor>
#include <QString>
#include <algorithm>
#include <vector>

namespace wb {

struct StackedRow {
    QString label;              // "rank 3"
    std::vector<double> values; // one per series, ≥ 0
    QString note;               // "idle 12 % · compute 70 %"
    long rank = -1;             // ≥ 0: a click on the row selects the rank
};

struct StackedBars {
    std::vector<QString> series;
    std::vector<QColor> colours; // one per series
    std::vector<StackedRow> rows;
    double scaleMax = 0.0; // the value at a full bar; 0: each row to its own total
    QString more;          // after "N more rows": " (all in temporal_breakdown.csv)"
    // The rows there are when `rows` holds only those a page can show (16,384 ranks).
    std::size_t totalRows = 0;
    std::size_t rowCount() const { return std::max(totalRows, rows.size()); }
};

// Draws `bars` at the canvas cursor (at most `maxRows` rows) and returns each drawn row's bar
// area (the full-length lane, index = row).
std::vector<QRectF> drawStackedBars(PanelCanvas& canvas, const StackedBars& bars,
                                    std::size_t maxRows);

} // namespace wb
