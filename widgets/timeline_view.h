#pragma once
// Per-rank kernel timelines from a TimelineFrame (skeleton: the full view replaces this).
#include "frame_view.h"
#include "frames/timeline_frame.h"

namespace wb {

class TimelineView : public FrameView<TimelineFrame> {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    void paint(QPainter& painter, const QRectF& bounds) const override;
};

} // namespace wb
