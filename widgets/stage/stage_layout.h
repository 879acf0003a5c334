#pragma once
// Where a stage puts its items: the first one large on the left (about 60% of the width), the
// rest stacked on the right; a single item fills the stage. Pure geometry, tested on its own.
#include <QRect>
#include <vector>

namespace wb {

std::vector<QRect> stageLayout(const QRect& area, int count);

} // namespace wb
