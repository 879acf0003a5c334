#pragma once
// Bars of stacked segments against a value axis: one bar per category (a layout, a claim),
// each split into segments coloured by series (weights, gradients, ...), with optional
// reference lines (a GPU's HBM) and one bar emphasised. Generic: any scenario that compares
// quantities made of parts reuses it.
#include <string>
#include <vector>

namespace wb {

struct BarSegment {
    double value = 0.0; // ≥ 0; stacked after the segments before it
    int series = 0;     // index into BarChartFrame::series and the theme's series palette
    std::string tip;    // hover text; empty: "<series>: <value>"
    bool operator==(const BarSegment&) const = default;
};

struct BarCategory {
    std::string label; // under (or beside) the bar
    std::vector<BarSegment> segments;
    std::string tip; // hover text for the bar's label
    bool operator==(const BarCategory&) const = default;
};

struct BarReference {
    double value = 0.0;
    std::string label; // "H100 HBM 80 GB"
    bool operator==(const BarReference&) const = default;
};

enum class BarValueUnit { Plain, Bytes, Seconds, Percent };

struct BarChartFrame {
    std::string title;
    std::string caption; // one line under the title
    std::vector<BarCategory> categories;
    std::vector<std::string> series;         // legend names, in palette order
    std::string axisTitle;                   // "bytes per GPU"
    BarValueUnit unit = BarValueUnit::Plain; // how ticks and default tips print values
    std::vector<BarReference> references;
    bool horizontal = false; // bars grow to the right, categories stacked top to bottom
    int emphasis = -1;       // index of the bar drawn outlined in the accent colour; < 0 none
    // The value axis runs 0…max(bars, references, axisMax); set axisMax to keep the scale
    // fixed while an animation grows the bars.
    double axisMax = 0.0;
    bool operator==(const BarChartFrame&) const = default;
};

} // namespace wb
