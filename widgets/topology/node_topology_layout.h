#pragma once
// Geometry of a NodeTopologyView: the title, the diagram scaled uniformly into the space left,
// the legend and caption lines, every part's and host's rectangle, every link's line and every
// route's polyline. Routes run orthogonally: entering or leaving a part wider than its
// neighbour (a PCIe switch, a CPU, the NVSwitch, the network) they turn at the neighbour's x,
// so a ring over the NVSwitch reads as down, along the switch, up.
#include "frames/node_topology_frame.h"

#include <QLineF>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <vector>

namespace wb {

class NodeTopologyLayout {
public:
    // `titleH` and `captionH` are the heights the view's wrapped title and caption need
    // (0: none); the diagram gets the rest.
    static NodeTopologyLayout compute(const QRectF& bounds, const NodeTopologyFrame& frame,
                                      double em, double titleH = 0, double captionH = 0);

    double em() const { return m_em; }
    QRectF titleRect() const { return m_title; }
    QRectF diagramRect() const { return m_diagram; }
    QRectF legendRect() const { return m_legend; }
    QRectF captionRect() const { return m_caption; }

    QRectF partRect(int part) const { return m_parts.at(static_cast<std::size_t>(part)); }
    QRectF hostRect(int host) const { return m_hosts.at(static_cast<std::size_t>(host)); }
    int partCount() const { return static_cast<int>(m_parts.size()); }
    int routeCount() const { return static_cast<int>(m_routes.size()); }
    QLineF linkLine(int link) const { return m_links.at(static_cast<std::size_t>(link)); }
    // Empty for a route with fewer than two valid parts.
    const QPolygonF& route(int index) const { return m_routes.at(static_cast<std::size_t>(index)); }
    double routeLength(int index) const;
    QPointF routePoint(int index, double fraction) const; // 0…1 along the route
    // Where a route's mark sits: the part's top-right corner, nudged along the route's offset.
    QPointF markPoint(int route, int hop) const;

    int partAt(const QPointF& pos) const; // topmost (narrowest) part under pos, else -1
    int linkAt(const QPointF& pos, double reach) const;
    int routeAt(const QPointF& pos, double reach) const;
    int hostAt(const QPointF& pos) const;

private:
    double m_em = 10;
    QRectF m_title, m_diagram, m_legend, m_caption;
    std::vector<QRectF> m_parts, m_hosts;
    std::vector<QLineF> m_links;
    std::vector<QPolygonF> m_routes;
    std::vector<std::vector<int>> m_routeParts;
    std::vector<QPointF> m_routeOffsets;
};

} // namespace wb
