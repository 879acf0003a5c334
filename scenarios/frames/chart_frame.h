#pragma once
// A 2-D chart as plain data: lines and labelled points on linear or log axes. The ring's
// cost chart and the roofline both render through this one description.
#include <string>
#include <vector>

namespace wb {

struct ChartPoint {
    double x = 0.0;
    double y = 0.0;
    bool operator==(const ChartPoint&) const = default;
};

struct ChartAxis {
    std::string title; // includes the unit: "message size (B)"
    bool log = false;
    double min = 0.0;
    double max = 1.0;
    bool operator==(const ChartAxis&) const = default;
};

struct ChartSeries {
    enum class Style { Line, Dashed, Faint };
    std::string name;
    std::vector<ChartPoint> points;
    Style style = Style::Line;
    int colorIndex = 0; // into the view's palette, so themes can recolour
    bool operator==(const ChartSeries&) const = default;
};

struct ChartMarker {
    ChartPoint at;
    std::string label;
    std::string tooltip; // the number with its source
    int colorIndex = 0;
    bool estimate = false; // drawn hollow and labelled "est."
    bool emphasis = false; // the point the step is about
    bool operator==(const ChartMarker&) const = default;
};

struct ChartFrame {
    std::string title;
    ChartAxis x;
    ChartAxis y;
    std::vector<ChartSeries> series;
    std::vector<ChartMarker> markers;
    std::string footnote; // source line under the chart
    bool operator==(const ChartFrame&) const = default;
};

} // namespace wb
