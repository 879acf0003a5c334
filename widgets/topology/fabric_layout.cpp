#include "topology/fabric_layout.h"

#include "drawing/hover_tip.h"
#include "drawing/segment_distance.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

template <typename T> T itemAt(const std::vector<T>& items, int index) {
    return index >= 0 && static_cast<std::size_t>(index) < items.size()
               ? items[static_cast<std::size_t>(index)]
               : T();
}

bool isHost(FabricNodeRole r) {
    return r == FabricNodeRole::Sender || r == FabricNodeRole::VictimSender;
}

} // namespace

FabricLayout FabricLayout::compute(const QRectF& bounds, const FabricFrame& frame, double em,
                                   double titleH, double countersH, double captionH) {
    FabricLayout L;
    L.m_em = em;
    const double pad = em * 0.6;
    const QRectF inner = bounds.adjusted(pad, pad * 0.5, -pad, -pad * 0.5);
    const double line = em * 1.45;
    L.m_title = QRectF(inner.left(), inner.top(), inner.width(), std::max(line, titleH));
    L.m_counters =
        QRectF(inner.left(), L.m_title.bottom(), inner.width(), std::max(line * 0.9, countersH));
    const double captionLine = std::max(line * 0.9, captionH + em * 0.2);
    L.m_caption = QRectF(inner.left(), inner.bottom() - captionLine, inner.width(), captionLine);
    L.m_legend = QRectF(inner.left(), L.m_caption.top() - line, inner.width(), line);
    L.m_graph = QRectF(inner.left(), L.m_counters.bottom() + em * 0.6, inner.width(),
                       std::max(0.0, L.m_legend.top() - L.m_counters.bottom() - em * 1.2));

    const std::size_t n = frame.nodes.size();
    L.m_nodes.assign(n, QRectF());
    // The edge switch each host hangs off (T), to put T's hosts first and T beside them.
    std::vector<int> uplinkOf(n, -1);
    for (const FabricFrameLink& l : frame.links)
        if (l.from >= 0 && static_cast<std::size_t>(l.from) < n && l.to >= 0 &&
            static_cast<std::size_t>(l.to) < n)
            uplinkOf[static_cast<std::size_t>(l.from)] = l.to;
    auto role = [&](int i) { return frame.nodes[static_cast<std::size_t>(i)].role; };
    auto onEdge = [&](int i) {
        const int up = uplinkOf[static_cast<std::size_t>(i)];
        return up >= 0 && role(up) == FabricNodeRole::EdgeSwitch;
    };
    // Rows: victim senders, then the senders on an edge switch, then the rest.
    std::vector<int> rows;
    for (int pass = 0; pass < 3; ++pass)
        for (int i = 0; i < static_cast<int>(n); ++i) {
            if (!isHost(role(i)))
                continue;
            const int rank = role(i) == FabricNodeRole::VictimSender ? 0 : (onEdge(i) ? 1 : 2);
            if (rank == pass)
                rows.push_back(i);
        }
    if (rows.empty() || L.m_graph.height() <= 0)
        return L;

    const QRectF g = L.m_graph;
    const double rowH = g.height() / static_cast<double>(rows.size());
    L.m_rowH = rowH;
    const double boxH = std::clamp(rowH * 0.72, 2.0, em * 2.2);
    auto rowY = [&](std::size_t r) { return g.top() + rowH * (static_cast<double>(r) + 0.5); };
    auto col = [&](double a, double b) {
        return std::pair{g.left() + g.width() * a, g.width() * b};
    };
    const auto [hostX, hostW] = col(0.25, 0.06);
    const auto [edgeX, edgeW] = col(0.47, 0.05);
    const auto [coreX, coreW] = col(0.68, 0.05);
    const auto [recvX, recvW] = col(0.91, 0.09);

    double senderTop = g.bottom(), senderBottom = g.top();
    double edgeTop = g.bottom(), edgeBottom = g.top();
    double victimY = -1;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const int i = rows[r];
        const double y = rowY(r);
        L.m_nodes[static_cast<std::size_t>(i)] = QRectF(hostX, y - boxH / 2, hostW, boxH);
        if (onEdge(i)) {
            edgeTop = std::min(edgeTop, y - boxH / 2);
            edgeBottom = std::max(edgeBottom, y + boxH / 2);
        }
        if (role(i) == FabricNodeRole::Sender) {
            senderTop = std::min(senderTop, y);
            senderBottom = std::max(senderBottom, y);
        } else if (victimY < 0) {
            victimY = y;
        }
    }
    const double tall = std::max(boxH, em * 2.4);
    for (int i = 0; i < static_cast<int>(n); ++i) {
        QRectF& r = L.m_nodes[static_cast<std::size_t>(i)];
        switch (role(i)) {
        case FabricNodeRole::EdgeSwitch: {
            const double c = edgeTop < edgeBottom ? (edgeTop + edgeBottom) / 2 : rowY(0);
            const double h = std::max(edgeBottom - edgeTop, tall);
            r = QRectF(edgeX, c - h / 2, edgeW, h);
            break;
        }
        case FabricNodeRole::CoreSwitch:
            r = QRectF(coreX, g.top() + rowH * 0.5 - boxH / 2, coreW,
                       std::max(tall, rowH * static_cast<double>(rows.size() - 1) + boxH));
            break;
        case FabricNodeRole::Receiver: {
            const double c =
                senderTop <= senderBottom ? (senderTop + senderBottom) / 2 : g.center().y();
            r = QRectF(recvX, c - tall / 2, recvW, tall);
            break;
        }
        case FabricNodeRole::VictimReceiver: {
            const double c = victimY >= 0 ? victimY : rowY(0);
            r = QRectF(recvX, c - boxH / 2, recvW, boxH);
            break;
        }
        default:
            break;
        }
    }
    // Keep the receivers apart when few rows put R's centre on VR.
    for (int i = 0; i < static_cast<int>(n); ++i)
        if (role(i) == FabricNodeRole::Receiver)
            for (int j = 0; j < static_cast<int>(n); ++j)
                if (role(j) == FabricNodeRole::VictimReceiver) {
                    QRectF& rr = L.m_nodes[static_cast<std::size_t>(i)];
                    const QRectF& vr = L.m_nodes[static_cast<std::size_t>(j)];
                    if (rr.intersects(vr.adjusted(0, -em * 0.3, 0, em * 0.3)))
                        rr.moveTop(std::min(vr.bottom() + em * 0.5, g.bottom() - rr.height()));
                }

    const double barH = std::clamp(rowH * 0.26, 3.0, em * 0.8);
    const double gap = em * 0.3;
    for (const FabricFrameLink& l : frame.links) {
        const QRectF a = itemAt(L.m_nodes, l.from);
        const QRectF b = itemAt(L.m_nodes, l.to);
        if (a.isEmpty() || b.isEmpty()) {
            L.m_links.emplace_back();
            L.m_queues.emplace_back();
            L.m_ingress.emplace_back();
            L.m_badges.emplace_back();
            continue;
        }
        // Horizontal at the height of the shorter end, which lies inside the taller one.
        const double y = a.height() <= b.height() ? a.center().y() : b.center().y();
        const auto inside = [](const QRectF& r, double v) {
            return std::clamp(v, r.top() + 1, r.bottom() - 1);
        };
        const QLineF seg(QPointF(a.right(), inside(a, y)), QPointF(b.left(), inside(b, y)));
        L.m_links.push_back(seg);
        const double barW = std::clamp(seg.length() * 0.34, em * 1.5, em * 9);
        const double top = seg.y1() - barH - std::max(1.5, em * 0.12);
        L.m_queues.push_back(l.queueCapBytes > 0 ? QRectF(seg.x1() + gap, top, barW, barH)
                                                 : QRectF());
        L.m_ingress.push_back(l.ingressCapBytes > 0
                                  ? QRectF(seg.x2() - gap - barW, seg.y2() - barH - 1.5, barW, barH)
                                  : QRectF());
        L.m_badges.emplace_back(seg.x1() + seg.dx() * 0.5, seg.y1() + std::max(2.0, em * 0.15));
    }

    const double flowH = std::clamp(rowH * 0.8, 2.0, em * 2.6);
    for (const FabricFrameFlow& f : frame.flows) {
        const QRectF s = itemAt(L.m_nodes, f.sender);
        L.m_flows.push_back(s.isEmpty() ? QRectF()
                                        : QRectF(g.left(), s.center().y() - flowH / 2,
                                                 hostX - g.left() - em * 0.8, flowH));
    }
    return L;
}

