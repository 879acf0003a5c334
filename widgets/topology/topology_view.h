#pragma once
// Draws a training cluster as the fabric model sees it: spine, leaves, nodes of GPUs on an
// NVSwitch with one NIC each. Links are coloured by how busy they are (grey idle → green →
// amber → red at 100 %), GPUs by their group, and traffic moves as packets along each flow's
// route, so a group placed across nodes visibly loads the NICs. Hover text comes from the
// frame.
#include "drawing/frame_view.h"
#include "frames/topology_frame.h"
#include "topology/topology_layout.h"

#include <QPainter>
#include <QWidget>
#include <utility>
#include <vector>

namespace wb {

class TopologyView : public FrameView<TopologyFrame> {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // The geometry paint() uses for `bounds`, so tests can find what it drew.
    TopologyLayout layoutFor(const QRectF& bounds) const;
    // The hover text at `pos` in widget coordinates: a packet's flow, a GPU, a switch, a link's
    // utilisation, else the node under it.
    QString tipAt(const QPointF& pos) const;

    // Link colour for a utilisation in [0, 1]: the theme's idle grey, green, amber, red.
    static QColor utilColor(const Theme& theme, double util);
    // Colour of a flow class (GPU groups and packets); avoids the utilisation scale's hues.
    static QColor classColor(const Theme& theme, int index);

    // One packet drawn: which flow and where.
    struct Packet {
        int flow = 0;
        QPointF pos;
    };
    // The packets paint() draws for this frame and layout. A packet crosses its route in one
    // second of animation and packetsPerS leave per second, so packetsPerS of them are on the
    // route at once, evenly spaced, advancing with phaseS (the pattern of a flow repeats every
    // 1 / rate seconds). A route holds at most one packet per two dot widths, and all routes
    // together at most kMaxPackets (every rate scaled down alike), so painting stays fast.
    static std::vector<Packet> packets(const TopologyFrame& frame, const TopologyLayout& layout);
    static constexpr int kMaxPackets = 4000;
    // Diameter of a packet dot for a layout.
    static double packetSize(const TopologyLayout& layout);

    QSize sizeHint() const override { return {960, 600}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

protected:
    bool event(QEvent* event) override;

private:
    // A switch as drawn: its box and its name.
    using SwitchBox = std::pair<QRectF, QString>;
    std::vector<SwitchBox> switchBoxes(const TopologyLayout& layout) const;

    // The passes of paint(), in the order it runs them.
    void drawHeading(QPainter& painter, const TopologyLayout& layout) const;
    void drawNodeBoxes(QPainter& painter, const TopologyLayout& layout) const;
    void drawLinks(QPainter& painter, const TopologyLayout& layout) const;
    void drawSwitchBoxes(QPainter& painter, const std::vector<SwitchBox>& switches) const;
    void drawNodes(QPainter& painter, const TopologyLayout& layout) const;
    void drawGpus(QPainter& painter, const TopologyLayout& layout, int node) const;
    void drawPackets(QPainter& painter, const TopologyLayout& layout) const;
    void drawNvSwitchLabels(QPainter& painter, const TopologyLayout& layout) const;
    void drawSwitchLabels(QPainter& painter, const TopologyLayout& layout,
                          const std::vector<SwitchBox>& switches) const;
    void drawHiddenNodeCount(QPainter& painter, const TopologyLayout& layout) const;
    void drawClassLegendAndScale(QPainter& painter, const TopologyLayout& layout) const;
};

} // namespace wb
