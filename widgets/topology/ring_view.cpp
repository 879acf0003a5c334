#include "topology/ring_view.h"

#include "engine/number_format.h"
#include "topology/chunk_cell.h"

#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

ContributorMask holding(const RingFrame& frame, int rank, int chunk) {
    const auto r = static_cast<std::size_t>(rank);
    const auto c = static_cast<std::size_t>(chunk);
    if (r < frame.holdings.size() && c < frame.holdings[r].size()) {
        return frame.holdings[r][c];
    }
    return 0;
}

QPainterPath arcPath(const RingLayout& layout, double start, double sweep) {
    QPainterPath path;
    const double length = std::fabs(sweep) * std::max(layout.radiusX(), layout.radiusY());
    const int segments = std::max(8, static_cast<int>(length / 4.0));
    path.moveTo(layout.pointAtAngle(start));
    for (int i = 1; i <= segments; ++i) {
        path.lineTo(layout.pointAtAngle(start + sweep * i / segments));
    }
    return path;
}

// A small chevron at the middle of a link, pointing the way data flows.
void paintChevron(QPainter& painter, const RingLayout& layout, const RingLayout::Arc& arc,
                  const QColor& colour, double width) {
    const double a = arc.start + arc.sweep / 2.0;
    const QPointF tip = layout.pointAtAngle(a);
    const double direction = arc.sweep >= 0.0 ? 1.0 : -1.0;
    QPointF tangent(layout.radiusX() * std::cos(a) * direction,
                    layout.radiusY() * std::sin(a) * direction);
    const double norm = std::hypot(tangent.x(), tangent.y());
    if (norm <= 0.0) {
        return;
    }
    tangent /= norm;
    const QPointF normal(-tangent.y(), tangent.x());
    const double size = layout.fontPx() * 0.42;
    QPainterPath chevron;
    chevron.moveTo(tip - tangent * size + normal * size * 0.8);
    chevron.lineTo(tip);
    chevron.lineTo(tip - tangent * size - normal * size * 0.8);
    painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(chevron);
}

void paintLinks(QPainter& painter, const RingLayout& layout, const RingFrame& frame,
                const Theme& theme) {
    const int n = layout.ranks();
    if (n < 2) {
        return;
    }
    const double width = theme.lineWidth(std::max(1.5, layout.fontPx() * 0.11));
    for (int from = 0; from < n; ++from) {
        const RingLayout::Arc arc = layout.linkArc(from, (from + 1) % n);
        painter.setPen(QPen(theme.grid, width, Qt::SolidLine, Qt::RoundCap));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(arcPath(layout, arc.start, arc.sweep));
        paintChevron(painter, layout, arc, theme.grid.darker(theme.isDark ? 70 : 125), width);
    }
    // The stretch a moving chunk has already covered, in its sender's colour but translucent
    // so it never reads as a chunk cell.
    for (const RingTransfer& t : frame.transfers) {
        const RingLayout::Arc arc = layout.linkArc(t.from, t.to);
        QColor trail = theme.rankColor(t.from, n);
        trail.setAlphaF(0.45f);
        painter.setPen(QPen(trail, width * 2.2, Qt::SolidLine, Qt::RoundCap));
        painter.drawPath(arcPath(layout, arc.start, arc.sweep * std::clamp(t.progress, 0.0, 1.0)));
    }
}

void paintCard(QPainter& painter, const RingLayout& layout, const RingFrame& frame, int rank,
               const Theme& theme) {
    const int n = layout.ranks();
    const double em = layout.fontPx();
    const QRectF card = layout.cardRect(rank);
    const double radius = em * 0.45;
    const bool highlighted = rank == frame.highlightRank;
    const QColor colour = theme.rankColor(rank, n);

    QPainterPath shape;
    shape.addRoundedRect(card, radius, radius);
    painter.fillPath(shape, theme.surface);
    painter.save();
    painter.setClipPath(shape);
    painter.fillRect(QRectF(card.left(), card.top(), card.width(), em * 0.22), colour);
    painter.restore();
    const QPen border = highlighted ? QPen(theme.accent, theme.lineWidth(em * 0.16))
                                    : QPen(theme.grid, theme.lineWidth(1.0));
    painter.setPen(border);
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(shape);

    painter.setFont(theme.fontAtPixels(em * 0.95, true));
    painter.setPen(highlighted ? theme.accent : theme.foreground);
    painter.drawText(layout.labelRect(rank), Qt::AlignLeft | Qt::AlignVCenter,
                     QStringLiteral("GPU %1").arg(rank));

    for (int chunk = 0; chunk < n; ++chunk) {
        paintChunkCell(painter, layout.cellRect(rank, chunk), holding(frame, rank, chunk), n,
                       theme);
    }

    const QRectF textRect = layout.counterTextRect(rank);
    const QFont small = theme.fontAtPixels(layout.smallFontPx());
    painter.setFont(small);
    painter.setPen(theme.muted);
    // "sent / target" when it fits the card, else just what was sent (the target is in the
    // facts beside the ring), else only the bar under it.
    const QFontMetricsF smallFm(small);
    QString counter = RingView::counterText(frame, rank);
    if (smallFm.horizontalAdvance(counter) > textRect.width())
        counter = RingView::counterText(frame, rank, false);
    if (smallFm.horizontalAdvance(counter) <= textRect.width()) {
        const double h = std::max(textRect.height(), smallFm.height());
        painter.drawText(
            QRectF(textRect.left(), textRect.center().y() - h / 2, textRect.width(), h),
            Qt::AlignLeft | Qt::AlignVCenter, counter);
    }

    const QRectF bar = layout.barRect(rank);
    const double barRadius = bar.height() / 2.0;
    painter.setPen(Qt::NoPen);
    painter.setBrush(theme.grid);
    painter.drawRoundedRect(bar, barRadius, barRadius);
    const auto r = static_cast<std::size_t>(rank);
    const double sent = r < frame.bytesSent.size() ? frame.bytesSent[r] : 0.0;
    if (frame.bytesTarget > 0.0 && sent > 0.0) {
        const double fraction = std::clamp(sent / frame.bytesTarget, 0.0, 1.0);
        painter.setBrush(colour);
        painter.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * fraction, bar.height()),
                                barRadius, barRadius);
    }
}

