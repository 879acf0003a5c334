#include "topology/topology_layout.h"

#include "drawing/segment_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wb {

namespace {

QPointF topCentre(const QRectF& r) {
    return {r.center().x(), r.top()};
}
QPointF bottomCentre(const QRectF& r) {
    return {r.center().x(), r.bottom()};
}

template <typename T> int sizeOf(const std::vector<T>& v) {
    return static_cast<int>(v.size());
}

} // namespace

TopologyLayout TopologyLayout::compute(const QRectF& bounds, const TopologyFrame& frame, double em,
                                       double wrappedTitleH, double wrappedCaptionH) {
    TopologyLayout l;
    l.m_em = std::max(6.0, em);
    const double e = l.m_em;
    const double pad = e * 0.8;
    const QRectF inner = bounds.adjusted(pad, pad, -pad, -pad);
    const double titleH = frame.title.empty() ? 0.0 : std::max(e * 1.8, wrappedTitleH + e * 0.4);
    const double captionH =
        frame.caption.empty() ? 0.0 : std::max(e * 1.6, wrappedCaptionH + e * 0.4);
    const double legendH = e * 1.7; // always there: the utilisation scale explains link colour
    l.m_title = QRectF(inner.left(), inner.top(), inner.width(), titleH);
    l.m_caption = QRectF(inner.left(), inner.bottom() - captionH, inner.width(), captionH);
    l.m_legend = QRectF(inner.left(), l.m_caption.top() - legendH, inner.width(), legendH);
    const double scaleW = std::min(e * 15.0, l.m_legend.width() * 0.45);
    l.m_scale = QRectF(l.m_legend.right() - scaleW, l.m_legend.top(), scaleW, legendH);
    l.m_graph = QRectF(inner.left(), l.m_title.bottom() + e * 0.3, inner.width(),
                       std::max(0.0, l.m_legend.top() - l.m_title.bottom() - e * 0.6));
    const QRectF g = l.m_graph;

    // Horizontal plan: one group per leaf (its nodes in frame order; a leaf without nodes keeps
    // one empty slot so it still has a place), then the nodes whose leaf is not in the frame.
    const int leafN = sizeOf(frame.leaves);
    std::vector<std::vector<int>> groups(static_cast<std::size_t>(leafN) + 1);
    for (int n = 0; n < sizeOf(frame.nodes); ++n) {
        const int leaf = frame.nodes[static_cast<std::size_t>(n)].leaf;
        groups[leaf >= 0 && leaf < leafN ? static_cast<std::size_t>(leaf)
                                         : static_cast<std::size_t>(leafN)]
            .push_back(n);
    }
    int slotCount = 0, groupCount = 0, maxGpus = 1;
    for (int gi = 0; gi <= leafN; ++gi) {
        const auto& members = groups[static_cast<std::size_t>(gi)];
        if (gi == leafN && members.empty())
            continue;
        slotCount += std::max(1, sizeOf(members));
        ++groupCount;
    }
    for (const auto& node : frame.nodes)
        maxGpus = std::max(maxGpus, sizeOf(node.gpus));

    const double hiddenW = frame.hiddenNodes > 0 ? std::min(e * 7.0, g.width() * 0.25) : 0.0;
    const double groupGap = e * 0.9;
    const double nodeGap = std::clamp(e * 0.4, 2.0, e);
    const double gaps = groupGap * std::max(0, groupCount - 1) +
                        nodeGap * std::max(0, slotCount - groupCount) +
                        (hiddenW > 0 ? groupGap : 0);
    double nodeW = slotCount > 0 ? (g.width() - hiddenW - gaps) / slotCount : 0.0;
    // A lone node does not need the whole width: GPUs about three letters wide read best.
    nodeW = std::max(1.0, std::min(nodeW, e * 3.2 * maxGpus + e));
    const double usedW = nodeW * slotCount + gaps + hiddenW;
    double x = g.left() + std::max(0.0, (g.width() - usedW) / 2.0);

    // Vertical plan: spine row, uplinks, leaf row, fan-in to the NICs, node boxes, labels.
    const bool haveLeaves = leafN > 0;
    const int spineN = haveLeaves ? std::clamp(frame.spines, 0, 32) : 0;
    const double rowH = std::clamp(e * 1.5, 8.0, std::max(8.0, g.height() * 0.12));
    const double labelH = e * 1.2;
    double y = g.top();
    double spineTop = y, leafTop = y;
    if (spineN > 0) {
        spineTop = y;
        y += rowH + std::max(e * 1.2, g.height() * 0.12);
    }
    if (haveLeaves) {
        leafTop = y;
        y += rowH;
    }
    const double available = std::max(0.0, g.bottom() - labelH - y);
    // Node boxes take a good share of the height (the links inside them need room to show
    // their colour); what is left goes to the NIC fan-in above them.
    const double boxH = haveLeaves
                            ? std::min(std::clamp(available * 0.42, e * 4.0, e * 9.0), available)
                            : std::min(available, e * 9.0);
    const double boxTop = g.bottom() - labelH - boxH;

    l.m_leaves.assign(static_cast<std::size_t>(leafN), QRectF());
    l.m_nodes.resize(frame.nodes.size());
    for (int gi = 0; gi <= leafN; ++gi) {
        const auto& members = groups[static_cast<std::size_t>(gi)];
        if (gi == leafN && members.empty())
            continue;
        const double groupLeft = x;
        for (int k = 0; k < std::max(1, sizeOf(members)); ++k) {
            if (k > 0)
                x += nodeGap;
            if (k < sizeOf(members)) {
                const int n = members[static_cast<std::size_t>(k)];
                NodeBox& box = l.m_nodes[static_cast<std::size_t>(n)];
                box.leaf = gi < leafN ? gi : -1;
                box.box = QRectF(x, boxTop, nodeW, boxH);
                box.label = QRectF(x, boxTop + boxH, nodeW, labelH);
                // Inside: NICs on top (nearest their leaf), GPUs, the NVSwitch bar at the bottom.
                const double p = std::clamp(std::min(nodeW, boxH) * 0.06, 1.0, e * 0.4);
                const QRectF in = box.box.adjusted(p, p, -p, -p);
                const double h = in.height();
                const double nicH = h * 0.12, gpuTop = in.top() + h * 0.28, gpuH = h * 0.36;
                box.nvSwitch = QRectF(in.left(), in.bottom() - h * 0.16, in.width(), h * 0.16);
                const auto& gpus = frame.nodes[static_cast<std::size_t>(n)].gpus;
                const int count = sizeOf(gpus);
                const double slotW = count > 0 ? in.width() / count : 0.0;
                const double gap = std::min(slotW * 0.18, e * 0.4);
                for (int i = 0; i < count; ++i) {
                    const double gx = in.left() + i * slotW + gap / 2.0;
                    const QRectF gpu(gx, gpuTop, std::max(0.5, slotW - gap), gpuH);
                    box.gpus.push_back(gpu);
                    const double nicW = gpu.width() * 0.6;
                    box.nics.push_back(QRectF(gpu.center().x() - nicW / 2.0, in.top(), nicW, nicH));
                }
            }
            x += nodeW;
        }
        if (gi < leafN) {
            const double span = x - groupLeft;
            const double w = std::max(std::min(span * 0.8, span - e), std::min(span, e * 4.0));
            l.m_leaves[static_cast<std::size_t>(gi)] =
                QRectF(groupLeft + (span - w) / 2.0, leafTop, w, rowH);
        }
        x += groupGap;
    }
    if (hiddenW > 0)
        l.m_hidden = QRectF(x, boxTop, hiddenW, boxH);

    // Each NIC meets its leaf at its own port, spread along the leaf's lower edge in node order.
    for (int leaf = 0; leaf < leafN; ++leaf) {
        const auto& members = groups[static_cast<std::size_t>(leaf)];
        int total = 0;
        for (int n : members)
            total += sizeOf(l.m_nodes[static_cast<std::size_t>(n)].gpus);
        const QRectF lr = l.m_leaves[static_cast<std::size_t>(leaf)];
        int k = 0;
        for (int n : members) {
            NodeBox& box = l.m_nodes[static_cast<std::size_t>(n)];
            for (std::size_t i = 0; i < box.gpus.size(); ++i, ++k)
                box.leafPorts.push_back(
                    QPointF(lr.left() + (k + 0.5) / std::max(1, total) * lr.width(), lr.bottom()));
        }
    }

    // Spines centred over the leaves' extent.
    if (spineN > 0) {
        double left = l.m_leaves.front().left(), right = l.m_leaves.front().right();
        for (const QRectF& lr : l.m_leaves) {
            left = std::min(left, lr.left());
            right = std::max(right, lr.right());
        }
        const double step = (right - left) / spineN;
        const double w = std::min(e * 8.0, step * 0.8);
        for (int s = 0; s < spineN; ++s)
            l.m_spines.push_back(
                QRectF(left + (s + 0.5) * step - w / 2.0, spineTop, std::max(1.0, w), rowH));
    }

    // Links in painting order: the long ones first so the short node-local ones stay on top.
    for (int leaf = 0; leaf < leafN; ++leaf)
        for (int s = 0; s < spineN; ++s)
            l.m_links.push_back({LinkKind::Uplink, leaf, s});
    for (int n = 0; n < l.nodeCount(); ++n) {
        const NodeBox& box = l.m_nodes[static_cast<std::size_t>(n)];
        if (box.leaf >= 0)
            for (int i = 0; i < sizeOf(box.gpus); ++i)
                l.m_links.push_back({LinkKind::NicLeaf, n, i});
    }
    for (int n = 0; n < l.nodeCount(); ++n)
        for (int i = 0; i < l.gpuCount(n); ++i) {
            l.m_links.push_back({LinkKind::GpuNic, n, i});
            l.m_links.push_back({LinkKind::NvLink, n, i});
        }

    for (int f = 0; f < sizeOf(frame.flows); ++f)
        l.m_routes.push_back(l.routeFor(frame, f));
    return l;
}

