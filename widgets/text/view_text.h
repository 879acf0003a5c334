#pragma once
// Text that must fit its box: every view elides titles, captions and labels the same way.
#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <algorithm>

namespace wb {

// `text` cut with an ellipsis to `width` pixels in `font` (nothing for a negative width).
inline QString elided(const QFont& font, const QString& text, double width) {
    return QFontMetricsF(font).elidedText(text, Qt::ElideRight, std::max(0.0, width));
}

// One line of text in `rect`: a title, a caption, a label; cut to the rect's width.
inline void drawElidedLine(QPainter& painter, const QRectF& rect, const QFont& font,
                           const QColor& colour, const QString& text,
                           Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter) {
    painter.setFont(font);
    painter.setPen(colour);
    painter.drawText(rect, static_cast<int>(align.toInt()), elided(font, text, rect.width()));
}

} // namespace wb
