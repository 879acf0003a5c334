#pragma once
// Where the incast goes for a given size: one row per host, flow gauges on the left of each
// sender, the hosts, the small switch T in front of the rows of the hosts it serves, the main
// switch S spanning every row, receivers on the right. Every link is a horizontal segment from
// its transmitter to its receiver, with the transmitter's egress queue drawn as a bar just
// after the start and the receiving switch's ingress buffer as a bar just before the end.
// Pure geometry, kept apart from painting so tests and hover tips can ask where things are.
#include "frames/fabric_frame.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <vector>

namespace wb {

class FabricLayout {
public:
    // `em` is the text size in pixels (the theme's scale already applied).
    // titleH, countersH and captionH: the heights the view's wrapped texts need (0: one line).
    static FabricLayout compute(const QRectF& bounds, const FabricFrame& frame, double em,
                                double titleH = 0, double countersH = 0, double captionH = 0);

    double em() const { return m_em; }
    QRectF titleRect() const { return m_title; }
    QRectF countersRect() const { return m_counters; }
    QRectF graphRect() const { return m_graph; }
    QRectF legendRect() const { return m_legend; }
    QRectF captionRect() const { return m_caption; }
    double rowHeight() const { return m_rowH; }

    QRectF nodeRect(int node) const;     // empty for a node the layout does not place
    QLineF linkLine(int link) const;     // transmitter → receiver
    QRectF queueRect(int link) const;    // full-scale egress bar; empty when not drawn
    QRectF ingressRect(int link) const;  // full-scale ingress bar; empty when not drawn
    QPointF badgeAnchor(int link) const; // where the link's event badges start
    QRectF flowRect(int flow) const;     // the flow's gauge row left of its sender

    int nodeAt(const QPointF& pos) const;
    int linkAt(const QPointF& pos) const; // on the segment or one of its bars
    int flowAt(const QPointF& pos) const;

private:
    double m_em = 12;
    double m_rowH = 0;
    QRectF m_title, m_counters, m_graph, m_legend, m_caption;
    std::vector<QRectF> m_nodes;
    std::vector<QLineF> m_links;
    std::vector<QRectF> m_queues, m_ingress;
    std::vector<QPointF> m_badges;
    std::vector<QRectF> m_flows;
};

} // namespace wb