QPointF TopologyLayout::uplinkAtLeaf(int leaf, int spine) const {
    const QRectF r = leafRect(leaf);
    return {r.left() + (spine + 0.5) / std::max(1, spineCount()) * r.width(), r.top()};
}

QPointF TopologyLayout::uplinkAtSpine(int leaf, int spine) const {
    const QRectF r = spineRect(spine);
    return {r.left() + (leaf + 0.5) / std::max(1, leafCount()) * r.width(), r.bottom()};
}

TopologyLayout::Route TopologyLayout::routeFor(const TopologyFrame& frame, int flow) const {
    Route route;
    const TopologyFlow& f = frame.flows[static_cast<std::size_t>(flow)];
    const bool ends = f.fromNode >= 0 && f.fromNode < nodeCount() && f.toNode >= 0 &&
                      f.toNode < nodeCount() && f.fromGpu >= 0 &&
                      f.fromGpu < gpuCount(f.fromNode) && f.toGpu >= 0 &&
                      f.toGpu < gpuCount(f.toNode);
    if (!ends || (f.fromNode == f.toNode && f.fromGpu == f.toGpu))
        return route;
    const NodeBox& a = m_nodes[static_cast<std::size_t>(f.fromNode)];
    const NodeBox& b = m_nodes[static_cast<std::size_t>(f.toNode)];
    const QRectF ga = a.gpus[static_cast<std::size_t>(f.fromGpu)];
    const QRectF gb = b.gpus[static_cast<std::size_t>(f.toGpu)];
    std::vector<QPointF> pts;
    if (f.fromNode == f.toNode) {
        // NVLink: down into the switch, along it, up into the other GPU.
        const double sy = a.nvSwitch.center().y();
        pts = {bottomCentre(ga), {ga.center().x(), sy}, {gb.center().x(), sy}, bottomCentre(gb)};
    } else {
        if (a.leaf < 0 || b.leaf < 0)
            return route;
        const QPointF portA = a.leafPorts[static_cast<std::size_t>(f.fromGpu)];
        const QPointF portB = b.leafPorts[static_cast<std::size_t>(f.toGpu)];
        const QRectF la = leafRect(a.leaf), lb = leafRect(b.leaf);
        pts = {topCentre(ga),
               topCentre(a.nics[static_cast<std::size_t>(f.fromGpu)]),
               portA,
               {portA.x(), la.center().y()}};
        if (a.leaf != b.leaf) {
            if (spineCount() == 0)
                return route;
            // Flows spread over the spines by index, as ECMP hashing spreads them.
            const int s = flow % spineCount();
            const QPointF upA = uplinkAtLeaf(a.leaf, s), upB = uplinkAtLeaf(b.leaf, s);
            const QPointF downA = uplinkAtSpine(a.leaf, s), downB = uplinkAtSpine(b.leaf, s);
            const double sy = spineRect(s).center().y();
            pts.insert(pts.end(), {{upA.x(), la.center().y()},
                                   upA,
                                   downA,
                                   {downA.x(), sy},
                                   {downB.x(), sy},
                                   downB,
                                   upB,
                                   {upB.x(), lb.center().y()}});
        }
        pts.insert(pts.end(), {{portB.x(), lb.center().y()},
                               portB,
                               topCentre(b.nics[static_cast<std::size_t>(f.toGpu)]),
                               topCentre(gb)});
    }
    for (const QPointF& p : pts) {
        if (!route.points.empty()) {
            const QPointF last = route.points.back();
            const double step = std::hypot(p.x() - last.x(), p.y() - last.y());
            if (step < 1e-9)
                continue;
            route.lengths.push_back(route.lengths.back() + step);
        } else {
            route.lengths.push_back(0.0);
        }
        route.points.push_back(p);
    }
    if (route.points.size() < 2)
        return {};
    return route;
}

