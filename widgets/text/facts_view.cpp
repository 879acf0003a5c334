#include "text/facts_view.h"

#include "drawing/hover_tip.h"

#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

constexpr double kSourceScale = 0.8; // source line relative to the value text
// The whiteboard slide's points start at the slide's title size and its question a step above;
// the gap between points grows to at most one line so the points stay one list, not islands.
constexpr double kSlideTitleScale = 1.2;
constexpr double kSlideMaxGapLines = 1.0;

} // namespace

FactsView::FactsView(QWidget* parent)
    : FrameView(parent) {}

FactsView::Layout FactsView::layoutAt(const QRectF& bounds, double px, double gap) const {
    Layout l;
    l.px = px;
    l.pad = px * 0.6;
    const double left = bounds.left() + l.pad;
    const double width = std::max(1.0, bounds.width() - 2.0 * l.pad);
    double top = bounds.top() + l.pad;
    l.title = wrapText(font(px * (isSlide() ? kSlideTitleScale : 1.15), true),
                       QString::fromStdString(m_frame.title), width);
    if (!l.title.empty()) {
        l.titleBox = QRectF(left, top, width, l.title.height());
        top += l.title.height() + px * (isSlide() ? 0.8 : 0.5);
    }
    // A slide's points hang from their numbers; a table's rows from a small indent.
    const double inset = isSlide() ? px * 2.0 : px * 0.55;
    const double inner = std::max(1.0, width - 2.0 * inset);
    for (const FactRow& row : m_frame.rows) {
        RowLayout r;
        const QFont valueFont = font(px, true);
        r.value = wrapText(valueFont, QString::fromStdString(row.value), inner * 0.55);
        const double valueW = r.value.width();
        r.label = wrapText(font(px, row.emphasis), QString::fromStdString(row.label),
                           std::max(px * 3.0, inner - valueW - px));
        r.source = wrapText(font(px * kSourceScale), QString::fromStdString(row.source), inner);
        const double y = top + px * 0.3;
        const double lineH = std::max(r.label.height(), r.value.height());
        r.labelBox = QRectF(left + inset, y, inner - valueW - px, r.label.height());
        r.valueBox = QRectF(left + inset + inner - valueW, y, valueW, r.value.height());
        r.sourceBox = QRectF(left + inset, y + lineH, inner, r.source.height());
        if (isSlide())
            r.markerBox = QRectF(left + px * 0.1, y + (r.label.lineHeight - px * 1.4) / 2.0,
                                 px * 1.4, px * 1.4);
        const double h = px * 0.3 + lineH + r.source.height() + px * 0.35 + gap;
        r.band = QRectF(left, top, width, h);
        top += h;
        l.rows.push_back(std::move(r));
    }
    l.bottom = top + l.pad;
    return l;
}

FactsView::Layout FactsView::slideLayoutFor(const QRectF& bounds) const {
    // The largest size at which every point fits, from the title size down to the floor; the
    // height left over spreads the points (up to a line apart) instead of pooling at the bottom.
    double px = std::min(m_type.px(TextRole::Title), std::max(1.0, bounds.width() / 24.0));
    px = std::max(px, m_type.floor());
    Layout l = layoutAt(bounds, px);
    while (l.bottom > bounds.bottom() && px > m_type.floor()) {
        px = std::max(m_type.floor(), px * 0.95);
        l = layoutAt(bounds, px);
    }
    if (l.bottom > bounds.bottom() || l.rows.empty())
        return l;
    const double spare = bounds.bottom() - l.bottom;
    const double gap = std::min(spare / static_cast<double>(l.rows.size()), kSlideMaxGapLines * px);
    return layoutAt(bounds, px, gap);
}

