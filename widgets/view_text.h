#pragma once
// Text that must fit its box: every view elides titles, captions and labels the same way.
#include <QFont>
#include <QFontMetricsF>
#include <QString>
#include <algorithm>

namespace wb {

// `text` cut with an ellipsis to `width` pixels in `font` (nothing for a negative width).
inline QString elided(const QFont& font, const QString& text, double width) {
    return QFontMetricsF(font).elidedText(text, Qt::ElideRight, std::max(0.0, width));
}

} // namespace wb
