#include "timeline/issue_timeline_view.h"

#include "charts/tick_step.h"
#include "drawing/hover_tip.h"

#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <set>

namespace wb {

namespace {

constexpr int kIdle = -1;

// Whole-cycle ticks: 1, 2 or 5 × 10^k cycles, about `target` of them over `range`.
int niceStep(int range, int target) {
    return std::max(
        1, static_cast<int>(niceTickStep(static_cast<double>(std::max(1, range)), target)));
}

} // namespace

IssueTimelineView::IssueTimelineView(QWidget* parent)
    : FrameView(parent) {}

// The frame's own caption when it has one (it already quotes the utilisation, worded by the
// lesson); otherwise the utilisation alone.
QString IssueTimelineView::captionText(const IssueTimelineFrame& frame) {
    if (!frame.caption.empty())
        return QString::fromStdString(frame.caption);
    return tr("utilisation %1 %").arg(std::lround(frame.utilization * 100.0));
}

int IssueTimelineView::issuedAt(int scheduler, int cycle) const {
    if (scheduler < 0 || static_cast<std::size_t>(scheduler) >= m_frame.issued.size()) {
        return kIdle;
    }
    const std::vector<int>& row = m_frame.issued[static_cast<std::size_t>(scheduler)];
    return cycle >= 0 && static_cast<std::size_t>(cycle) < row.size()
               ? row[static_cast<std::size_t>(cycle)]
               : kIdle;
}

QString IssueTimelineView::cellText(const IssueTimelineFrame& frame, int scheduler, int cycle) {
    int warp = kIdle;
    if (scheduler >= 0 && static_cast<std::size_t>(scheduler) < frame.issued.size() && cycle >= 0 &&
        static_cast<std::size_t>(cycle) <
            frame.issued[static_cast<std::size_t>(scheduler)].size()) {
        warp = frame.issued[static_cast<std::size_t>(scheduler)][static_cast<std::size_t>(cycle)];
    }
    const QString where = tr("scheduler %1 \u00b7 cycle %2").arg(scheduler).arg(cycle);
    return warp >= 0 ? where + tr(": warp %1 issued").arg(warp)
                     : where + tr(": idle, every warp stalled");
}

IssueTimelineView::Layout IssueTimelineView::layoutFor(const QRectF& bounds) const {
    Layout l;
    l.em = layoutEm(bounds, {30.0, 16.0, 1.0});
    const double pad = l.em * 0.8;
    const QRectF inner = bounds.adjusted(pad, pad, -pad, -pad);
    l.titleText = wrapText(m_theme.fontAtPixels(l.em * 1.15, true),
                           QString::fromStdString(m_frame.title), inner.width());
    l.title = QRectF(inner.left(), inner.top(), inner.width(),
                     l.titleText.empty() ? 0.0 : l.titleText.height() + l.em * 0.3);
    l.captionText =
        wrapText(m_theme.fontAtPixels(l.em * 1.0, true), captionText(m_frame), inner.width());
    l.caption = QRectF(inner.left(), l.title.bottom(), inner.width(), l.captionText.height());
    const double labelW =
        QFontMetricsF(m_theme.fontAtPixels(l.em * 0.9))
            .horizontalAdvance(tr("sched %1").arg(std::max(0, m_frame.schedulers - 1))) +
        l.em * 0.8;
    const int rows = std::max(1, m_frame.schedulers);
    const double top = l.caption.bottom() + l.em * 0.8;
    const double bottomReserve = l.em * 1.6 + l.em * 2.0; // axis, legend
    const double available = std::max(0.0, inner.bottom() - top - bottomReserve);
    l.rowH = std::min(l.em * 3.4, available / rows);
    l.plot = QRectF(inner.left() + labelW, top, inner.width() - labelW, l.rowH * rows);
    l.labels = QRectF(inner.left(), top, labelW, l.plot.height());
    l.colW = l.plot.width() / std::max(1, m_frame.cycles);
    l.axis = QRectF(l.plot.left(), l.plot.bottom(), l.plot.width(), l.em * 1.6);
    l.legend = QRectF(inner.left(), l.axis.bottom() + l.em * 0.3, inner.width(), l.em * 1.5);
    return l;
}

QRectF IssueTimelineView::plotRect(const QRectF& bounds) const {
    return layoutFor(bounds).plot;
}

QRectF IssueTimelineView::cellRect(const QRectF& bounds, int scheduler, int cycle) const {
    const Layout l = layoutFor(bounds);
    return {l.plot.left() + cycle * l.colW, l.plot.top() + scheduler * l.rowH, l.colW, l.rowH};
}

bool IssueTimelineView::cellAt(const QPointF& pos, int* scheduler, int* cycle) const {
    const Layout l = layoutFor(QRectF(rect()));
    if (!l.plot.contains(pos) || l.colW <= 0.0 || l.rowH <= 0.0) {
        return false;
    }
    const int s = static_cast<int>((pos.y() - l.plot.top()) / l.rowH);
    const int c = static_cast<int>((pos.x() - l.plot.left()) / l.colW);
    if (s < 0 || s >= m_frame.schedulers || c < 0 ||
        c >= std::min(m_frame.shownUpTo, m_frame.cycles)) {
        return false;
    }
    *scheduler = s;
    *cycle = c;
    return true;
}

void IssueTimelineView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout l = layoutFor(bounds);