FactsView::Layout FactsView::layoutFor(const QRectF& bounds) const {
    if (isSlide()) {
        Layout l = slideLayoutFor(bounds);
        if (l.bottom <= bounds.bottom())
            return l;
    }
    // The slide's body size, smaller while the rows do not fit, down to the floor and no
    // further: below it the table overflows (and the lint says so) rather than turn unreadable.
    double px = std::min(m_type.px(TextRole::Body), std::max(1.0, bounds.width() / 16.0));
    Layout l = layoutAt(bounds, std::max(px, m_type.floor()));
    while (l.bottom > bounds.bottom() && px > m_type.floor()) {
        px = std::max(m_type.floor(), px * 0.92);
        l = layoutAt(bounds, px);
    }
    if (l.bottom <= bounds.bottom() || l.rows.empty())
        return l;
    // Still too tall at the floor: keep the rows that fit above a line that counts the rest
    // (the slide says what it leaves out instead of cutting a row in half).
    const double width = std::max(1.0, bounds.width() - 2.0 * l.pad);
    const QFont moreFont = font(l.px * kSourceScale);
    const auto moreText = [&](std::size_t hidden) {
        return wrapText(moreFont,
                        hidden == 1 ? tr("1 more row that does not fit this panel")
                                    : tr("%1 more rows that do not fit this panel").arg(hidden),
                        width);
    };
    std::size_t keep = l.rows.size() - 1;
    for (; keep > 0; --keep) {
        l.more = moreText(l.rows.size() - keep);
        if (l.rows[keep - 1].band.bottom() + l.px * 0.3 + l.more.height() + l.pad <=
            bounds.bottom())
            break;
    }
    l.more = moreText(l.rows.size() - keep);
    const double top = keep > 0 ? l.rows[keep - 1].band.bottom() : l.titleBox.bottom();
    l.rows.resize(keep);
    l.moreBox = QRectF(bounds.left() + l.pad, top + l.px * 0.3, width, l.more.height());
    l.bottom = l.moreBox.bottom() + l.pad;
    return l;
}

int FactsView::naturalHeight(int width) const {
    // Every row at the body size: as tall as the table gets.
    const QRectF unbounded(0.0, 0.0, width, 1.0e6);
    return static_cast<int>(std::ceil(layoutFor(unbounded).bottom));
}

std::vector<QRectF> FactsView::rowRects(const QRectF& bounds) const {
    std::vector<QRectF> out;
    for (const RowLayout& r : layoutFor(bounds).rows)
        out.push_back(r.band);
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
    const Layout l = layoutFor(bounds);
    drawWrapped(painter, l.titleBox, l.title, m_theme.foreground);
    for (std::size_t i = 0; i < l.rows.size() && i < m_frame.rows.size(); ++i) {
        const FactRow& row = m_frame.rows[i];
        const RowLayout& r = l.rows[i];
        if (!r.markerBox.isEmpty()) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(m_theme.accent);
            painter.drawEllipse(r.markerBox);
            painter.setPen(m_theme.background);
            painter.setFont(font(l.px * 0.8, true));
            painter.drawText(r.markerBox, Qt::AlignCenter, QString::number(i + 1));
        }
        if (row.emphasis) {
            painter.fillRect(r.band, mixColors(m_theme.background, m_theme.accent,
                                               m_theme.isDark ? 0.16 : 0.09));
            painter.fillRect(QRectF(r.band.left(), r.band.top(), l.px * 0.22, r.band.height()),
                             m_theme.accent);
        }
        drawWrapped(painter, r.valueBox, r.value,
                    row.emphasis ? m_theme.accent : m_theme.foreground,
                    Qt::AlignRight | Qt::AlignTop);
        drawWrapped(painter, r.labelBox, r.label, m_theme.foreground);
        drawWrapped(painter, r.sourceBox, r.source, m_theme.muted);
        if (i + 1 < l.rows.size() && !isSlide()) {
            painter.setPen(QPen(m_theme.grid, 1.0));
            painter.drawLine(QPointF(r.band.left(), r.band.bottom()),
                             QPointF(r.band.right(), r.band.bottom()));
        }
    }
    drawWrapped(painter, l.moreBox, l.more, m_theme.muted);
    painter.restore();
}

bool FactsView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) {
            return tipOf(m_frame.rows, rowAt(pos), &FactRow::source);
        }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
