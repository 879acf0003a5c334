#pragma once
// Where a stage puts its items. Lead: the first one large on the left (about 60% of the width),
// the rest stacked on the right; or, when that would leave much of the stage empty, the first
// one across the top and the rest in a row below it. Grid: equal cells, up to three in a row,
// more in as square a grid as the count allows. A single item fills the stage either way. Pure
// geometry, tested on its own.
#include "frames/frame.h"

#include <QRect>
#include <functional>
#include <vector>

namespace wb {

// How tall item `index` is when laid out `width` pixels wide: the height past which it only
// adds empty space. 0 for an item that uses whatever height it gets (a chart, a map).
using NaturalHeight = std::function<int(int index, int width)>;

std::vector<QRect> stageLayout(const QRect& area, int count,
                               Arrangement arrangement = Arrangement::Lead,
                               const NaturalHeight& natural = {});

// The part of `cells` that their items leave empty (0..1 of the cells' total area): a cell
// taller than its item's natural height wastes the difference. What stageLayout minimises.
double stageWaste(const std::vector<QRect>& cells, const NaturalHeight& natural);

} // namespace wb
