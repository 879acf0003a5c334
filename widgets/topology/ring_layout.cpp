#include "topology/ring_layout.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace wb {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// Card rows, in em: top colour strip, label, gaps, counter line, progress bar.
constexpr double kStripEm = 0.22;
constexpr double kLabelEm = 1.3;
constexpr double kAfterLabelEm = 0.25;
constexpr double kAfterCellsEm = 0.35;
constexpr double kCounterEm = 1.0;
constexpr double kAfterCounterEm = 0.12;
constexpr double kBarEm = 0.32;
constexpr double kLabelWidthEm = 4.2; // "GPU 15" in bold

// Up to eight cells a row: wider rows would make cards too wide to fit 16 around a ring.
int columnsFor(int ranks) {
    const int rows = (ranks + 7) / 8;
    return (ranks + rows - 1) / std::max(rows, 1);
}

// Cells shrink as there are more of them; fewer chunks get bigger, easier-to-read cells.
double cellEmFor(int ranks) {
    if (ranks <= 4) {
        return 1.6;
    }
    return ranks <= 8 ? 1.3 : 1.05;
}

} // namespace

RingLayout RingLayout::compute(const QRectF& bounds, int ranks, const Theme& theme,
                               const QString& caption) {
    RingLayout l;
    l.m_bounds = bounds;
    l.m_ranks = std::max(ranks, 0);
    l.m_columns = std::max(columnsFor(l.m_ranks), 1);
    l.m_rows = l.m_ranks > 0 ? (l.m_ranks + l.m_columns - 1) / l.m_columns : 1;
    // Measure once at a large size and scale: text width grows linearly with pixel size.
    constexpr double kProbePx = 100.0;
    const QFont probe = theme.fontAtPixels(kProbePx * 0.78);
    l.m_counterWidth =
        QFontMetricsF(probe).horizontalAdvance(QStringLiteral("888 MB / 888 MB")) / kProbePx;
    const QFont captionProbe = theme.fontAtPixels(kProbePx * 1.25, true);
    const double captionPerEm = QFontMetricsF(captionProbe).horizontalAdvance(caption) / kProbePx;

    const double side = std::min(bounds.width(), bounds.height());
    const double em = std::clamp(side / 42.0, 9.0, 30.0) * theme.fontScale;
    l.fit(bounds, em);
    if (captionPerEm * l.m_em > l.captionRect().width()) {
        const double strip = l.m_em * 2.2;
        l.fit(bounds.adjusted(0.0, strip, 0.0, 0.0), l.m_em);
        l.m_captionStrip = QRectF(bounds.left(), bounds.top(), bounds.width(), strip);
    }
    return l;
}

void RingLayout::fit(const QRectF& bounds, double em) {
    for (int i = 0; i < 40; ++i) {
        place(bounds, em);
        const bool fits = m_rx > 0.0 && m_ry > 0.0 && !cardsOverlap();
        if (fits || em < 5.0) {
            return;
        }
        em *= 0.93;
    }
}

void RingLayout::place(const QRectF& bounds, double em) {
    m_em = em;
    m_cell = em * cellEmFor(m_ranks);
    m_gap = m_cell * 0.18;
    m_pad = em * 0.55;
    const double gridW = m_columns * m_cell + (m_columns - 1) * m_gap;
    const double gridH = m_rows * m_cell + (m_rows - 1) * m_gap;
    const double contentW = std::max({gridW, m_counterWidth * em, kLabelWidthEm * em});
    const double contentH = em * (kStripEm + kLabelEm + kAfterLabelEm + kAfterCellsEm + kCounterEm +
                                  kAfterCounterEm + kBarEm) +
                            gridH;
    m_card = QSizeF(contentW + 2.0 * m_pad, contentH + 2.0 * m_pad);

    const double margin = em * 0.4;
    double rx = bounds.width() / 2.0 - m_card.width() / 2.0 - margin;
    double ry = bounds.height() / 2.0 - m_card.height() / 2.0 - margin;
    // Past this aspect the ellipse stops reading as a ring.
    constexpr double kMaxAspect = 1.35;
    rx = std::min(rx, ry * kMaxAspect);
    ry = std::min(ry, rx * kMaxAspect);
    m_rx = rx;
    m_ry = ry;
    m_centre = bounds.center();
}

bool RingLayout::cardsOverlap() const {
    const double gap = m_em * 0.3;
    for (int a = 0; a < m_ranks; ++a) {
        const QRectF ra = cardRect(a).adjusted(-gap, -gap, gap, gap);
        for (int b = a + 1; b < m_ranks; ++b) {
            if (ra.intersects(cardRect(b))) {
                return true;
            }
        }
    }
    return false;
}

