#include "grids/warp_lanes_view.h"

#include "drawing/hover_tip.h"
#include "grids/lanes_per_warp.h"
#include "text/view_text.h"

#include <QHelpEvent>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

QString pcText(int pc) {
    return pc < 0 ? WarpLanesView::tr("end") : QString::number(pc);
}

} // namespace

WarpLanesView::WarpLanesView(QWidget* parent)
    : FrameView(parent) {}

QString WarpLanesView::counterText(const WarpFrame& frame) {
    const QString dot = QStringLiteral(" \u00b7 ");
    return tr("efficiency %1 %").arg(std::lround(frame.efficiency * 100.0)) + dot +
           tr("%1 issued").arg(frame.issued) + dot +
           tr("%1 active lane-slots").arg(frame.activeLaneSlots);
}

WarpLanesView::Layout WarpLanesView::layoutFor(const QRectF& bounds) const {
    Layout l;
    l.em = layoutEm(bounds, {34.0, 22.0, 1.0});
    l.pad = l.em * 0.8;
    const QRectF inner = bounds.adjusted(l.pad, l.pad, -l.pad, -l.pad);
    l.header = QRectF(inner.left(), inner.top(), inner.width(), l.em * 2.9);

    l.laneGap = std::max(2.0, l.em * 0.18);
    l.twoRows = (inner.width() - (kLanesPerWarp - 1) * l.laneGap) / kLanesPerWarp < l.em * 2.2;
    const int perRow = l.twoRows ? kLanesPerWarp / 2 : kLanesPerWarp;
    l.laneW = (inner.width() - (perRow - 1) * l.laneGap) / perRow;
    l.laneH = l.em * 2.2;
    const double rowH = l.laneH + l.em * 1.2;
    const double lanesH = l.twoRows ? 2.0 * rowH + l.em * 0.3 : rowH;
    l.lanes = QRectF(inner.left(), l.header.bottom() + l.em * 0.6, inner.width(), lanesH);

    const double top = l.lanes.bottom() + l.em * 0.8;
    const double bottomH = std::max(0.0, inner.bottom() - top);
    const double programW = (inner.width() - l.em) * 0.56;
    l.program = QRectF(inner.left(), top, programW, bottomH);
    l.stack = QRectF(l.program.right() + l.em, top, inner.width() - programW - l.em, bottomH);

    l.lineH = l.em * 1.45;
    const double listH = std::max(0.0, l.program.height() - l.em * 1.6);
    l.visibleLines = std::max(0, static_cast<int>(std::floor(listH / l.lineH)));
    const int lines = static_cast<int>(m_frame.program.size());
    if (lines > l.visibleLines && m_frame.pc >= 0) {
        // Keep the issued instruction in view, a little below the top.
        l.firstLine = std::clamp(m_frame.pc - l.visibleLines / 3, 0, lines - l.visibleLines);
    }
    return l;
}

bool WarpLanesView::twoRows(const QRectF& bounds) const {
    return layoutFor(bounds).twoRows;
}

QRectF WarpLanesView::laneRect(const QRectF& bounds, int lane) const {
    const Layout l = layoutFor(bounds);
    const int perRow = l.twoRows ? kLanesPerWarp / 2 : kLanesPerWarp;
    const int row = lane / perRow;
    const int col = lane % perRow;
    const double rowH = l.laneH + l.em * 1.2 + (l.twoRows ? l.em * 0.3 : 0.0);
    return {l.lanes.left() + col * (l.laneW + l.laneGap), l.lanes.top() + row * rowH, l.laneW,
            l.laneH};
}

QRectF WarpLanesView::programLineRect(const QRectF& bounds, int line) const {
    const Layout l = layoutFor(bounds);
    const int shown = line - l.firstLine;
    if (line < 0 || line >= static_cast<int>(m_frame.program.size()) || shown < 0 ||
        shown >= l.visibleLines) {
        return {};
    }
    return {l.program.left(), l.program.top() + l.em * 1.6 + shown * l.lineH, l.program.width(),
            l.lineH};
}

QRectF WarpLanesView::stackRect(const QRectF& bounds) const {
    return layoutFor(bounds).stack;
}

int WarpLanesView::laneAt(const QPointF& pos) const {
    const QRectF bounds(rect());
    const int count = std::min(kLanesPerWarp, static_cast<int>(m_frame.lanes.size()));
    return indexAt(
        count, [&](int lane) { return laneRect(bounds, lane); }, pos, 0.6);
}

