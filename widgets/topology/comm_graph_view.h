#pragma once
// Draws an NCCL communicator as a plain ring/tree diagram: ranks as discs, one curved arrow
// per ring channel coloured by its transport, tree parent → child arrows dashed, a legend of
// the transports with the channel count, and the caption. Hover text comes from the frame.
#include "drawing/frame_view.h"
#include "frames/comm_graph_frame.h"
#include "topology/comm_graph_layout.h"

#include <QPainter>
#include <QWidget>

namespace wb {

class CommGraphView : public FrameView<CommGraphFrame> {
    Q_OBJECT
public:
    explicit CommGraphView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // The geometry paint() uses for `bounds`, so tests can find what it drew.
    CommGraphLayout layoutFor(const QRectF& bounds) const;
    QFont titleFont(double em) const;
    QFont captionFont(double em) const;
    // The hover text at `pos` in widget coordinates: a node's, else the nearest edge's.
    QString tipAt(const QPointF& pos) const;
    // "24 channels · P2P/direct, tree": the legend's text.
    static QString legendText(const CommGraphFrame& frame);

    QSize sizeHint() const override { return {640, 520}; }
    QSize minimumSizeHint() const override { return {240, 200}; }

protected:
    bool event(QEvent* event) override;
};

} // namespace wb
