#include "topology/node_topology_layout.h"

#include "drawing/segment_distance.h"

#include <QLineF>
#include <algorithm>
#include <cmath>
#include <limits>

namespace wb {

namespace {

// Where a path through `self` meets the neighbour `other`: at the neighbour's x when self is
// the wider of the two (a bus), else at self's centre.
QPointF portToward(const QRectF& self, const QRectF& other) {
    if (self.width() > other.width() * 1.05) {
        const double pad = std::min(self.width() * 0.5, 2.0);
        return {std::clamp(other.center().x(), self.left() + pad, self.right() - pad),
                self.center().y()};
    }
    return self.center();
}

} // namespace

NodeTopologyLayout NodeTopologyLayout::compute(const QRectF& bounds, const NodeTopologyFrame& frame,
                                               double em, double titleH, double captionH) {
    NodeTopologyLayout l;
    l.m_em = em;
    const double pad = em * 0.6;
    const QRectF inner = bounds.adjusted(pad, pad * 0.6, -pad, -pad * 0.6);
    const double line = em * 1.5;
    l.m_title = QRectF(inner.left(), inner.top(), inner.width(), std::max(line, titleH));
    const double captionLine = std::max(line, captionH + em * 0.2);
    l.m_caption = QRectF(inner.left(), inner.bottom() - captionLine, inner.width(), captionLine);
    l.m_legend = QRectF(inner.left(), l.m_caption.top() - line, inner.width(), line);
    const QRectF area(inner.left(), l.m_title.bottom() + em * 0.3, inner.width(),
                      std::max(1.0, l.m_legend.top() - l.m_title.bottom() - em * 0.6));

    // The diagram's extent in its own units, scaled uniformly and centred.
    double minX = std::numeric_limits<double>::max(), minY = minX;
    double maxX = std::numeric_limits<double>::lowest(), maxY = maxX;
    const auto extend = [&](double x, double y, double w, double h) {
        minX = std::min(minX, x);
        minY = std::min(minY, y);
        maxX = std::max(maxX, x + w);
        maxY = std::max(maxY, y + h);
    };
    for (const NodePart& p : frame.parts)
        extend(p.x, p.y, p.w, p.h);
    for (const NodeHost& h : frame.hosts)
        extend(h.x, h.y, h.w, h.h);
    if (minX > maxX) {
        minX = minY = 0;
        maxX = maxY = 1;
    }
    // The diagram fills the area, stretched at most 2× either way: wide diagrams (several
    // servers) grow taller so the boxes stay readable, without turning into slivers.
    const double fitX = area.width() / std::max(1e-9, maxX - minX);
    const double fitY = area.height() / std::max(1e-9, maxY - minY);
    const double unitX = std::min(fitX, fitY * 2.0);
    const double unitY = std::min(fitY, unitX * 2.0);
    const double unit = std::min(unitX, unitY);
    const double w = (maxX - minX) * unitX, h = (maxY - minY) * unitY;
    l.m_diagram = QRectF(area.center().x() - w / 2.0, area.center().y() - h / 2.0, w, h);
    const auto map = [&](double x, double y, double rw, double rh) {
        return QRectF(l.m_diagram.left() + (x - minX) * unitX,
                      l.m_diagram.top() + (y - minY) * unitY, rw * unitX, rh * unitY);
    };
    for (const NodePart& p : frame.parts)
        l.m_parts.push_back(map(p.x, p.y, p.w, p.h));
    for (const NodeHost& hst : frame.hosts)
        l.m_hosts.push_back(map(hst.x, hst.y, hst.w, hst.h));

    const int parts = static_cast<int>(l.m_parts.size());
    const auto valid = [parts](int i) { return i >= 0 && i < parts; };
    for (const NodeLink& link : frame.links) {
        if (!valid(link.a) || !valid(link.b)) {
            l.m_links.emplace_back();
            continue;
        }
        const QRectF& a = l.m_parts[static_cast<std::size_t>(link.a)];
        const QRectF& b = l.m_parts[static_cast<std::size_t>(link.b)];
        l.m_links.emplace_back(portToward(a, b), portToward(b, a));
    }

    // Route classes side by side: each class is shifted diagonally by its own offset, so
    // overlapping routes (ring channels sharing the NVSwitch) stay distinguishable on both axes
    // while the routes of one class (a tree's edges) line up.
    const int routes = static_cast<int>(frame.routes.size());
    int classes = 1;
    for (const NodeRoute& r : frame.routes)
        classes = std::max(classes, r.colorIndex + 1);
    const double spread = std::min(em * 0.32, unit * 0.18);
    for (int r = 0; r < routes; ++r) {
        const NodeRoute& route = frame.routes[static_cast<std::size_t>(r)];
        std::vector<int> ids;
        for (int p : route.parts)
            if (valid(p))
                ids.push_back(p);
        const double k =
            (std::clamp(route.colorIndex, 0, classes - 1) - (classes - 1) / 2.0) * spread;
        const QPointF offset(k, k);
        QPolygonF poly;
        const auto add = [&poly](const QPointF& p) {
            if (poly.isEmpty() || QLineF(poly.back(), p).length() > 0.01)
                poly.push_back(p);
        };
        if (ids.size() >= 2) {
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const QRectF& self = l.m_parts[static_cast<std::size_t>(ids[i])];
                if (i > 0)
                    add(portToward(self, l.m_parts[static_cast<std::size_t>(ids[i - 1])]) + offset);
                if (i + 1 < ids.size())
                    add(portToward(self, l.m_parts[static_cast<std::size_t>(ids[i + 1])]) + offset);
            }
        }
        l.m_routes.push_back(poly);
        l.m_routeParts.push_back(route.parts);
        l.m_routeOffsets.push_back(offset);
    }
    return l;
}

