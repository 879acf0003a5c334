#pragma once
// Draws a ring collective at one moment: each GPU as a card on a ring with its chunk copies,
// the links between neighbours, chunks in flight, bytes sent so far, and the phase caption.
#include "drawing/frame_view.h"
#include "frames/ring_frame.h"
#include "topology/ring_layout.h"

namespace wb {

class RingView : public FrameView<RingFrame> {
    Q_OBJECT
public:
    explicit RingView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // The geometry paint() uses for `bounds`, so tests can find what it drew.
    RingLayout layoutFor(const QRectF& bounds) const;

    // The texts the view shows, for tests and accessibility.
    static QString caption(const RingFrame& frame);
    static QString counterText(const RingFrame& frame, int rank, bool withTarget = true);

    QSize sizeHint() const override { return {640, 600}; }
    QSize minimumSizeHint() const override { return {240, 220}; }
};

} // namespace wb