QRectF TopologyLayout::spineRect(int spine) const {
    return spine >= 0 && spine < spineCount() ? m_spines[static_cast<std::size_t>(spine)]
                                              : QRectF();
}

QRectF TopologyLayout::leafRect(int leaf) const {
    return leaf >= 0 && leaf < leafCount() ? m_leaves[static_cast<std::size_t>(leaf)] : QRectF();
}

QRectF TopologyLayout::nodeRect(int node) const {
    return node >= 0 && node < nodeCount() ? m_nodes[static_cast<std::size_t>(node)].box : QRectF();
}

QRectF TopologyLayout::nodeLabelRect(int node) const {
    return node >= 0 && node < nodeCount() ? m_nodes[static_cast<std::size_t>(node)].label
                                           : QRectF();
}

QRectF TopologyLayout::nvSwitchRect(int node) const {
    return node >= 0 && node < nodeCount() ? m_nodes[static_cast<std::size_t>(node)].nvSwitch
                                           : QRectF();
}

int TopologyLayout::gpuCount(int node) const {
    return node >= 0 && node < nodeCount() ? sizeOf(m_nodes[static_cast<std::size_t>(node)].gpus)
                                           : 0;
}

QRectF TopologyLayout::gpuRect(int node, int gpu) const {
    return gpu >= 0 && gpu < gpuCount(node)
               ? m_nodes[static_cast<std::size_t>(node)].gpus[static_cast<std::size_t>(gpu)]
               : QRectF();
}

