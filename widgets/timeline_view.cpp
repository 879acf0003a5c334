#include "timeline_view.h"

namespace wb {

TimelineView::TimelineView(QWidget* parent)
    : FrameView<TimelineFrame>(parent) {}

void TimelineView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.fillRect(bounds, m_theme.background);
    painter.setPen(m_theme.foreground);
    painter.drawText(bounds, Qt::AlignCenter, QString::fromStdString(m_frame.title));
}

} // namespace wb
