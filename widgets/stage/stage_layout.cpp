#include "stage/stage_layout.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

int naturalOf(const NaturalHeight& natural, int index, int width) {
    return natural ? std::max(0, natural(index, width)) : 0;
}

// Heights for items stacked in a column `total` pixels tall (gaps excluded). An item with a
// natural height gets it; items that fill share the rest, but never less than an equal share
// (what they had before natural heights); when the natural heights do not fit what is left,
// they share it in proportion to them (and shrink their type, as they did in an equal share).
std::vector<int> columnHeights(const std::vector<int>& needs, int total) {
    const int n = static_cast<int>(needs.size());
    std::vector<int> out(needs.size(), 0);
    if (n == 0)
        return out;
    int fills = 0;
    long long wanted = 0;
    for (int need : needs) {
        fills += need == 0 ? 1 : 0;
        wanted += need;
    }
    const int minFill = total / n;
    const long long forNatural = total - static_cast<long long>(fills) * minFill;
    if (wanted > 0 && wanted > forNatural) {
        // Too tall together: each natural item gets its share of what is left, fills their minimum.
        for (int i = 0; i < n; ++i)
            out[static_cast<std::size_t>(i)] =
                needs[static_cast<std::size_t>(i)] == 0
                    ? minFill
                    : static_cast<int>(forNatural * needs[static_cast<std::size_t>(i)] / wanted);
        return out;
    }
    const int rest = fills > 0 ? static_cast<int>((total - wanted) / fills) : 0;
    for (int i = 0; i < n; ++i) {
        const int need = needs[static_cast<std::size_t>(i)];
        out[static_cast<std::size_t>(i)] = need == 0 ? rest : need;
    }
    return out;
}

// The lead on the left, the others stacked on the right.
std::vector<QRect> side(const QRect& inner, int count, int margin, const NaturalHeight& natural) {
    std::vector<QRect> out;
    const int leftW = static_cast<int>(std::lround((inner.width() - margin) * 0.6));
    out.emplace_back(inner.left(), inner.top(), leftW, inner.height());

    const int rightX = inner.left() + leftW + margin;
    const int rightW = inner.right() + 1 - rightX;
    const int others = count - 1;
    std::vector<int> needs;
    for (int i = 1; i < count; ++i)
        needs.push_back(naturalOf(natural, i, rightW));
    const bool anyNatural = std::any_of(needs.begin(), needs.end(), [](int n) { return n > 0; });
    const int column = inner.height() - margin * (others - 1);
    const std::vector<int> heights =
        anyNatural ? columnHeights(needs, column)
                   : std::vector<int>(static_cast<std::size_t>(others), column / others);
    int top = inner.top();
    for (int i = 0; i < others; ++i) {
        // The last one takes the rest, so the column ends on the margin (and the room a short
        // column leaves counts as waste).
        const int h =
            i + 1 == others ? inner.bottom() + 1 - top : heights[static_cast<std::size_t>(i)];
        out.emplace_back(rightX, top, rightW, std::max(1, h));
        top += h + margin;
    }
    return out;
}

// The lead across the top, the others side by side below it, for a lead made of rows (a
// timeline, a schedule: it has a natural height). Empty when it would squeeze either part.
std::vector<QRect> stacked(const QRect& inner, int count, int margin,
                           const NaturalHeight& natural) {
    std::vector<QRect> out;
    const int others = count - 1;
    const int cellW = std::max(1, (inner.width() - margin * (others - 1)) / others);
    int below = 0;
    bool othersFill = false;
    for (int i = 1; i < count; ++i) {
        const int need = naturalOf(natural, i, cellW);
        othersFill = othersFill || need == 0;
        below = std::max(below, need);
    }
    const int leadNeed = naturalOf(natural, 0, inner.width());
    if (leadNeed == 0)
        return out; // a chart, ring or map keeps its shape; only rows gain from the width
    const int total = inner.height() - margin;
    int leadH = 0;
    if (!othersFill)
        // The row as tall as its tallest item needs; the lead the rest, or less if it is short.
        // When both cannot have their height, a short lead keeps its own (up to half).
        leadH = leadNeed + below <= total ? leadNeed
                                          : std::max(total - below, std::min(leadNeed, total / 2));
    else
        leadH = leadNeed; // a short lead, and the items that fill take the rest
    // A lead cut under its height and under a quarter of the stage, or items that fill under a
    // third of it, is a squeeze.
    if (leadH < std::min(leadNeed, inner.height() / 4) ||
        (othersFill && total - leadH < inner.height() / 3))
        return out;
    out.emplace_back(inner.left(), inner.top(), inner.width(), leadH);
    const int rowTop = inner.top() + leadH + margin;
    const int rowH = inner.bottom() + 1 - rowTop;
    for (int i = 0; i < others; ++i) {
        const int left = inner.left() + i * (cellW + margin);
        const int w = i + 1 == others ? inner.right() + 1 - left : cellW;
        out.emplace_back(left, rowTop, w, rowH);
    }
    return out;
}

} // namespace

double stageWaste(const std::vector<QRect>& cells, const NaturalHeight& natural) {
    double area = 0.0, waste = 0.0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const QRect& c = cells[i];
        area += static_cast<double>(c.width()) * c.height();
        const int need = naturalOf(natural, static_cast<int>(i), c.width());
        if (need > 0)
            // Empty space below a short item. Natural heights are the most an item uses (rows
            // and type shrink below it), so a cell shorter than that wastes nothing.
            waste += static_cast<double>(std::max(0, c.height() - need)) * c.width();
    }
    return area > 0.0 ? waste / area : 0.0;
}

std::vector<QRect> stageLayout(const QRect& area, int count, Arrangement arrangement,
                               const NaturalHeight& natural) {
    std::vector<QRect> out;
    if (count <= 0 || area.isEmpty()) {
        return out;
    }
    // Gaps scale with the stage so a 1080p export and a small window look alike.
    const int margin =
        std::max(4, static_cast<int>(std::lround(std::min(area.width(), area.height()) * 0.015)));
    const QRect inner = area.adjusted(margin, margin, -margin, -margin);
    if (count == 1) {
        out.push_back(inner);
        return out;
    }
    if (arrangement == Arrangement::Grid) {
        // Up to three cells side by side; more fill as square a grid as the count allows.
        const int cols =
            count <= 3 ? count : static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
        const int rows = (count + cols - 1) / cols;
        const int cellW = std::max(1, (inner.width() - margin * (cols - 1)) / cols);
        const int cellH = std::max(1, (inner.height() - margin * (rows - 1)) / rows);
        for (int i = 0; i < count; ++i) {
            const int r = i / cols;
            const int c = i % cols;
            out.emplace_back(inner.left() + c * (cellW + margin),
                             inner.top() + r * (cellH + margin), cellW, cellH);
        }
        return out;
    }
    out = side(inner, count, margin, natural);
    if (!natural)
        return out;
    // A lead beside a short column (or a short lead beside anything) leaves part of the stage
    // blank: a half-empty slide is a layout bug. Stack instead when that wastes clearly less.
    const std::vector<QRect> alt = stacked(inner, count, margin, natural);
    if (alt.empty())
        return out;
    const double sideWaste = stageWaste(out, natural);
    const double stackWaste = stageWaste(alt, natural);
    return sideWaste > 0.12 && stackWaste < sideWaste * 0.7 ? alt : out;
}

} // namespace wb
