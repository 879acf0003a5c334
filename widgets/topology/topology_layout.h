#pragma once
// Where the cluster goes for a given size: the spine(s) along the top, the leaves below them,
// the nodes along the bottom grouped under their leaf; inside a node box a row of NICs, the
// GPUs under them and the NVSwitch bar at the bottom. Every link is a straight segment and
// every flow a polyline over those links (GPU → NVSwitch → GPU inside a node, GPU → NIC →
// leaf (→ spine → leaf) → NIC → GPU between nodes). Pure geometry, kept apart from painting
// so tests and hover tips can ask where something was drawn.
#include "frames/topology_frame.h"

#include <QLineF>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <optional>
#include <vector>

namespace wb {

class TopologyLayout {
public:
    enum class LinkKind {
        NvLink,  // GPU – NVSwitch (a = node, b = gpu), coloured by the GPU's nvlinkUtil
        GpuNic,  // GPU – its NIC (a = node, b = gpu), coloured by the GPU's nicUtil
        NicLeaf, // NIC – leaf (a = node, b = gpu), coloured by the GPU's nicUtil
        Uplink,  // leaf – spine (a = leaf, b = spine), coloured by the leaf's uplinkUtil
    };
    struct Link {
        LinkKind kind = LinkKind::NvLink;
        int a = -1, b = -1;
        bool operator==(const Link&) const = default;
    };
    struct GpuRef {
        int node = -1, gpu = -1;
        bool valid() const { return node >= 0 && gpu >= 0; }
        bool operator==(const GpuRef&) const = default;
    };

    // `em` is the text size in pixels (the theme's scale already applied).
    // titleH and captionH: the heights the view's wrapped title and caption need (0: one line).
    static TopologyLayout compute(const QRectF& bounds, const TopologyFrame& frame, double em,
                                  double titleH = 0, double captionH = 0);

    double em() const { return m_em; }
    QRectF titleRect() const { return m_title; }
    QRectF graphRect() const { return m_graph; }
    QRectF legendRect() const { return m_legend; }
    QRectF scaleRect() const { return m_scale; } // the utilisation scale inside the legend
    QRectF captionRect() const { return m_caption; }
    QRectF hiddenRect() const { return m_hidden; } // "+ N nodes"; empty when none are hidden

    int spineCount() const { return static_cast<int>(m_spines.size()); }
    QRectF spineRect(int spine) const;
    int leafCount() const { return static_cast<int>(m_leaves.size()); }
    QRectF leafRect(int leaf) const;
    int nodeCount() const { return static_cast<int>(m_nodes.size()); }
    QRectF nodeRect(int node) const;
    QRectF nodeLabelRect(int node) const; // under the node box
    QRectF nvSwitchRect(int node) const;
    int gpuCount(int node) const;
    QRectF gpuRect(int node, int gpu) const;
    QRectF nicRect(int node, int gpu) const;

    // Every link drawn, in painting order, and the segment of one (null when not drawn).
    const std::vector<Link>& links() const { return m_links; }
    QLineF linkLine(const Link& link) const;

    // The route of flow `index` (the frame's flows order); empty when its ends are not drawn,
    // are one GPU, or need a spine the frame does not have.
    bool hasRoute(int flow) const;
    double routeLength(int flow) const;
    QPointF routePoint(int flow, double t) const; // t in [0, 1] along the route by length
    const std::vector<QPointF>& routePoints(int flow) const;
    QPainterPath routePath(int flow) const;

    // Hit tests for the hover tips: -1 / invalid / nullopt when nothing is there.
    GpuRef gpuAt(const QPointF& pos) const;
    int nodeAt(const QPointF& pos) const;
    int leafAt(const QPointF& pos) const;
    int spineAt(const QPointF& pos) const;
    std::optional<Link> linkAt(const QPointF& pos, double tolerance) const;

    // Every rectangle the layout placed, for checks that everything fits inside the bounds.
    std::vector<QRectF> allRects() const;

private:
    struct NodeBox {
        QRectF box, label, nvSwitch;
        std::vector<QRectF> gpus, nics;
        std::vector<QPointF> leafPorts; // where each NIC's line meets its leaf
        int leaf = -1;
    };
    struct Route {
        std::vector<QPointF> points;
        std::vector<double> lengths; // cumulative, lengths[0] = 0
    };
    QPointF uplinkAtLeaf(int leaf, int spine) const;
    QPointF uplinkAtSpine(int leaf, int spine) const;
    Route routeFor(const TopologyFrame& frame, int flow) const;

    double m_em = 12.0;
    QRectF m_title, m_graph, m_legend, m_scale, m_caption, m_hidden;
    std::vector<QRectF> m_spines, m_leaves;
    std::vector<NodeBox> m_nodes;
    std::vector<Link> m_links;
    std::vector<Route> m_routes;
};

} // namespace wb
