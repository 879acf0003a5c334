#pragma once
// Hit testing on drawn links: how far a point is from a straight segment. The topology views
// use it to find the link under the pointer.
#include <QLineF>
#include <QPointF>
#include <algorithm>
#include <cmath>

namespace wb {

// Distance from `p` to the closest point of `line` (its ends included).
inline double distanceToSegment(const QPointF& p, const QLineF& line) {
    const QPointF d = line.p2() - line.p1();
    const double len2 = d.x() * d.x() + d.y() * d.y();
    double t = 0.0;
    if (len2 > 0.0)
        t = std::clamp(QPointF::dotProduct(p - line.p1(), d) / len2, 0.0, 1.0);
    const QPointF q = line.p1() + d * t;
    return std::hypot(p.x() - q.x(), p.y() - q.y());
}

} // namespace wb
