#pragma once
// Where the communicator graph goes for a given size: the title strip, rank nodes on an
// ellipse (two ranks side by side), each edge as a curve bent into its own lane so the
// channels between one pair of ranks stay apart, the legend and the caption. Pure geometry,
// kept apart from painting so tests can ask where a node or an edge was drawn.
#include "frames/comm_graph_frame.h"

#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <vector>

namespace wb {

// Heights of the title and caption as the painter wraps them (0: one line each).
struct CommGraphTextHeights {
    double title = 0.0;
    double caption = 0.0;
};

class CommGraphLayout {
public:
    // `em` is the text size in pixels (the theme's scale already applied).
    static CommGraphLayout compute(const QRectF& bounds, const CommGraphFrame& frame, double em,
                                   const CommGraphTextHeights& text = {});
    // The width title and caption wrap to for `bounds` at `em`.
    static double textWidth(const QRectF& bounds, double em) {
        return paddedArea(bounds, em).width();
    }
    // `bounds` less the padding every part of the graph keeps from its edge.
    static QRectF paddedArea(const QRectF& bounds, double em);

    double em() const { return m_em; }
    QRectF titleRect() const { return m_title; }
    QRectF graphRect() const { return m_graph; }
    QRectF legendRect() const { return m_legend; }
    QRectF captionRect() const { return m_caption; }
    double nodeRadius() const { return m_nodeRadius; }

    int nodeCount() const { return static_cast<int>(m_nodes.size()); }
    // Centre of node `index` (the frame's nodes order).
    QPointF nodeCentre(int index) const;
    // The node whose disc contains `pos`, or -1.
    int nodeAt(const QPointF& pos) const;

    // The curve of edge `index` from the rim of its source node to the rim of its target;
    // empty for an edge whose ranks are not nodes or that loops back to its own rank.
    bool hasEdge(int index) const;
    QPointF edgePoint(int index, double t) const; // t in [0, 1] along the curve
    QPainterPath edgePath(int index) const;
    // The edge whose curve passes within `tolerance` pixels of `pos` (the nearest), or -1.
    int edgeAt(const QPointF& pos, double tolerance) const;

private:
    struct Curve {
        bool valid = false;
        QPointF start, control, end;
    };
    double m_em = 12.0;
    QRectF m_title, m_graph, m_legend, m_caption;
    double m_nodeRadius = 10.0;
    std::vector<QPointF> m_nodes;
    std::vector<Curve> m_edges;
};

} // namespace wb