void paintToken(QPainter& painter, const RingLayout& layout, const RingTransfer& transfer,
                const Theme& theme) {
    const double size = layout.cellSize() * 1.25;
    const QPointF at = layout.transferPoint(transfer.from, transfer.to, transfer.progress);
    const QRectF cell(at.x() - size / 2.0, at.y() - size / 2.0, size, size);
    // A halo in the background colour lifts the token off the link it rides on.
    const double halo = layout.fontPx() * 0.2;
    const QRectF haloRect = cell.adjusted(-halo, -halo, halo, halo);
    painter.setPen(QPen(theme.foreground, theme.lineWidth(1.5)));
    painter.setBrush(theme.background);
    painter.drawRoundedRect(haloRect, size * 0.3, size * 0.3);
    paintChunkCell(painter, cell, transfer.carried, layout.ranks(), theme);
}

void paintCaption(QPainter& painter, const RingLayout& layout, const RingFrame& frame,
                  const Theme& theme) {
    const QString text = RingView::caption(frame);
    if (text.isEmpty()) {
        return;
    }
    const QRectF area = layout.captionRect();
    QFont font = theme.fontAtPixels(layout.captionFontPx(), true);
    const double width = QFontMetricsF(font).horizontalAdvance(text);
    if (width > area.width() && width > 0.0) {
        font.setPixelSize(std::max(8, static_cast<int>(font.pixelSize() * area.width() / width)));
    }
    painter.setFont(font);
    painter.setPen(theme.foreground);
    painter.drawText(area, Qt::AlignCenter, text);
}

// Explains the two cell looks in a free bottom corner, when there is one.
void paintLegend(QPainter& painter, const RingLayout& layout, const Theme& theme) {
    // At least three ranks, so the two-stripe sample is visibly not "all of them".
    const int n = std::max(layout.ranks(), 3);
    struct Entry {
        ContributorMask mask;
        QString text;
    };
    const Entry entries[] = {
        {ContributorMask{0b11}, RingView::tr("partial sum: a stripe per GPU")},
        {fullMask(n), RingView::tr("fully reduced")},
    };
    const QFont small = theme.fontAtPixels(layout.smallFontPx());
    const QFontMetricsF metrics(small);
    const double rowH = metrics.height() * 1.5;
    const double cell = rowH * 0.7;
    double textW = 0.0;
    for (const Entry& e : entries) {
        textW = std::max(textW, metrics.horizontalAdvance(e.text));
    }
    const QRectF area = layout.freeCorner(QSizeF(cell * 1.6 + textW + 2.0, rowH * 2.0));
    if (area.isEmpty()) {
        return;
    }
    painter.setFont(small);
    for (int i = 0; i < 2; ++i) {
        const double top = area.top() + i * rowH;
        paintChunkCell(painter, QRectF(area.left(), top + (rowH - cell) / 2.0, cell, cell),
                       entries[i].mask, n, theme);
        painter.setPen(theme.muted);
        const QRectF text(area.left() + cell * 1.6, top, area.width() - cell * 1.6, rowH);
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, entries[i].text);
    }
}

} // namespace

RingView::RingView(QWidget* parent)
    : FrameView(parent) {}

QString RingView::caption(const RingFrame& frame) {
    if (frame.phase.empty()) {
        return {};
    }
    QString text = QString::fromStdString(frame.phase);
    text[0] = text[0].toUpper();
    if (frame.round > 0 && frame.roundsInPhase > 0) {
        text += QStringLiteral(" \u00b7 ") +
                tr("round %1/%2").arg(frame.round).arg(frame.roundsInPhase);
    }
    return text;
}

QString RingView::counterText(const RingFrame& frame, int rank, bool withTarget) {
    const auto r = static_cast<std::size_t>(rank);
    const double sent = r < frame.bytesSent.size() ? frame.bytesSent[r] : 0.0;
    // Trailing zeros kept so the counter does not change width while it animates.
    const auto text = [](double b) { return QString::fromStdString(formatBytes(b, true)); };
    return frame.bytesTarget > 0.0 && withTarget
               ? text(sent) + QStringLiteral(" / ") + text(frame.bytesTarget)
               : text(sent);
}

RingLayout RingView::layoutFor(const QRectF& bounds) const {
    return RingLayout::compute(bounds, m_frame.ranks, m_theme, caption(m_frame));
}

void RingView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    if (m_frame.ranks <= 0) {
        painter.setPen(m_theme.muted);
        painter.setFont(m_theme.font(14));
        painter.drawText(bounds, Qt::AlignCenter, tr("No ranks to show"));
        painter.restore();
        return;
    }
    const RingLayout layout = layoutFor(bounds);
    paintLinks(painter, layout, m_frame, m_theme);
    for (int rank = 0; rank < m_frame.ranks; ++rank) {
        paintCard(painter, layout, m_frame, rank, m_theme);
    }
    for (const RingTransfer& transfer : m_frame.transfers) {
        paintToken(painter, layout, transfer, m_theme);
    }
    paintCaption(painter, layout, m_frame, m_theme);
    paintLegend(painter, layout, m_theme);
    painter.restore();
}

} // namespace wb
