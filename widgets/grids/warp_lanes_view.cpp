#include "grids/warp_lanes_view.h"

#include "drawing/hover_tip.h"
#include "engine/number_format.h"
#include "grids/lanes_per_warp.h"

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
    return tr("SIMT efficiency so far %1")
               .arg(QString::fromStdString(formatShare(frame.efficiency))) +
           dot + tr("%1 issued").arg(frame.issued) + dot +
           tr("%1 active lane-slots").arg(frame.activeLaneSlots);
}

WarpLanesView::Layout WarpLanesView::layoutFor(const QRectF& bounds) const {
    Layout l = layoutWith(bounds, false);
    // A mask record is the point of the slide: rather than scroll it, make the lanes shorter
    // and the listing wider.
    const bool scrolls =
        l.firstLine > 0 || l.firstLine + l.visibleLines < static_cast<int>(l.code.size());
    if (!m_frame.issuedMasks.empty() && scrolls)
        l = layoutWith(bounds, true);
    return l;
}

WarpLanesView::Layout WarpLanesView::layoutWith(const QRectF& bounds, bool compact) const {
    Layout l;
    l.em = layoutEm(bounds, {34.0, 22.0, 1.0});
    l.pad = l.em * 0.8;
    const double em = l.em;
    const QRectF inner = bounds.adjusted(l.pad, l.pad, -l.pad, -l.pad);
    // Header: the title beside the badge, the counter under it; both wrap.
    const QFont badgeFont = m_theme.fontAtPixels(em * 0.85, true);
    const QString badge = m_frame.diverged ? tr("diverged") : tr("converged");
    l.badgeW = QFontMetricsF(badgeFont).horizontalAdvance(badge) + em * 1.2;
    l.title = wrapText(m_theme.fontAtPixels(em * 1.15, true), QString::fromStdString(m_frame.title),
                       inner.width() - l.badgeW - em);
    l.counter = wrapText(m_theme.fontAtPixels(em * 0.95), counterText(m_frame), inner.width());
    l.header = QRectF(inner.left(), inner.top(), inner.width(),
                      std::max(l.title.height(), em * 1.5) + em * 0.2 + l.counter.height());

    l.laneGap = std::max(2.0, em * 0.18);
    l.twoRows = (inner.width() - (kLanesPerWarp - 1) * l.laneGap) / kLanesPerWarp < em * 2.2;
    const int perRow = l.twoRows ? kLanesPerWarp / 2 : kLanesPerWarp;
    l.laneW = (inner.width() - (perRow - 1) * l.laneGap) / perRow;
    l.laneH = em * (compact ? 1.6 : 2.2);
    l.laneLabelH = em * (compact ? 0.95 : 1.2);
    const double rowH = l.laneH + l.laneLabelH;
    const double lanesH = l.twoRows ? 2.0 * rowH + em * 0.3 : rowH;
    l.lanes = QRectF(inner.left(), l.header.bottom() + em * 0.6, inner.width(), lanesH);

    const double top = l.lanes.bottom() + em * 0.8;
    const double bottomH = std::max(0.0, inner.bottom() - top);
    // With a mask record the listing carries a strip of 32 cells per line and takes more of
    // the width; the stack keeps enough for its cards.
    const bool masks = !m_frame.issuedMasks.empty();
    const double programW = (inner.width() - em) * (masks ? (compact ? 0.72 : 0.66) : 0.56);
    l.program = QRectF(inner.left(), top, programW, bottomH);
    l.stack = QRectF(l.program.right() + em, top, inner.width() - programW - em, bottomH);
    const QFont headingFont = m_theme.fontAtPixels(em * 0.8, true);
    l.programHeading =
        wrapText(headingFont, masks ? tr("PROGRAM \u00b7 LANES EACH ISSUE RAN FOR") : tr("PROGRAM"),
                 l.program.width());
    // Cells of at least 2.5 px, at most half an em, in four groups of eight.
    if (masks)
        l.stripW = std::max(2.5 * 34.0, std::min(l.program.width() * 0.34, em * 0.5 * 34.0));
    l.stackHeading = wrapText(headingFont, tr("RECONVERGENCE STACK (TOP FIRST)"), l.stack.width());
    l.headingH = std::max(l.programHeading.height(), l.stackHeading.height()) + em * 0.3;

    // Code lines wrap inside the listing (after the line-number gutter); the listing scrolls
    // so the issued instruction stays in view.
    // The listing is set as large as the panel allows (up to 1.2 em), so a short program
    // fills its column instead of leaving the bottom of the slide empty.
    const double gutter = em * 2.4;
    double lineGap = em * 0.4;
    const double listH0 = std::max(0.0, l.program.height() - l.headingH);
    // A mask record is read whole, so its listing may set smaller (down to the floor) and
    // closer before it scrolls.
    const std::vector<double> sizes = masks ? std::vector<double>{1.2, 1.1, 1.0, 0.95, 0.85, 0.75}
                                            : std::vector<double>{1.2, 1.1, 1.0, 0.95};
    for (const double size : sizes) {
        l.codePx = em * size;
        lineGap = em * 0.4 * std::min(1.0, size);
        const QFont codeBold = m_theme.monoFontAtPixels(l.codePx, true);
        l.lineH = std::max(em * 1.45 * std::min(1.0, size / 0.95),
                           QFontMetricsF(codeBold).height() + lineGap);
        l.code.clear();
        double total = 0;
        for (const std::string& line : m_frame.program) {
            l.code.push_back(wrapText(codeBold, QString::fromStdString(line),
                                      l.program.width() - gutter - em * 0.3 -
                                          (l.stripW > 0.0 ? l.stripW + em * 0.5 : 0.0)));
            total += std::max(l.lineH, l.code.back().height() + lineGap);
        }
        if (total <= listH0)
            break;
    }
    l.lineGap = lineGap;
    const int lines = static_cast<int>(l.code.size());
    const auto heightOf = [&](int i) {
        return std::max(l.lineH, l.code[static_cast<std::size_t>(i)].height() + lineGap);
    };
    const double listH = std::max(0.0, l.program.height() - l.headingH);
    const auto fitFrom = [&](int first) {
        double y = 0;
        int n = 0;
        for (int i = first; i < lines && y + heightOf(i) <= listH + 0.5; ++i, ++n)
            y += heightOf(i);
        return n;
    };
    l.visibleLines = fitFrom(0);
    if (l.visibleLines < lines && m_frame.pc >= 0) {
        // Keep the issued instruction in view, a little below the top.
        l.firstLine = std::clamp(m_frame.pc - l.visibleLines / 3, 0, lines - 1);
        while (l.firstLine > 0 && l.firstLine + fitFrom(l.firstLine) < lines &&
               m_frame.pc >= l.firstLine + fitFrom(l.firstLine))
            ++l.firstLine;
        // Near the end of the program, lines above fill the space the end leaves.
        while (l.firstLine > 0 && l.firstLine - 1 + fitFrom(l.firstLine - 1) > m_frame.pc &&
               fitFrom(l.firstLine - 1) >= fitFrom(l.firstLine))
            --l.firstLine;
        l.visibleLines = fitFrom(l.firstLine);
    }
    double y = l.program.top() + l.headingH;
    for (int i = l.firstLine; i < l.firstLine + l.visibleLines; ++i) {
        l.lineTops.push_back(y);
        y += heightOf(i);
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
    const double rowH = l.laneH + l.laneLabelH + (l.twoRows ? l.em * 0.3 : 0.0);
    return {l.lanes.left() + col * (l.laneW + l.laneGap), l.lanes.top() + row * rowH, l.laneW,
            l.laneH};
}

QRectF WarpLanesView::programLineRect(const QRectF& bounds, int line) const {
    return programLineRectIn(layoutFor(bounds), line);
}

// Paint passes the layout it already made: laying the listing out again per line would wrap
// every line of code once for each line drawn.
QRectF WarpLanesView::programLineRectIn(const Layout& l, int line) const {
    const int shown = line - l.firstLine;
    if (line < 0 || line >= static_cast<int>(m_frame.program.size()) || shown < 0 ||
        shown >= l.visibleLines) {
        return {};
    }
    const double top = l.lineTops[static_cast<std::size_t>(shown)];
    const double bottom =
        static_cast<std::size_t>(shown) + 1 < l.lineTops.size()
            ? l.lineTops[static_cast<std::size_t>(shown) + 1]
            : top + std::max(l.lineH, l.code[static_cast<std::size_t>(line)].height() + l.lineGap);
    return {l.program.left(), top, l.program.width(), bottom - top};
}

const IssuedMask* WarpLanesView::issuedMaskOf(int line) const {
    for (auto it = m_frame.issuedMasks.rbegin(); it != m_frame.issuedMasks.rend(); ++it)
        if (it->pc == line)
            return &*it;
    return nullptr;
}

QRectF WarpLanesView::maskStripRect(const QRectF& bounds, int line) const {
    return maskStripRectIn(layoutFor(bounds), line);
}

QRectF WarpLanesView::maskStripRectIn(const Layout& l, int line) const {
    const QRectF row = programLineRectIn(l, line);
    if (l.stripW <= 0.0 || row.isEmpty() || !issuedMaskOf(line))
        return {};
    const double h = std::min(std::min(row.height(), l.lineH) * 0.62, l.em * 0.9);
    const double firstH = std::min(row.height(), l.lineH);
    return {row.right() - l.stripW - l.em * 0.2, row.top() + (firstH - h) / 2.0, l.stripW, h};
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
    const QRectF badgeRect(l.header.right() - l.badgeW, l.header.top() + em * 0.1, l.badgeW,
                           em * 1.4);
    const double titleH = std::max(l.title.height(), em * 1.5);
    drawWrapped(painter,
                QRectF(l.header.left(), l.header.top(), l.header.width() - l.badgeW - em, titleH),
                l.title, m_theme.foreground, Qt::AlignLeft | Qt::AlignVCenter);
    const QColor warn = m_theme.seriesColor(1);
    painter.setPen(m_frame.diverged ? QPen(Qt::NoPen) : QPen(m_theme.grid, m_theme.lineWidth(1.0)));
    painter.setBrush(m_frame.diverged ? QBrush(warn) : QBrush(Qt::NoBrush));
    painter.drawRoundedRect(badgeRect, badgeRect.height() / 2.0, badgeRect.height() / 2.0);
    painter.setFont(badgeFont);
    painter.setPen(m_frame.diverged ? QColor(Qt::white) : m_theme.muted);
    painter.drawText(badgeRect, Qt::AlignCenter, badge);
    drawWrapped(painter,
                QRectF(l.header.left(), l.header.top() + titleH + em * 0.2, l.header.width(),
                       l.counter.height()),
                l.counter, m_theme.muted);

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
        // The value only when it fits whole; the lane's hover tip always has it.
        const QString value = QString::number(laneData.value);
        if (QFontMetricsF(valueFont).horizontalAdvance(value) <= box.width() - 2.0)
            painter.drawText(box, Qt::AlignCenter, value);
        painter.setFont(numberFont);
        painter.setPen(m_theme.muted);
        painter.drawText(QRectF(box.left() - l.laneGap, box.bottom(), box.width() + 2 * l.laneGap,
                                l.laneLabelH * 0.92),
                         Qt::AlignHCenter | Qt::AlignVCenter, QString::number(lane));
    }

    // Program listing with the issued instruction highlighted.
    drawWrapped(painter, QRectF(l.program.left(), l.program.top(), l.program.width(), l.headingH),
                l.programHeading, m_theme.muted);
    const QFont codeFont = m_theme.monoFontAtPixels(l.codePx);
    const QFont lineNoFont = m_theme.monoFontAtPixels(em * 0.8);
    const double gutter = em * 2.4;
    const int lines = static_cast<int>(m_frame.program.size());
    for (int line = l.firstLine; line < lines && line < l.firstLine + l.visibleLines; ++line) {
        const QRectF r = programLineRectIn(l, line);
        const bool issued = line == m_frame.pc;
        if (issued) {
            QColor tint = m_theme.accent;
            tint.setAlphaF(m_theme.isDark ? 0.28f : 0.16f);
            painter.fillRect(r, tint);
            painter.fillRect(QRectF(r.left(), r.top(), em * 0.22, r.height()), m_theme.accent);
        }
        // Wrapped in bold to size the line; the other lines are drawn regular in the same
        // breaks, which are never wider.
        WrappedText code = l.code[static_cast<std::size_t>(line)];
        if (!issued)
            code.font = codeFont;
        const double firstH = std::min(r.height(), l.lineH);
        painter.setFont(lineNoFont);
        painter.setPen(m_theme.muted);
        painter.drawText(QRectF(r.left(), r.top(), gutter - em * 0.5, firstH),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        drawWrapped(painter,
                    QRectF(r.left() + gutter, r.top() + (firstH - code.lineHeight) / 2.0,
                           r.width() - gutter, code.height()),
                    code, m_theme.foreground);
        // The lanes this line's issue ran for: 32 cells in groups of eight, active bright.
        const QRectF strip = maskStripRectIn(l, line);
        if (const IssuedMask* issue = issuedMaskOf(line); issue && !strip.isEmpty()) {
            const double pitch = strip.width() / 34.0; // 32 cells and two pitches of gaps
            painter.setPen(Qt::NoPen);
            for (int lane = 0; lane < kLanesPerWarp; ++lane) {
                const bool on = ((issue->mask >> static_cast<unsigned>(lane)) & 1U) != 0U;
                painter.setBrush(on ? m_theme.accent : m_theme.grid);
                const double x = strip.left() + pitch * (lane + (lane / 8) * (2.0 / 3.0));
                painter.drawRect(QRectF(x, strip.top(), pitch * 0.78, strip.height()));
            }
        }
    }

    // Reconvergence stack, top (back) first. Each card: the label, the pcs beside it when
    // both fit on one line (else under it), then the mask as 32 dots.
    drawWrapped(painter, QRectF(l.stack.left(), l.stack.top(), l.stack.width(), l.headingH),
                l.stackHeading, m_theme.muted);
    const QFont labelFont = m_theme.fontAtPixels(em * 0.92, true);
    const QFont pcFont = m_theme.fontAtPixels(em * 0.8);
    double y = l.stack.top() + l.headingH;
    const int entries = static_cast<int>(m_frame.stack.size());
    for (int i = entries - 1; i >= 0; --i) {
        const ReconvergenceEntry& e = m_frame.stack[static_cast<std::size_t>(i)];
        const double textW = l.stack.width() - em;
        const QString pcs =
            tr("pc %1 \u2192 joins at %2").arg(pcText(e.pc), pcText(e.reconvergePc));
        const QString labelText = QString::fromStdString(e.label);
        const double pcW = QFontMetricsF(pcFont).horizontalAdvance(pcs) + 2.0;
        const double labelW = QFontMetricsF(labelFont).horizontalAdvance(labelText);
        const bool oneLine = labelW + em * 0.5 + pcW <= textW;
        const WrappedText label = wrapText(labelFont, labelText, oneLine ? textW - pcW : textW);
        const WrappedText pcLine = wrapText(pcFont, pcs, textW);
        const double textH =
            oneLine ? std::max(label.height(), pcLine.height()) : label.height() + pcLine.height();
        const double cardH = em * 0.15 + textH + em * 1.1;
        if (y + cardH > l.stack.bottom() + 1.0)
            break; // deeper entries do not fit; the top of the stack is what runs next
        const QRectF card(l.stack.left(), y, l.stack.width(), cardH);
        const bool top = i == entries - 1;
        painter.setPen(top ? QPen(m_theme.accent, m_theme.lineWidth(em * 0.12))
                           : QPen(m_theme.grid, m_theme.lineWidth(1.0)));
        painter.setBrush(m_theme.surface);
        painter.drawRoundedRect(card, em * 0.3, em * 0.3);
        const double tx = card.left() + em * 0.5;
        const double ty = card.top() + em * 0.15;
        drawWrapped(painter, QRectF(tx, ty, label.width() + 1.0, label.height()), label,
                    top ? m_theme.accent : m_theme.foreground);
        if (oneLine)
            drawWrapped(painter, QRectF(tx + textW - pcW, ty, pcW, pcLine.height()), pcLine,
                        m_theme.muted, Qt::AlignRight | Qt::AlignTop);
        else
            drawWrapped(painter, QRectF(tx, ty + label.height(), textW, pcLine.height()), pcLine,
                        m_theme.muted);
        // The mask as 32 small dots.
        const double step = (card.width() - em) / kLanesPerWarp;
        const double d = std::min(em * 0.55, step * 0.72);
        const double cy = ty + textH + em * 0.5;
        painter.setPen(Qt::NoPen);
        for (int lane = 0; lane < kLanesPerWarp; ++lane) {
            const bool on = ((e.mask >> static_cast<unsigned>(lane)) & 1U) != 0U;
            painter.setBrush(on ? m_theme.accent : m_theme.grid);
            const double cx = card.left() + em * 0.5 + step * (lane + 0.5);
            painter.drawEllipse(QPointF(cx, cy), d / 2.0, d / 2.0);
        }
        y += cardH + em * 0.3;
    }
    if (entries == 0) {
        const WrappedText empty =
            wrapText(pcFont, tr("empty: all lanes together"), l.stack.width());
        drawWrapped(painter, QRectF(l.stack.left(), y + em * 0.2, l.stack.width(), empty.height()),
                    empty, m_theme.muted);
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
