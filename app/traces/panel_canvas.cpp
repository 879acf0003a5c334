#include "traces/panel_canvas.h"

#include "text/text_layout.h"

#include <limits>

namespace wb {

PanelCanvas::PanelCanvas(QPainter& painter, const QRectF& bounds, const Theme& theme,
                         const TypeScale& type, bool bounded)
    : m_painter(painter)
    , m_bounds(bounds)
    , m_theme(theme)
    , m_type(type)
    , m_bounded(bounded)
    , m_y(bounds.top()) {
    // No font below the type scale's floor, whatever role a block asks for.
    m_theme.minimumPx = std::max(m_theme.minimumPx, type.floor());
}

double PanelCanvas::remaining() const {
    return m_bounded ? m_bounds.bottom() - m_y : std::numeric_limits<double>::max() / 4;
}

QFont PanelCanvas::font(TextRole role, bool bold) const {
    return m_theme.fontAtPixels(m_type.px(role), bold);
}

void PanelCanvas::heading(const QString& text) {
    m_y += drawWrappedText(m_painter, QRectF(left(), m_y, width(), 0), font(TextRole::Body, true),
                           m_theme.foreground, text);
    m_y += 0.4 * em();
}

void PanelCanvas::paragraph(const QString& text, TextRole role, bool muted) {
    m_y += drawWrappedText(m_painter, QRectF(left(), m_y, width(), 0), font(role),
                           muted ? m_theme.muted : m_theme.foreground, text);
    m_y += 0.4 * em();
}

void renderPanelPage(QPainter& painter, const QRectF& bounds, const Theme& theme,
                     const QString& title, const std::function<void(PanelCanvas&)>& draw) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(bounds, theme.background);
    const TypeScale type = TypeScale::forSlide(bounds.height());
    const double margin = 1.2 * type.px(TextRole::Body);
    const QRectF page = bounds.adjusted(margin, margin, -margin, -margin);
    PanelCanvas canvas(painter, page, theme, type, true);
    canvas.setY(canvas.y() +
                drawWrappedText(painter, QRectF(page.left(), page.top(), page.width(), 0),
                                canvas.font(TextRole::Heading, true), theme.foreground, title));
    canvas.space(0.6);
    draw(canvas);
    painter.restore();
}

TypeScale dockedPanelType() {
    return TypeScale::forSlide(720.0);
}

} // namespace wb
