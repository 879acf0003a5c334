#pragma once
// Draws an incast on a packet fabric (FabricFrame): senders with their flows' rate and goodput
// gauges, the small switch T, the main switch S, the receivers. Each link is coloured by how
// busy it is, or drawn as held: a thick magenta line with a pause mark while a PFC pause is in
// force (so a pause climbing upstream shows as magenta spreading from S back to the hosts), a
// dashed blue line while an InfiniBand transmitter waits for credits. Egress queues are bars at
// the transmitter, ingress buffers bars before the receiving switch; recent events (pause, ECN
// mark, CNP, drop, go-back-N resend) flash as badges on the link. Hover text comes from the
// frame.
#include "drawing/frame_view.h"
#include "frames/fabric_frame.h"
#include "topology/fabric_layout.h"

#include <QPainter>
#include <QWidget>

namespace wb {

class FabricView : public FrameView<FabricFrame> {
    Q_OBJECT
public:
    explicit FabricView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // The geometry paint() uses for `bounds`, so tests can find what it drew.
    FabricLayout layoutFor(const QRectF& bounds) const;
    // The hover text at `pos` in widget coordinates: a flow's gauge, a node, a link or its bars.
    QString tipAt(const QPointF& pos) const;

    // A link held by a PFC pause, and one waiting for InfiniBand credits.
    static QColor pauseColor(const Theme& theme);
    static QColor noCreditColor(const Theme& theme);
    // Fills of the egress-queue and ingress-buffer bars.
    static QColor queueColor(const Theme& theme);
    static QColor ingressColor(const Theme& theme);

    QSize sizeHint() const override { return {960, 600}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

protected:
    bool event(QEvent* event) override;

private:
    // The passes of paint(), in the order it runs them; `linkW` is the links' line width.
    void drawHeading(QPainter& painter, const FabricLayout& layout) const;
    void drawLinks(QPainter& painter, const FabricLayout& layout, double linkW) const;
    void drawNodes(QPainter& painter, const FabricLayout& layout) const;
    void drawEventBadges(QPainter& painter, const FabricLayout& layout) const;
    void drawFlowGauges(QPainter& painter, const FabricLayout& layout) const;
    void drawStyleLegend(QPainter& painter, const FabricLayout& layout, double linkW) const;
};

} // namespace wb