    drawWrapped(painter, l.title, l.titleText, m_theme.foreground);
    drawWrapped(painter, l.caption, l.captionText, m_theme.foreground);

    const int shown = std::clamp(m_frame.shownUpTo, 0, std::max(0, m_frame.cycles));
    // Idle cells and the legend's idle swatch share one hatch.
    const QBrush hatch(m_theme.isDark ? m_theme.grid.lighter(130) : m_theme.grid.darker(115),
                       Qt::BDiagPattern);
    m_lastCellRects = drawSchedulerRows(painter, l, shown, hatch);
    drawCycleBoundaries(painter, l, shown);
    drawNowMarker(painter, l, shown);
    drawCycleAxis(painter, l);
    drawWarpLegend(painter, l, shown, hatch);
    painter.restore();
}

// One cell segment: [x0, x1) in pixels, a warp id or kIdle (hatched with `hatch`).
void IssueTimelineView::fillSegment(QPainter& painter, double x0, double x1, double y, double hgt,
                                    int value, const QBrush& hatch) const {
    const QRectF r(x0, y, x1 - x0, hgt);
    if (value >= 0) {
        painter.fillRect(r, warpColor(value));
    } else {
        painter.fillRect(r, m_theme.surface);
        painter.fillRect(r, hatch);
    }
}

// One row per scheduler: its track, its name and the cells revealed so far. Returns how many
// cell segments it filled.
int IssueTimelineView::drawSchedulerRows(QPainter& painter, const Layout& l, int shown,
                                         const QBrush& hatch) const {
    const int rows = std::max(0, m_frame.schedulers);
    const QFont labelFont = m_theme.fontAtPixels(l.em * 0.9);
    const double gap = l.rowH > 8.0 ? std::max(1.0, l.rowH * 0.1) : 0.0;
    int rectsDrawn = 0;
    for (int s = 0; s < rows; ++s) {
        const double y = l.plot.top() + s * l.rowH + gap / 2.0;
        const double hgt = l.rowH - gap;
        // The not-yet-revealed part of the row: a faint empty track.
        painter.fillRect(QRectF(l.plot.left(), y, l.plot.width(), hgt),
                         m_theme.isDark ? m_theme.background.lighter(115)
                                        : QColor(0xfa, 0xfb, 0xfc));
        painter.setFont(labelFont);
        painter.setPen(m_theme.foreground);
        painter.drawText(QRectF(l.labels.left(), y, l.labels.width() - l.em * 0.6, hgt),
                         Qt::AlignRight | Qt::AlignVCenter, tr("sched %1").arg(s));
        rectsDrawn += l.colW >= 2.0 ? drawCellRuns(painter, l, s, y, hgt, shown, hatch)
                                    : drawBinnedCells(painter, l, s, y, hgt, shown, hatch);
    }
    return rectsDrawn;
}

// Cells of scheduler `s` at two or more pixels a cycle. Returns the segments filled.
int IssueTimelineView::drawCellRuns(QPainter& painter, const Layout& l, int s, double y, double hgt,
                                    int shown, const QBrush& hatch) const {
    int rectsDrawn = 0;
    // Merge runs of equal cells; draw each run once.
    int start = 0;
    while (start < shown) {
        const int value = issuedAt(s, start);
        int end = start + 1;
        while (end < shown && issuedAt(s, end) == value) {
            ++end;
        }
        fillSegment(painter, l.plot.left() + start * l.colW, l.plot.left() + end * l.colW, y, hgt,
                    value, hatch);
        ++rectsDrawn;
        start = end;
    }
    return rectsDrawn;
}

// Cells of scheduler `s` at under two pixels a cycle. Returns the segments filled.
int IssueTimelineView::drawBinnedCells(QPainter& painter, const Layout& l, int s, double y,
                                       double hgt, int shown, const QBrush& hatch) const {
    int rectsDrawn = 0;
    // Several cycles per pixel: bin by whole pixel, then merge equal neighbours.
    const int pixels = static_cast<int>(std::ceil(shown * l.colW));
    int runValue = 0;
    int runStart = -1;
    for (int px = 0; px <= pixels; ++px) {
        int value = kIdle;
        if (px < pixels) {
            // The first warp issued in the pixel's cycles; idle only if all were idle.
            const int c0 = static_cast<int>(px / l.colW);
            const int c1 = std::max(c0 + 1, std::min(shown, static_cast<int>((px + 1) / l.colW)));
            for (int c = c0; c < c1 && value == kIdle; ++c) {
                value = issuedAt(s, c);
            }
        }
        if (runStart >= 0 && (px == pixels || value != runValue)) {
            fillSegment(painter, l.plot.left() + runStart, l.plot.left() + px, y, hgt, runValue,
                        hatch);
            ++rectsDrawn;
            runStart = -1;
        }
        if (px < pixels && runStart < 0) {
            runStart = px;
            runValue = value;
        }
    }
    return rectsDrawn;
}

