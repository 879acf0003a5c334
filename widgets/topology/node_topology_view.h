#pragma once
// Draws the inside of servers: GPUs, NICs, PCIe switches, CPUs and their DRAM, the NVSwitch and
// the network, wired by link class (NVLink thick, PCIe, network, memory bus, CPU link dashed),
// with routes over them: NCCL ring channels and trees, an RDMA transfer's path, each in its
// class colour with packets moving along it and numbered marks where a copy or DMA happens.
// Hover text comes from the frame.
#include "drawing/frame_view.h"
#include "frames/node_topology_frame.h"
#include "topology/node_topology_layout.h"

#include <QImage>
#include <QPainter>
#include <QWidget>
#include <vector>

namespace wb {

class NodeTopologyView : public FrameView<NodeTopologyFrame> {
    Q_OBJECT
public:
    explicit NodeTopologyView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    NodeTopologyLayout layoutFor(const QRectF& bounds) const;
    QString title() const;
    QString caption() const;
    // A mark, a route, a part, a link or a host under `pos` (widget coordinates), in that order.
    QString tipAt(const QPointF& pos) const;

    // Colour of route class `index`: the same palette the cluster view gives its flows.
    static QColor routeColor(const Theme& theme, int index);
    // Colour of a link class: NVLink green, the rest in the theme's quiet tones.
    static QColor linkColor(const Theme& theme, NodeLinkKind kind);

    struct Packet {
        int route = 0;
        QPointF pos;
    };
    static std::vector<Packet> packets(const NodeTopologyFrame& frame,
                                       const NodeTopologyLayout& layout);
    static constexpr int kMaxPackets = 2000;
    static double packetSize(const NodeTopologyLayout& layout);

    QSize sizeHint() const override { return {960, 600}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

protected:
    bool event(QEvent* event) override;
    void frameChanged(const NodeTopologyFrame& previous) override;
    void themeChanged() override;

private:
    // Everything but the packets and the copy marks: unchanged while a step plays.
    void paintStill(QPainter& painter, const NodeTopologyLayout& layout,
                    const QRectF& bounds) const;
    void paintMoving(QPainter& painter, const NodeTopologyLayout& layout, bool raster) const;
    void paintPartLabels(QPainter& painter, const NodeTopologyLayout& layout) const;
    std::pair<QColor, QColor> partColours(const NodePart& part) const;

    mutable QImage m_still; // paintStill's pixels for m_stillBounds, empty when out of date
    mutable QRectF m_stillBounds;
};

} // namespace wb