double NodeTopologyLayout::routeLength(int index) const {
    const QPolygonF& p = route(index);
    double len = 0;
    for (int i = 1; i < p.size(); ++i)
        len += QLineF(p[i - 1], p[i]).length();
    return len;
}

QPointF NodeTopologyLayout::routePoint(int index, double fraction) const {
    const QPolygonF& p = route(index);
    if (p.isEmpty())
        return {};
    double remaining = std::clamp(fraction, 0.0, 1.0) * routeLength(index);
    for (int i = 1; i < p.size(); ++i) {
        const QLineF seg(p[i - 1], p[i]);
        if (remaining <= seg.length())
            return seg.length() > 0 ? seg.pointAt(remaining / seg.length()) : p[i];
        remaining -= seg.length();
    }
    return p.back();
}

QPointF NodeTopologyLayout::markPoint(int route, int hop) const {
    const std::vector<int>& ids = m_routeParts.at(static_cast<std::size_t>(route));
    if (hop < 0 || static_cast<std::size_t>(hop) >= ids.size())
        return {};
    const int part = ids[static_cast<std::size_t>(hop)];
    if (part < 0 || part >= partCount())
        return {};
    const QRectF r = partRect(part);
    return QPointF(r.right(), r.top()) + m_routeOffsets.at(static_cast<std::size_t>(route));
}

int NodeTopologyLayout::partAt(const QPointF& pos) const {
    int best = -1;
    double bestArea = std::numeric_limits<double>::max();
    for (int i = 0; i < partCount(); ++i) {
        const QRectF& r = m_parts[static_cast<std::size_t>(i)];
        if (r.contains(pos) && r.width() * r.height() < bestArea) {
            best = i;
            bestArea = r.width() * r.height();
        }
    }
    return best;
}

int NodeTopologyLayout::linkAt(const QPointF& pos, double reach) const {
    for (std::size_t i = 0; i < m_links.size(); ++i)
        if (!m_links[i].isNull() && distanceToSegment(pos, m_links[i]) <= reach)
            return static_cast<int>(i);
    return -1;
}

int NodeTopologyLayout::routeAt(const QPointF& pos, double reach) const {
    // Later routes are drawn on top, so they answer first.
    for (int r = static_cast<int>(m_routes.size()) - 1; r >= 0; --r) {
        const QPolygonF& p = m_routes[static_cast<std::size_t>(r)];
        for (int i = 1; i < p.size(); ++i)
            if (distanceToSegment(pos, QLineF(p[i - 1], p[i])) <= reach)
                return r;
    }
    return -1;
}

int NodeTopologyLayout::hostAt(const QPointF& pos) const {
    for (std::size_t i = 0; i < m_hosts.size(); ++i)
        if (m_hosts[i].contains(pos))
            return static_cast<int>(i);
    return -1;
}

} // namespace wb