QRectF TopologyLayout::nicRect(int node, int gpu) const {
    return gpu >= 0 && gpu < gpuCount(node)
               ? m_nodes[static_cast<std::size_t>(node)].nics[static_cast<std::size_t>(gpu)]
               : QRectF();
}

QLineF TopologyLayout::linkLine(const Link& link) const {
    switch (link.kind) {
    case LinkKind::Uplink:
        if (link.a < 0 || link.a >= leafCount() || link.b < 0 || link.b >= spineCount())
            return {};
        return {uplinkAtLeaf(link.a, link.b), uplinkAtSpine(link.a, link.b)};
    case LinkKind::NicLeaf: {
        if (link.b < 0 || link.b >= gpuCount(link.a))
            return {};
        const NodeBox& box = m_nodes[static_cast<std::size_t>(link.a)];
        if (box.leaf < 0)
            return {};
        return {topCentre(box.nics[static_cast<std::size_t>(link.b)]),
                box.leafPorts[static_cast<std::size_t>(link.b)]};
    }
    case LinkKind::GpuNic:
        if (link.b < 0 || link.b >= gpuCount(link.a))
            return {};
        return {topCentre(gpuRect(link.a, link.b)), bottomCentre(nicRect(link.a, link.b))};
    case LinkKind::NvLink: {
        if (link.b < 0 || link.b >= gpuCount(link.a))
            return {};
        const QRectF gpu = gpuRect(link.a, link.b);
        return {bottomCentre(gpu), {gpu.center().x(), nvSwitchRect(link.a).top()}};
    }
    }
    return {};
}