void WarpLanesView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout l = layoutFor(bounds);
    const double em = l.em;

    // Header: title and the diverged badge on one line, the efficiency counter below.
    const QFont badgeFont = m_theme.fontAtPixels(em * 0.85, true);
    const QString badge = m_frame.diverged ? tr("diverged") : tr("converged");
    const double badgeW = QFontMetricsF(badgeFont).horizontalAdvance(badge) + em * 1.2;
    const QRectF badgeRect(l.header.right() - badgeW, l.header.top() + em * 0.1, badgeW, em * 1.4);
    const QFont titleFont = m_theme.fontAtPixels(em * 1.15, true);
    painter.setFont(titleFont);
    painter.setPen(m_theme.foreground);
    const QRectF titleRect(l.header.left(), l.header.top(), l.header.width() - badgeW - em,
                           em * 1.6);
    painter.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                     elided(titleFont, QString::fromStdString(m_frame.title), titleRect.width()));
    const QColor warn = m_theme.seriesColor(1);
    painter.setPen(m_frame.diverged ? QPen(Qt::NoPen) : QPen(m_theme.grid, m_theme.lineWidth(1.0)));
    painter.setBrush(m_frame.diverged ? QBrush(warn) : QBrush(Qt::NoBrush));
    painter.drawRoundedRect(badgeRect, badgeRect.height() / 2.0, badgeRect.height() / 2.0);
    painter.setFont(badgeFont);
    painter.setPen(m_frame.diverged ? QColor(Qt::white) : m_theme.muted);
    painter.drawText(badgeRect, Qt::AlignCenter, badge);
    const QFont counterFont = m_theme.fontAtPixels(em * 0.95);
    painter.setFont(counterFont);
    painter.setPen(m_theme.muted);
    const QRectF counterRect(l.header.left(), titleRect.bottom(), l.header.width(), em * 1.3);
    painter.drawText(counterRect, Qt::AlignLeft | Qt::AlignVCenter,
                     elided(counterFont, counterText(m_frame), counterRect.width()));

    // Lanes: active bright, idle on the surface, exited dashed and greyed.
    const QFont valueFont = m_theme.monoFontAtPixels(std::min(em * 0.95, l.laneW * 0.42), true);
    const QFont numberFont = m_theme.fontAtPixels(std::min(em * 0.72, l.laneW * 0.45));
    const int count = std::min(kLanesPerWarp, static_cast<int>(m_frame.lanes.size()));
    for (int lane = 0; lane < count; ++lane) {
        const WarpLane& laneData = m_frame.lanes[static_cast<std::size_t>(lane)];
        const QRectF box = laneRect(bounds, lane);
        const double radius = std::min(em * 0.3, box.width() * 0.2);
        QColor textColour = m_theme.muted;
        if (laneData.active && !laneData.exited) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(m_theme.accent);
            textColour = m_theme.onAccent;
        } else if (laneData.exited) {
            painter.setPen(QPen(m_theme.grid, m_theme.lineWidth(1.0), Qt::DashLine));
            painter.setBrush(m_theme.background);
        } else {
            painter.setPen(QPen(m_theme.grid, m_theme.lineWidth(1.0)));
            painter.setBrush(m_theme.surface);
        }
        painter.drawRoundedRect(box, radius, radius);
        painter.setFont(valueFont);
        painter.setPen(textColour);
        painter.drawText(box, Qt::AlignCenter,
                         elided(valueFont, QString::number(laneData.value), box.width() - 2.0));
        painter.setFont(numberFont);
        painter.setPen(m_theme.muted);
        painter.drawText(
            QRectF(box.left() - l.laneGap, box.bottom(), box.width() + 2 * l.laneGap, em * 1.1),
            Qt::AlignHCenter | Qt::AlignVCenter, QString::number(lane));
    }

    // Program listing with the issued instruction highlighted.
    const QFont headingFont = m_theme.fontAtPixels(em * 0.8, true);
    painter.setFont(headingFont);
    painter.setPen(m_theme.muted);
    painter.drawText(QRectF(l.program.left(), l.program.top(), l.program.width(), em * 1.3),
                     Qt::AlignLeft | Qt::AlignVCenter, tr("PROGRAM"));
    const QFont codeFont = m_theme.monoFontAtPixels(em * 0.95);
    const QFont codeBold = m_theme.monoFontAtPixels(em * 0.95, true);
    const QFont lineNoFont = m_theme.monoFontAtPixels(em * 0.8);
    const double gutter = em * 2.4;
    const int lines = static_cast<int>(m_frame.program.size());
    for (int line = l.firstLine; line < lines && line < l.firstLine + l.visibleLines; ++line) {
        const QRectF r = programLineRect(bounds, line);
        const bool issued = line == m_frame.pc;
        if (issued) {
            QColor tint = m_theme.accent;
            tint.setAlphaF(m_theme.isDark ? 0.28f : 0.16f);
            painter.fillRect(r, tint);
            painter.fillRect(QRectF(r.left(), r.top(), em * 0.22, r.height()), m_theme.accent);
        }
        painter.setFont(lineNoFont);
        painter.setPen(m_theme.muted);
        painter.drawText(QRectF(r.left(), r.top(), gutter - em * 0.5, r.height()),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        painter.setFont(issued ? codeBold : codeFont);
        painter.setPen(m_theme.foreground);
        const QRectF text(r.left() + gutter, r.top(), r.width() - gutter, r.height());
        painter.drawText(
            text, Qt::AlignLeft | Qt::AlignVCenter,
            elided(painter.font(),
                   QString::fromStdString(m_frame.program[static_cast<std::size_t>(line)]),
                   text.width()));
    }

    // Reconvergence stack, top (back) first.
    painter.setFont(headingFont);
    painter.setPen(m_theme.muted);
    painter.drawText(QRectF(l.stack.left(), l.stack.top(), l.stack.width(), em * 1.3),
                     Qt::AlignLeft | Qt::AlignVCenter, tr("RECONVERGENCE STACK (TOP FIRST)"));
    const double entryH = em * 2.9;
    const QFont labelFont = m_theme.fontAtPixels(em * 0.92, true);
    const QFont pcFont = m_theme.fontAtPixels(em * 0.8);
    double y = l.stack.top() + em * 1.6;
    const int entries = static_cast<int>(m_frame.stack.size());
    for (int i = entries - 1; i >= 0 && y + entryH <= l.stack.bottom() + 1.0; --i) {
        const ReconvergenceEntry& e = m_frame.stack[static_cast<std::size_t>(i)];
        const QRectF card(l.stack.left(), y, l.stack.width(), entryH - em * 0.3);
        const bool top = i == entries - 1;
        painter.setPen(top ? QPen(m_theme.accent, m_theme.lineWidth(em * 0.12))
                           : QPen(m_theme.grid, m_theme.lineWidth(1.0)));
        painter.setBrush(m_theme.surface);
        painter.drawRoundedRect(card, em * 0.3, em * 0.3);
        const QRectF line1(card.left() + em * 0.5, card.top() + em * 0.15, card.width() - em,
                           em * 1.3);
        const QString pcs =
            tr("pc %1 \u2192 joins at %2").arg(pcText(e.pc), pcText(e.reconvergePc));
        painter.setFont(pcFont);
        const double pcW =
            std::min(QFontMetricsF(pcFont).horizontalAdvance(pcs), line1.width() * 0.6);
        painter.setPen(m_theme.muted);
        painter.drawText(line1, Qt::AlignRight | Qt::AlignVCenter, elided(pcFont, pcs, pcW));
        painter.setFont(labelFont);
        painter.setPen(top ? m_theme.accent : m_theme.foreground);
        painter.drawText(
            QRectF(line1.left(), line1.top(), line1.width() - pcW - em * 0.5, line1.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            elided(labelFont, QString::fromStdString(e.label), line1.width() - pcW - em * 0.5));
        // The mask as 32 small dots.
        const double step = (card.width() - em) / kLanesPerWarp;
        const double d = std::min(em * 0.55, step * 0.72);
        const double cy = card.top() + em * 1.95;
        painter.setPen(Qt::NoPen);
        for (int lane = 0; lane < kLanesPerWarp; ++lane) {
            const bool on = ((e.mask >> static_cast<unsigned>(lane)) & 1U) != 0U;
            painter.setBrush(on ? m_theme.accent : m_theme.grid);
            const double cx = card.left() + em * 0.5 + step * (lane + 0.5);
            painter.drawEllipse(QPointF(cx, cy), d / 2.0, d / 2.0);
        }
        y += entryH;
    }
    if (entries == 0) {
        painter.setFont(pcFont);
        painter.setPen(m_theme.muted);
        painter.drawText(QRectF(l.stack.left(), y, l.stack.width(), em * 1.4),
                         Qt::AlignLeft | Qt::AlignVCenter, tr("empty: all lanes together"));
    }
    painter.restore();
}

bool WarpLanesView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) {
            return tipOf(m_frame.lanes, laneAt(pos), &WarpLane::tip);
        }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
