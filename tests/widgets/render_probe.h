#pragma once
// Helpers for widget tests: render into an image, look for colours in regions, and save the
// image when WB_RENDER_DIR is set so a person can look at what the test saw.
#include <QColor>
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QRect>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <cstdlib>

namespace wb::test {

inline bool near(QColor a, QColor b, int tolerance) {
    return std::abs(a.red() - b.red()) <= tolerance &&
           std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

// Pixels within `tolerance` of `colour` inside `area` (clipped to the image).
inline int countNear(const QImage& image, const QRect& area, QColor colour, int tolerance = 12) {
    const QRect r = area.intersected(image.rect());
    int count = 0;
    for (int y = r.top(); y <= r.bottom(); ++y) {
        for (int x = r.left(); x <= r.right(); ++x) {
            count += near(image.pixelColor(x, y), colour, tolerance) ? 1 : 0;
        }
    }
    return count;
}

// Pixels that differ from `background` by more than `tolerance`.
inline int countNotNear(const QImage& image, const QRect& area, QColor background,
                        int tolerance = 12) {
    const QRect r = area.intersected(image.rect());
    return r.width() * r.height() - countNear(image, r, background, tolerance);
}

inline QRect around(QPointF centre, int radius) {
    const QPoint c = centre.toPoint();
    return {c.x() - radius, c.y() - radius, 2 * radius + 1, 2 * radius + 1};
}

// A view's paint(painter, rect) into a fresh image of `size`: every view test renders this way.
template <typename View> QImage paintToImage(const View& view, QSize size) {
    QImage image(size, QImage::Format_RGB32);
    QPainter painter(&image);
    view.paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return image;
}

inline QImage grabImage(QWidget& widget) {
    return widget.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

inline void saveForHumans(const QImage& image, const QString& name) {
    const QString dir = qEnvironmentVariable("WB_RENDER_DIR");
    if (!dir.isEmpty()) {
        QDir().mkpath(dir);
        image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    }
}

} // namespace wb::test
