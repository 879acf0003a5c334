#include "stage/stage_layout.h"

#include <algorithm>
#include <cmath>

namespace wb {

std::vector<QRect> stageLayout(const QRect& area, int count, Arrangement arrangement) {
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
    const int leftW = static_cast<int>(std::lround((inner.width() - margin) * 0.6));
    out.emplace_back(inner.left(), inner.top(), leftW, inner.height());

    const int rightX = inner.left() + leftW + margin;
    const int rightW = inner.right() + 1 - rightX;
    const int others = count - 1;
    const int gaps = margin * (others - 1);
    const int cellH = std::max(1, (inner.height() - gaps) / others);
    for (int i = 0; i < others; ++i) {
        const int top = inner.top() + i * (cellH + margin);
        // The last one takes the rounding remainder so the column ends on the margin.
        const int h = i + 1 == others ? inner.bottom() + 1 - top : cellH;
        out.emplace_back(rightX, top, rightW, h);
    }
    return out;
}

} // namespace wb