// Cycle boundaries as thin background lines when cells are wide enough to count.
void IssueTimelineView::drawCycleBoundaries(QPainter& painter, const Layout& l, int shown) const {
    if (l.colW >= 6.0 && shown > 0) {
        painter.setPen(QPen(m_theme.background, 1.0));
        for (int c = 1; c < shown; ++c) {
            const double x = std::round(l.plot.left() + c * l.colW);
            painter.drawLine(QPointF(x, l.plot.top()), QPointF(x, l.plot.bottom()));
        }
    }
}

// "Now" marker at the revealed edge while playback runs.
void IssueTimelineView::drawNowMarker(QPainter& painter, const Layout& l, int shown) const {
    if (shown > 0 && shown < m_frame.cycles) {
        const double x = l.plot.left() + shown * l.colW;
        painter.setPen(QPen(m_theme.accent, m_theme.lineWidth(2.0)));
        painter.drawLine(QPointF(x, l.plot.top() - l.em * 0.3),
                         QPointF(x, l.plot.bottom() + l.em * 0.3));
    }
}

// Cycle axis.
void IssueTimelineView::drawCycleAxis(QPainter& painter, const Layout& l) const {
    const double em = l.em;
    const QFont axisFont = m_theme.fontAtPixels(em * 0.8);
    painter.setFont(axisFont);
    const double tickW =
        QFontMetricsF(axisFont).horizontalAdvance(QString::number(m_frame.cycles)) + em;
    const int step =
        niceStep(std::max(1, m_frame.cycles),
                 std::max(2, static_cast<int>(l.plot.width() / std::max(tickW * 1.6, 1.0))));
    for (int c = 0; c <= m_frame.cycles; c += step) {
        const double x = l.plot.left() + c * l.colW;
        painter.setPen(QPen(m_theme.grid, 1.0));
        painter.drawLine(QPointF(x, l.axis.top()), QPointF(x, l.axis.top() + em * 0.35));
        painter.setPen(m_theme.muted);
        // Centred under the tick, slid inwards at the view's edge rather than cut.
        const double left = std::clamp(x - tickW / 2, 0.0, std::max(0.0, width() - tickW));
        painter.drawText(QRectF(left, l.axis.top() + em * 0.35, tickW, em * 1.1), Qt::AlignCenter,
                         QString::number(c));
    }
    painter.setPen(m_theme.muted);
    painter.drawText(
        QRectF(l.labels.left(), l.axis.top() + em * 0.35, l.labels.width() - em * 0.6, em * 1.1),
        Qt::AlignRight | Qt::AlignVCenter, tr("cycle"));
}

// Legend: the warps seen so far and the idle look. Its swatches are not counted in
// lastCellRects().
void IssueTimelineView::drawWarpLegend(QPainter& painter, const Layout& l, int shown,
                                       const QBrush& hatch) const {
    const double em = l.em;
    const int rows = std::max(0, m_frame.schedulers);
    // One entry per scheduler slot seen so far: "warps 0–3" share a colour, one per row.
    const int schedulers = std::max(1, rows);
    std::set<int> seenSlots;
    for (int s = 0; s < rows && seenSlots.size() < 13; ++s) {
        for (int c = 0; c < shown && seenSlots.size() < 13; ++c) {
            if (issuedAt(s, c) >= 0) {
                seenSlots.insert(issuedAt(s, c) / schedulers);
            }
        }
    }
    const QFont legendFont = m_theme.fontAtPixels(em * 0.8);
    painter.setFont(legendFont);
    const QFontMetricsF fm(legendFont);
    const double sw = em * 0.85;
    double x = l.legend.left();
    const double cy = l.legend.center().y();
    const auto entry = [&](const QString& text, int value) {
        const double need = sw * 1.4 + fm.horizontalAdvance(text) + em;
        if (x + need > l.legend.right()) {
            return false;
        }
        fillSegment(painter, x, x + sw, cy - sw / 2, sw, value, hatch);
        x += sw * 1.4;
        painter.setPen(m_theme.muted);
        painter.drawText(QRectF(x, l.legend.top(), need, l.legend.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
        x += fm.horizontalAdvance(text) + em;
        return true;
    };
    entry(tr("idle: every warp stalled"), kIdle);
    int listed = 0;
    for (const int slot : seenSlots) {
        const int first = slot * schedulers;
        const QString name = schedulers == 1
                                 ? tr("warp %1").arg(first)
                                 : tr("warps %1\u2013%2").arg(first).arg(first + schedulers - 1);
        if (listed == 12 || !entry(name, first)) {
            break;
        }
        ++listed;
    }
}

bool IssueTimelineView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) {
            int s = 0;
            int c = 0;
            return cellAt(pos, &s, &c) ? cellText(m_frame, s, c) : QString();
        }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