bool TopologyLayout::hasRoute(int flow) const {
    return flow >= 0 && flow < sizeOf(m_routes) &&
           !m_routes[static_cast<std::size_t>(flow)].points.empty();
}

double TopologyLayout::routeLength(int flow) const {
    return hasRoute(flow) ? m_routes[static_cast<std::size_t>(flow)].lengths.back() : 0.0;
}

QPointF TopologyLayout::routePoint(int flow, double t) const {
    if (!hasRoute(flow))
        return {};
    const Route& r = m_routes[static_cast<std::size_t>(flow)];
    const double at = std::clamp(t, 0.0, 1.0) * r.lengths.back();
    // The first segment that ends at or after `at`.
    const auto it = std::lower_bound(r.lengths.begin() + 1, r.lengths.end(), at);
    if (it == r.lengths.end())
        return r.points.back();
    const std::size_t i = static_cast<std::size_t>(it - r.lengths.begin());
    const double segment = r.lengths[i] - r.lengths[i - 1];
    const double u = segment > 0.0 ? (at - r.lengths[i - 1]) / segment : 0.0;
    return r.points[i - 1] + (r.points[i] - r.points[i - 1]) * u;
}

const std::vector<QPointF>& TopologyLayout::routePoints(int flow) const {
    static const std::vector<QPointF> none;
    return hasRoute(flow) ? m_routes[static_cast<std::size_t>(flow)].points : none;
}

QPainterPath TopologyLayout::routePath(int flow) const {
    QPainterPath path;
    const auto& pts = routePoints(flow);
    if (pts.empty())
        return path;
    path.moveTo(pts.front());
    for (std::size_t i = 1; i < pts.size(); ++i)
        path.lineTo(pts[i]);
    return path;
}

TopologyLayout::GpuRef TopologyLayout::gpuAt(const QPointF& pos) const {
    for (int n = 0; n < nodeCount(); ++n) {
        if (!nodeRect(n).contains(pos))
            continue;
        for (int i = 0; i < gpuCount(n); ++i)
            if (gpuRect(n, i).contains(pos))
                return {n, i};
    }
    return {};
}

int TopologyLayout::nodeAt(const QPointF& pos) const {
    for (int n = 0; n < nodeCount(); ++n)
        if (nodeRect(n).contains(pos) || nodeLabelRect(n).contains(pos))
            return n;
    return -1;
}

int TopologyLayout::leafAt(const QPointF& pos) const {
    for (int i = 0; i < leafCount(); ++i)
        if (leafRect(i).contains(pos))
            return i;
    return -1;
}

int TopologyLayout::spineAt(const QPointF& pos) const {
    for (int i = 0; i < spineCount(); ++i)
        if (spineRect(i).contains(pos))
            return i;
    return -1;
}

std::optional<TopologyLayout::Link> TopologyLayout::linkAt(const QPointF& pos,
                                                           double tolerance) const {
    std::optional<Link> best;
    double bestD = std::numeric_limits<double>::max();
    for (const Link& link : m_links) {
        const QLineF line = linkLine(link);
        if (line.isNull())
            continue;
        const double d = distanceToSegment(pos, line);
        if (d <= tolerance && d < bestD) {
            bestD = d;
            best = link;
        }
    }
    return best;
}

std::vector<QRectF> TopologyLayout::allRects() const {
    std::vector<QRectF> rects = {m_title, m_graph, m_legend, m_scale, m_caption};
    if (!m_hidden.isEmpty())
        rects.push_back(m_hidden);
    rects.insert(rects.end(), m_spines.begin(), m_spines.end());
    rects.insert(rects.end(), m_leaves.begin(), m_leaves.end());
    for (const NodeBox& box : m_nodes) {
        rects.push_back(box.box);
        rects.push_back(box.label);
        rects.push_back(box.nvSwitch);
        rects.insert(rects.end(), box.gpus.begin(), box.gpus.end());
        rects.insert(rects.end(), box.nics.begin(), box.nics.end());
    }
    return rects;
}

} // namespace wb
