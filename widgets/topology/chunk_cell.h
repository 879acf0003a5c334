#pragma once
// How one chunk copy looks: a stripe per rank whose data has been summed into it, or the
// distinct "complete" look once every rank has contributed. Shared by the rank cards, the
// moving tokens and the legend so the three always agree.
#include "drawing/theme.h"
#include "frames/ring_frame.h"

#include <QPainter>
#include <QRectF>

namespace wb {

// All `ranks` bits set (ranks clamped to the 64 a mask can hold).
ContributorMask fullMask(int ranks);
bool isComplete(ContributorMask mask, int ranks);

void paintChunkCell(QPainter& painter, const QRectF& rect, ContributorMask mask, int ranks,
                    const Theme& theme);

} // namespace wb
