#include "traces/panel_surface.h"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QTimer>
#include <cmath>

namespace wb {

namespace {
// The page's margin, in the docked type's body size.
constexpr double kSurfaceMarginEm = 0.8;
} // namespace

PanelSurface::PanelSurface(Draw draw, QWidget* parent)
    : QWidget(parent)
    , m_draw(std::move(draw)) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void PanelSurface::setTheme(const Theme& theme) {
    m_theme = theme;
    update();
}

void PanelSurface::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), m_theme.background);
    const TypeScale type = dockedPanelType();
    const double margin = kSurfaceMarginEm * type.px(TextRole::Body);
    const QRectF page(margin, margin, std::max(1.0, width() - 2 * margin), 0.0);
    PanelCanvas canvas(painter, page, m_theme, type, false);
    m_draw(canvas);
    m_hits = canvas.hits();
    // Grow (or shrink) to what was drawn; the scroll area follows the minimum size. Deferred:
    // a resize inside paintEvent would repaint recursively.
    const QSize need(static_cast<int>(std::ceil(canvas.neededWidth() + 2 * margin)),
                     static_cast<int>(std::ceil(canvas.y() + margin)));
    if (need != minimumSize())
        QTimer::singleShot(0, this, [this, need] { setMinimumSize(need); });
}

void PanelSurface::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mouseReleaseEvent(event);
    for (const PanelHit& hit : m_hits)
        if (hit.box.contains(event->position())) {
            emit hitActivated(hit);
            return;
        }
}

void PanelSurface::mouseMoveEvent(QMouseEvent* event) {
    bool over = false;
    for (const PanelHit& hit : m_hits)
        over = over || hit.box.contains(event->position());
    setCursor(over ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(event);
}

} // namespace wb
