#pragma once
// Where a stage puts its items. Lead: the first one large on the left (about 60% of the width),
// the rest stacked on the right. Grid: equal cells, up to three in a row, more in as square a
// grid as the count allows. A single item fills the stage either way. Pure geometry, tested on
// its own.
#include "frames/frame.h"

#include <QRect>
#include <vector>

namespace wb {

std::vector<QRect> stageLayout(const QRect& area, int count,
                               Arrangement arrangement = Arrangement::Lead);

} // namespace wb