QRectF FabricLayout::nodeRect(int node) const {
    return itemAt(m_nodes, node);
}
QLineF FabricLayout::linkLine(int link) const {
    return itemAt(m_links, link);
}
QRectF FabricLayout::queueRect(int link) const {
    return itemAt(m_queues, link);
}
QRectF FabricLayout::ingressRect(int link) const {
    return itemAt(m_ingress, link);
}
QPointF FabricLayout::badgeAnchor(int link) const {
    return itemAt(m_badges, link);
}
QRectF FabricLayout::flowRect(int flow) const {
    return itemAt(m_flows, flow);
}

int FabricLayout::nodeAt(const QPointF& pos) const {
    return indexAt(
        static_cast<int>(m_nodes.size()), [&](int i) { return nodeRect(i); }, pos);
}

int FabricLayout::linkAt(const QPointF& pos) const {
    const double reach = std::max(3.0, m_em * 0.35);
    int best = -1;
    double bestD = reach;
    for (std::size_t i = 0; i < m_links.size(); ++i) {
        if (m_links[i].isNull())
            continue;
        const auto onBar = [&](const QRectF& bar) {
            return !bar.isEmpty() && bar.adjusted(-1, -1, 1, 1).contains(pos);
        };
        if (onBar(m_queues[i]) || onBar(m_ingress[i]))
            return static_cast<int>(i);
        const double d = distanceToSegment(pos, m_links[i]);
        if (d <= bestD) {
            bestD = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

int FabricLayout::flowAt(const QPointF& pos) const {
    return indexAt(
        static_cast<int>(m_flows.size()), [&](int i) { return flowRect(i); }, pos);
}

} // namespace wb