QRectF RingLayout::freeCorner(const QSizeF& size) const {
    const double margin = m_em * 0.4;
    const double top = m_bounds.bottom() - margin - size.height();
    const QRectF candidates[] = {
        QRectF(QPointF(m_bounds.left() + margin, top), size),
        QRectF(QPointF(m_bounds.right() - margin - size.width(), top), size)};
    for (const QRectF& r : candidates) {
        bool free = m_bounds.contains(r);
        for (int i = 0; free && i < m_ranks; ++i) {
            free = !r.intersects(cardRect(i));
        }
        if (free) {
            return r;
        }
    }
    return {};
}

double RingLayout::angle(int rank) const {
    return m_ranks > 0 ? kTwoPi * rank / m_ranks : 0.0;
}

QPointF RingLayout::pointAtAngle(double radians) const {
    return {m_centre.x() + m_rx * std::sin(radians), m_centre.y() - m_ry * std::cos(radians)};
}

QRectF RingLayout::cardRect(int rank) const {
    const QPointF c = node(rank);
    return {c.x() - m_card.width() / 2.0, c.y() - m_card.height() / 2.0, m_card.width(),
            m_card.height()};
}

QRectF RingLayout::labelRect(int rank) const {
    const QRectF card = cardRect(rank);
    return {card.left() + m_pad, card.top() + m_pad + kStripEm * m_em, card.width() - 2 * m_pad,
            kLabelEm * m_em};
}

QRectF RingLayout::cellRect(int rank, int chunk) const {
    const QRectF card = cardRect(rank);
    const double gridW = m_columns * m_cell + (m_columns - 1) * m_gap;
    const double left = card.left() + (card.width() - gridW) / 2.0;
    const double top = labelRect(rank).bottom() + kAfterLabelEm * m_em;
    const int row = chunk / m_columns;
    const int col = chunk % m_columns;
    return {left + col * (m_cell + m_gap), top + row * (m_cell + m_gap), m_cell, m_cell};
}

QRectF RingLayout::counterTextRect(int rank) const {
    const QRectF card = cardRect(rank);
    const double gridH = m_rows * m_cell + (m_rows - 1) * m_gap;
    const double top =
        labelRect(rank).bottom() + kAfterLabelEm * m_em + gridH + kAfterCellsEm * m_em;
    return {card.left() + m_pad, top, card.width() - 2 * m_pad, kCounterEm * m_em};
}

QRectF RingLayout::barRect(int rank) const {
    const QRectF text = counterTextRect(rank);
    return {text.left(), text.bottom() + kAfterCounterEm * m_em, text.width(), kBarEm * m_em};
}

QRectF RingLayout::captionRect() const {
    if (!m_captionStrip.isEmpty()) {
        return m_captionStrip;
    }
    const double margin = m_em * 0.6;
    const double halfW = std::max(m_rx - m_card.width() / 2.0 - margin, m_rx * 0.5);
    const double halfH = std::max(m_ry - m_card.height() / 2.0 - margin, m_em * 1.6);
    return {m_centre.x() - halfW, m_centre.y() - halfH, 2.0 * halfW, 2.0 * halfH};
}

double RingLayout::exitFraction(int rank, double start, double sweep) const {
    const double gap = m_em * 0.25;
    const QRectF card = cardRect(rank).adjusted(-gap, -gap, gap, gap);
    double inside = 0.0;
    double outside = 0.5;
    if (card.contains(pointAtAngle(start + sweep * outside))) {
        return outside; // cards touch: nothing of the link is visible
    }
    for (int i = 0; i < 24; ++i) {
        const double mid = (inside + outside) / 2.0;
        if (card.contains(pointAtAngle(start + sweep * mid))) {
            inside = mid;
        } else {
            outside = mid;
        }
    }
    return outside;
}

RingLayout::Arc RingLayout::linkArc(int from, int to) const {
    if (m_ranks < 2) {
        return {};
    }
    const int steps = ((to - from) % m_ranks + m_ranks) % m_ranks;
    if (steps == 0) {
        return {angle(from), 0.0};
    }
    const bool forward = 2 * steps <= m_ranks;
    const double step = kTwoPi / m_ranks;
    const double sweep = forward ? steps * step : -(m_ranks - steps) * step;
    const double start = angle(from);
    const double head = exitFraction(from, start, sweep);
    const double tail = exitFraction(to, start + sweep, -sweep);
    return {start + sweep * head, sweep * std::max(0.0, 1.0 - head - tail)};
}

QPointF RingLayout::transferPoint(int from, int to, double progress) const {
    const Arc arc = linkArc(from, to);
    return pointAtAngle(arc.start + arc.sweep * std::clamp(progress, 0.0, 1.0));
}

} // namespace wb
