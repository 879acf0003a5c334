#include "facts_view.h"

#include "hover_tip.h"

#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>

namespace wb {

namespace {

constexpr double kSourceScale = 0.78; // source line relative to the value text
constexpr double kRowEm = 1.35 + 1.25 * kSourceScale + 0.55;
constexpr double kTitleEm = 2.0;

} // namespace

FactsView::FactsView(QWidget* parent)
    : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void FactsView::setFrame(const FactsFrame& frame) {
    if (frame == m_frame) {
        return;
    }
    m_frame = frame;
    update();
}

void FactsView::setTheme(const Theme& theme) {
    m_theme = theme;
    update();
}

FactsView::Metrics FactsView::metrics(const QRectF& bounds) const {
    Metrics m;
    const double side = std::min(bounds.width(), bounds.height() * 1.6);
    m.px = std::clamp(side / 26.0, 11.0, 20.0) * m_theme.fontScale;
    const auto rows = static_cast<double>(m_frame.rows.size());
    const double titleEm = m_frame.title.empty() ? 0.0 : kTitleEm;
    // Shrink type until every row fits: a cut-off fact is worse than a smaller one.
    const double neededEm = titleEm + rows * kRowEm + 1.2;
    if (neededEm * m.px > bounds.height() && neededEm > 0.0) {
        m.px = std::max(7.0, bounds.height() / neededEm);
    }
    m.pad = m.px * 0.6;
    m.titleH = titleEm * m.px;
    m.rowH = kRowEm * m.px;
    return m;
}

std::vector<QRectF> FactsView::rowRects(const QRectF& bounds) const {
    const Metrics m = metrics(bounds);
    std::vector<QRectF> out;
    double top = bounds.top() + m.pad + m.titleH;
    for (std::size_t i = 0; i < m_frame.rows.size(); ++i) {
        out.emplace_back(bounds.left() + m.pad, top, bounds.width() - 2.0 * m.pad, m.rowH);
        top += m.rowH;
    }
    return out;
}

int FactsView::rowAt(const QPointF& pos) const {
    const std::vector<QRectF> rows = rowRects(rect());
    return indexAt(
        static_cast<int>(rows.size()), [&](int i) { return rows[static_cast<std::size_t>(i)]; },
        pos);
}

void FactsView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Metrics m = metrics(bounds);

    if (!m_frame.title.empty()) {
        painter.setFont(m_theme.fontAtPixels(m.px * 1.15, true));
        painter.setPen(m_theme.foreground);
        const QRectF title(bounds.left() + m.pad, bounds.top() + m.pad,
                           bounds.width() - 2.0 * m.pad, m.titleH * 0.8);
        painter.drawText(
            title, Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(painter.font())
                .elidedText(QString::fromStdString(m_frame.title), Qt::ElideRight, title.width()));
    }

    const QFont label = m_theme.fontAtPixels(m.px);
    const QFont value = m_theme.fontAtPixels(m.px, true);
    const QFont source = m_theme.fontAtPixels(m.px * kSourceScale);
    const std::vector<QRectF> rows = rowRects(bounds);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const FactRow& row = m_frame.rows[i];
        const QRectF band = rows[i];
        if (row.emphasis) {
            QColor tint = m_theme.accent;
            tint.setAlphaF(m_theme.isDark ? 0.16f : 0.09f);
            painter.fillRect(band, tint);
            painter.fillRect(QRectF(band.left(), band.top(), m.px * 0.22, band.height()),
                             m_theme.accent);
        }
        const double inset = m.px * 0.55;
        const QRectF line(band.left() + inset, band.top() + m.px * 0.3, band.width() - 2 * inset,
                          m.px * 1.35);
        const QString valueText = QString::fromStdString(row.value);
        const double valueW =
            std::min(QFontMetricsF(value).horizontalAdvance(valueText), line.width() * 0.55);
        painter.setFont(value);
        painter.setPen(row.emphasis ? m_theme.accent : m_theme.foreground);
        painter.drawText(line, Qt::AlignRight | Qt::AlignVCenter,
                         QFontMetricsF(value).elidedText(valueText, Qt::ElideRight, valueW));
        painter.setFont(row.emphasis ? value : label);
        painter.setPen(m_theme.foreground);
        const double labelW = line.width() - valueW - m.px;
        painter.drawText(
            QRectF(line.left(), line.top(), labelW, line.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(painter.font())
                .elidedText(QString::fromStdString(row.label), Qt::ElideRight, labelW));
        painter.setFont(source);
        painter.setPen(m_theme.muted);
        const QRectF src(line.left(), line.bottom(), line.width(), m.px * kSourceScale * 1.25);
        painter.drawText(src, Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetricsF(source).elidedText(QString::fromStdString(row.source),
                                                          Qt::ElideRight, src.width()));
        if (i + 1 < rows.size()) {
            painter.setPen(QPen(m_theme.grid, 1.0));
            painter.drawLine(QPointF(band.left(), band.bottom()),
                             QPointF(band.right(), band.bottom()));
        }
    }
    painter.restore();
}

void FactsView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    paint(painter, rect());
}

bool FactsView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) {
            return tipOf(m_frame.rows, rowAt(pos), &FactRow::source);
        }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
