#include "stage/media_icon.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace wb {

namespace {

constexpr int kSize = 48; // drawn large, scaled down crisply by QIcon

QPainterPath glyphPath(MediaGlyph glyph) {
    // On a 48 x 48 canvas with a 10 px margin.
    QPainterPath path;
    switch (glyph) {
    case MediaGlyph::Play:
        path.moveTo(14, 10);
        path.lineTo(38, 24);
        path.lineTo(14, 38);
        path.closeSubpath();
        break;
    case MediaGlyph::Pause:
        path.addRect(13, 10, 8, 28);
        path.addRect(27, 10, 8, 28);
        break;
    case MediaGlyph::Previous:
        path.addRect(10, 10, 5, 28);
        path.moveTo(38, 10);
        path.lineTo(16, 24);
        path.lineTo(38, 38);
        path.closeSubpath();
        break;
    case MediaGlyph::Next:
        path.addRect(33, 10, 5, 28);
        path.moveTo(10, 10);
        path.lineTo(32, 24);
        path.lineTo(10, 38);
        path.closeSubpath();
        break;
    }
    return path;
}

QPixmap render(MediaGlyph glyph, const QColor& colour) {
    QPixmap pixmap(kSize, kSize);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillPath(glyphPath(glyph), colour);
    return pixmap;
}

} // namespace

QIcon mediaIcon(MediaGlyph glyph, const QPalette& palette) {
    QIcon icon;
    icon.addPixmap(render(glyph, palette.color(QPalette::Active, QPalette::ButtonText)),
                   QIcon::Normal);
    icon.addPixmap(render(glyph, palette.color(QPalette::Disabled, QPalette::ButtonText)),
                   QIcon::Disabled);
    return icon;
}

} // namespace wb
