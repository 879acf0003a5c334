#include "drawing/slide_view.h"

#include <QPaintEvent>
#include <algorithm>

namespace wb {

SlideView::SlideView(QWidget* parent)
    : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void SlideView::setTheme(const Theme& theme) {
    m_theme = theme;
    // The presentation scale rides on the theme; the slide height stays the stage's.
    m_type = TypeScale::forSlide(m_type.slideHeight(), theme.fontScale);
    m_theme.minimumPx = m_type.floor();
    themeChanged();
    update();
}

void SlideView::setTypeScale(const TypeScale& scale) {
    if (scale == m_type)
        return;
    m_type = scale;
    m_theme.minimumPx = m_type.floor();
    themeChanged();
    update();
}

double SlideView::layoutEm(const QRectF& bounds, EmFit fit) const {
    const double body = m_type.px(TextRole::Body) * fit.ofBody;
    const double fits = std::min(bounds.width() / std::max(1.0, fit.widthEms),
                                 bounds.height() / std::max(1.0, fit.heightEms));
    return std::max(m_type.floor(), std::min(body, fits));
}

QFont SlideView::font(double px, bool bold) const {
    return m_theme.fontAtPixels(px, bold); // floored by the theme's minimumPx
}

QFont SlideView::monoFont(double px, bool bold) const {
    return m_theme.monoFontAtPixels(px, bold);
}

ViewHeader SlideView::layoutHeader(const QRectF& bounds, EmFit fit, const std::string& title,
                                   const std::string& caption) const {
    ViewHeader h;
    h.em = layoutEm(bounds, fit);
    const double pad = h.em * 0.8;
    h.inner = bounds.adjusted(pad, pad, -pad, -pad);
    const double w = h.inner.width();
    h.titleText = wrapText(font(h.em * 1.15, true), QString::fromStdString(title), w);
    h.captionText = wrapText(font(h.em * 0.95), QString::fromStdString(caption), w);
    const double titleH = h.titleText.empty() ? 0 : h.titleText.height() + h.em * 0.35;
    const double captionH = h.captionText.empty() ? 0 : h.captionText.height() + h.em * 0.35;
    h.title = QRectF(h.inner.left(), h.inner.top(), w, titleH);
    h.caption = QRectF(h.inner.left(), h.title.bottom(), w, captionH);
    return h;
}

void SlideView::drawHeader(QPainter& painter, const ViewHeader& header) const {
    drawWrapped(painter, header.title, header.titleText, m_theme.foreground);
    drawWrapped(painter, header.caption, header.captionText, m_theme.foreground);
}

void SlideView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    paint(painter, QRectF(rect()));
}

} // namespace wb
