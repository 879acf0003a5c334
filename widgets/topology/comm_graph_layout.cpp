#include "topology/comm_graph_layout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <tuple>

namespace wb {

namespace {

QPointF bezier(const QPointF& a, const QPointF& c, const QPointF& b, double t) {
    const double u = 1.0 - t;
    return a * (u * u) + c * (2.0 * u * t) + b * (t * t);
}

} // namespace

QRectF CommGraphLayout::paddedArea(const QRectF& bounds, double em) {
    const double pad = std::max(6.0, em) * 0.8;
    return bounds.adjusted(pad, pad, -pad, -pad);
}

CommGraphLayout CommGraphLayout::compute(const QRectF& bounds, const CommGraphFrame& frame,
                                         double em, const CommGraphTextHeights& text) {
    CommGraphLayout l;
    l.m_em = std::max(6.0, em);
    const QRectF inner = CommGraphLayout::paddedArea(bounds, em);
    // The painter's wrapped heights when it gives them, else one line each.
    const double titleH =
        frame.title.empty() ? 0.0 : (text.title > 0 ? text.title + l.m_em * 0.6 : l.m_em * 1.8);
    const double legendH = frame.transports.empty() && frame.channels <= 0 ? 0.0 : l.m_em * 1.6;
    const double captionH = frame.caption.empty()
                                ? 0.0
                                : (text.caption > 0 ? text.caption + l.m_em * 0.5 : l.m_em * 1.6);
    l.m_title = QRectF(inner.left(), inner.top(), inner.width(), titleH);
    l.m_caption = QRectF(inner.left(), inner.bottom() - captionH, inner.width(), captionH);
    l.m_legend = QRectF(inner.left(), l.m_caption.top() - legendH, inner.width(), legendH);
    l.m_graph = QRectF(inner.left(), l.m_title.bottom(), inner.width(),
                       std::max(0.0, l.m_legend.top() - l.m_title.bottom()));

    // Ranks index nodes; edges name ranks.
    std::map<int, int> nodeOfRank;
    const int n = static_cast<int>(frame.nodes.size());
    for (int i = 0; i < n; ++i)
        nodeOfRank.emplace(frame.nodes[static_cast<std::size_t>(i)].rank, i);

    const QPointF centre = l.m_graph.center();
    const double shortSide = std::min(l.m_graph.width(), l.m_graph.height());
    l.m_nodeRadius = std::clamp(shortSide * 0.09, 6.0, l.m_em * 2.2);
    if (n > 2)
        l.m_nodeRadius = std::min(l.m_nodeRadius, std::numbers::pi * shortSide * 0.35 / n * 0.8);
    l.m_nodeRadius = std::max(l.m_nodeRadius, 4.0);
    const double rx = std::max(0.0, l.m_graph.width() / 2.0 - l.m_nodeRadius - l.m_em);
    const double ry = std::max(0.0, l.m_graph.height() / 2.0 - l.m_nodeRadius - l.m_em);
    for (int i = 0; i < n; ++i) {
        if (n == 1) {
            l.m_nodes.push_back(centre);
            continue;
        }
        // Two ranks sit left and right; more go clockwise from 12 o'clock.
        const double angle = n == 2 ? std::numbers::pi * (1.0 - i)
                                    : -std::numbers::pi / 2.0 + 2.0 * std::numbers::pi * i / n;
        const double r = n == 2 ? std::min(rx, l.m_graph.width() * 0.3) : 1.0;
        l.m_nodes.push_back(
            n == 2 ? QPointF(centre.x() + r * std::cos(angle), centre.y())
                   : QPointF(centre.x() + rx * std::cos(angle), centre.y() + ry * std::sin(angle)));
    }

    // Lanes: the k-th edge of one kind from one rank to another bends k steps further out.
    // Bends are computed first, then scaled down together if the widest would leave the graph
    // area (two ranks with many channels).
    std::map<std::tuple<int, int, int>, int> laneCount;
    for (const auto& e : frame.edges)
        ++laneCount[{static_cast<int>(e.kind), e.from, e.to}];
    std::map<std::tuple<int, int, int>, int> laneNext;
    struct Planned {
        bool valid = false;
        QPointF p, q, normal;
        double bend = 0.0;
    };
    std::vector<Planned> planned;
    double widest = 0.0;
    for (const auto& e : frame.edges) {
        Planned pl;
        const auto a = nodeOfRank.find(e.from);
        const auto b = nodeOfRank.find(e.to);
        if (a != nodeOfRank.end() && b != nodeOfRank.end() && a->second != b->second) {
            pl.p = l.m_nodes[static_cast<std::size_t>(a->second)];
            pl.q = l.m_nodes[static_cast<std::size_t>(b->second)];
            const QPointF d = pl.q - pl.p;
            const double len = std::hypot(d.x(), d.y());
            if (len > 2.0 * l.m_nodeRadius) {
                const QPointF unit = d / len;
                // Left of the direction of travel (screen coordinates): the reverse edge of
                // the same pair bends the other way.
                pl.normal = QPointF(unit.y(), -unit.x());
                const auto key = std::tuple{static_cast<int>(e.kind), e.from, e.to};
                const int lanes = laneCount[key];
                const int lane = laneNext[key]++;
                const bool tree = e.kind == CommGraphEdge::Kind::Tree;
                const double base = len * (tree ? 0.30 : 0.08);
                const double spread = len * (tree ? 0.12 : 0.18);
                const double step = lanes > 1 ? std::min(l.m_em * 0.5, spread / (lanes - 1)) : 0.0;
                pl.bend = base + step * lane;
                pl.valid = true;
                widest = std::max(widest, pl.bend);
            }
        }
        planned.push_back(pl);
    }
    const double room =
        std::max(l.m_em, std::min(l.m_graph.width(), l.m_graph.height()) / 2.0 - l.m_em * 0.5);
    const double scale = widest > room ? room / widest : 1.0;
    for (const Planned& pl : planned) {
        Curve c;
        if (pl.valid) {
            // The curve's middle lies `bend` off the chord, so the control point is twice that.
            c.control = (pl.p + pl.q) / 2.0 + pl.normal * (2.0 * pl.bend * scale);
            // Start and end on the node rims, toward the control point.
            auto rim = [&](const QPointF& from, const QPointF& toward) {
                const QPointF v = toward - from;
                const double vl = std::hypot(v.x(), v.y());
                return vl > 0.0 ? from + v * (l.m_nodeRadius / vl) : from;
            };
            c.start = rim(pl.p, c.control);
            c.end = rim(pl.q, c.control);
            c.valid = true;
        }
        l.m_edges.push_back(c);
    }
    return l;
}

QPointF CommGraphLayout::nodeCentre(int index) const {
    if (index < 0 || index >= nodeCount())
        return {};
    return m_nodes[static_cast<std::size_t>(index)];
}

int CommGraphLayout::nodeAt(const QPointF& pos) const {
    for (int i = 0; i < nodeCount(); ++i) {
        const QPointF d = pos - m_nodes[static_cast<std::size_t>(i)];
        if (std::hypot(d.x(), d.y()) <= m_nodeRadius)
            return i;
    }
    return -1;
}

bool CommGraphLayout::hasEdge(int index) const {
    return index >= 0 && static_cast<std::size_t>(index) < m_edges.size() &&
           m_edges[static_cast<std::size_t>(index)].valid;
}

QPointF CommGraphLayout::edgePoint(int index, double t) const {
    if (!hasEdge(index))
        return {};
    const Curve& c = m_edges[static_cast<std::size_t>(index)];
    return bezier(c.start, c.control, c.end, std::clamp(t, 0.0, 1.0));
}

QPainterPath CommGraphLayout::edgePath(int index) const {
    QPainterPath path;
    if (!hasEdge(index))
        return path;
    const Curve& c = m_edges[static_cast<std::size_t>(index)];
    path.moveTo(c.start);
    path.quadTo(c.control, c.end);
    return path;
}

int CommGraphLayout::edgeAt(const QPointF& pos, double tolerance) const {
    int best = -1;
    double bestDistance = tolerance;
    constexpr int kSamples = 32;
    for (int i = 0; i < static_cast<int>(m_edges.size()); ++i) {
        if (!hasEdge(i))
            continue;
        for (int k = 0; k <= kSamples; ++k) {
            const QPointF d = pos - edgePoint(i, static_cast<double>(k) / kSamples);
            const double dist = std::hypot(d.x(), d.y());
            if (dist <= bestDistance) {
                bestDistance = dist;
                best = i;
            }
        }
    }
    return best;
}

} // namespace wb
