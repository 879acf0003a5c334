#include "grids/thread_map_view.h"

#include "drawing/hover_tip.h"
#include "drawing/theme.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

constexpr double kRowEms = 1.9;    // a warp's row at its most generous
constexpr double kMinRowEms = 1.3; // the least a row gets before warps are skipped
constexpr int kAxisLaneStep = 8;   // lane numbers on the axis: 0, 8, 16, 24 and the last

} // namespace

ThreadMapView::ThreadMapView(QWidget* parent)
    : FrameView(parent) {}

QString ThreadMapView::rangeText(const ThreadMapWarp& w) const {
    const int last = w.firstThread + std::max(1, w.threads) - 1;
    if (last == w.firstThread) // a last warp of one thread
        return tr("thread %1 → scheduler %2").arg(w.firstThread).arg(w.scheduler);
    return tr("threads %1–%2 → scheduler %3").arg(w.firstThread).arg(last).arg(w.scheduler);
}

ThreadMapView::Layout ThreadMapView::layoutFor(const QRectF& bounds) const {
    Layout l;
    l.header = layoutHeader(bounds, {36.0, 14.0, 0.9}, m_frame.title, m_frame.note);
    l.em = l.header.em;
    const double em = l.em;
    const QRectF& inner = l.header.inner;
    const int warps = static_cast<int>(m_frame.warps.size());
    const int lanes = std::max(1, m_frame.warpSize);

    // Which warps get a row: all of them when they fit at the smallest row, else the first
    // ones, a counting line, and the last warp (where a partial warp shows its idle lanes).
    const double axisH = em * 1.3;
    const double top = l.header.bottom() + em * 0.4 + axisH;
    const double avail = std::max(0.0, inner.bottom() - top);
    const int fit = std::max(3, static_cast<int>(std::floor(avail / (em * kMinRowEms))));
    std::vector<int> order;
    if (warps <= fit) {
        for (int w = 0; w < warps; ++w)
            order.push_back(w);
    } else {
        for (int w = 0; w < fit - 2; ++w)
            order.push_back(w);
        order.push_back(-1);
        order.push_back(warps - 1);
    }
    const double rowH =
        std::clamp(avail / static_cast<double>(std::max<std::size_t>(1, order.size())),
                   em * kMinRowEms * 0.8, em * kRowEms);

    const QFont labelFont = font(em * 0.9, true);
    const QFont rangeFont = font(em * 0.9);
    double labelW = 0.0, rangeW = 0.0;
    for (int w : order) {
        Row r;
        r.warp = w;
        if (w >= 0) {
            const ThreadMapWarp& tw = m_frame.warps[static_cast<std::size_t>(w)];
            r.label = wrapText(labelFont, tr("warp %1").arg(tw.warp), 1.0e6);
            r.range = wrapText(rangeFont, rangeText(tw), 1.0e6);
            labelW = std::max(labelW, r.label.width());
            rangeW = std::max(rangeW, r.range.width());
        }
        l.rows.push_back(std::move(r));
    }
    l.labelW = labelW + em * 0.6;
    const double cellsLeft = inner.left() + l.labelW;
    const double cellsW = std::max(lanes * 2.0, inner.width() - l.labelW - rangeW - em * 0.6);
    l.laneW = cellsW / lanes;
    l.axisY = top - axisH;
    l.cells = QRectF(cellsLeft, top, l.laneW * lanes, rowH * static_cast<double>(order.size()));
    for (std::size_t i = 0; i < l.rows.size(); ++i) {
        Row& r = l.rows[i];
        r.band = QRectF(inner.left(), top + rowH * static_cast<double>(i), inner.width(), rowH);
        if (r.warp < 0) {
            // The counting line spans the row: the warps it stands for, in the same rule.
            const int from = order[i - 1] + 1;
            const int to = warps - 2;
            r.range =
                wrapText(rangeFont,
                         from == to ? tr("warp %1 follows the same rule").arg(from)
                                    : tr("warps %1–%2 follow the same rule").arg(from).arg(to),
                         inner.width() - l.labelW);
        }
    }
    return l;
}

std::vector<int> ThreadMapView::shownWarps(const QRectF& bounds) const {
    std::vector<int> out;
    for (const Row& r : layoutFor(bounds).rows)
        if (r.warp >= 0)
            out.push_back(r.warp);
    return out;
}

QRectF ThreadMapView::laneRectIn(const Layout& l, const Row& r, int lane) const {
    if (r.warp < 0 || lane < 0 || lane >= m_frame.warpSize)
        return {};
    const double gap = l.laneW > 6.0 ? 1.0 : 0.0;
    const double h = r.band.height() * 0.72;
    return QRectF(l.cells.left() + lane * l.laneW + gap / 2.0, r.band.center().y() - h / 2.0,
                  l.laneW - gap, h);
}

QRectF ThreadMapView::laneRect(const QRectF& bounds, int warpIndex, int lane) const {
    const Layout l = layoutFor(bounds);
    for (const Row& r : l.rows)
        if (r.warp >= 0 && r.warp == warpIndex)
            return laneRectIn(l, r, lane);
    return {};
}

QString ThreadMapView::laneTip(const QPointF& pos) const {
    // One layout for the whole search: the pointer lies in at most one lane cell.
    const Layout l = layoutFor(QRectF(rect()));
    for (const Row& r : l.rows) {
        if (r.warp < 0 || !r.band.contains(pos))
            continue;
        const ThreadMapWarp& tw = m_frame.warps[static_cast<std::size_t>(r.warp)];
        for (int lane = 0; lane < m_frame.warpSize; ++lane) {
            if (!laneRectIn(l, r, lane).contains(pos))
                continue;
            if (lane >= tw.threads)
                return tr("lane %1 of warp %2: no thread (the block ends at thread %3)")
                    .arg(lane)
                    .arg(tw.warp)
                    .arg(tw.firstThread + tw.threads - 1);
            return tr("thread %1 → lane %2 of warp %3 → scheduler %4")
                .arg(tw.firstThread + lane)
                .arg(lane)
                .arg(tw.warp)
                .arg(tw.scheduler);
        }
    }
    return {};
}

void ThreadMapView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout l = layoutFor(bounds);
    drawHeader(painter, l.header);
    const double em = l.em;

    // Lane numbers over the columns, each centred on its lane.
    const QFont axisFont = font(em * 0.8);
    painter.setFont(axisFont);
    painter.setPen(m_theme.muted);
    const QFontMetricsF fm(axisFont);
    const int lanes = m_frame.warpSize;
    for (int lane = 0; lane < lanes; ++lane) {
        if (lane % kAxisLaneStep != 0 && lane != lanes - 1)
            continue;
        const QString text = QString::number(lane);
        const double cx = l.cells.left() + (lane + 0.5) * l.laneW;
        const double w = fm.horizontalAdvance(text);
        painter.drawText(QRectF(cx - w / 2.0, l.axisY, w + 1.0, em * 1.2),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    // The axis is named in the warp-label column, where it cannot crowd the lane numbers.
    const QString laneWord = tr("lane");
    painter.drawText(
        QRectF(l.header.inner.left(), l.axisY, fm.horizontalAdvance(laneWord) + 1.0, em * 1.2),
        Qt::AlignLeft | Qt::AlignVCenter, laneWord);

    for (const Row& r : l.rows) {
        if (r.warp < 0) {
            drawWrapped(painter,
                        QRectF(l.cells.left(), r.band.center().y() - r.range.height() / 2.0,
                               r.range.width(), r.range.height()),
                        r.range, m_theme.muted);
            continue;
        }
        const ThreadMapWarp& tw = m_frame.warps[static_cast<std::size_t>(r.warp)];
        // Schedulers are shades of the accent, not the categorical palette: beside the SM grid
        // that palette already means waves.
        const double shade = 1.0 - 0.55 * tw.scheduler / std::max(1, m_frame.schedulers - 1);
        const QColor fill = mixColors(m_theme.background, m_theme.accent, shade);
        drawWrapped(painter,
                    QRectF(r.band.left(), r.band.center().y() - r.label.height() / 2.0,
                           r.label.width(), r.label.height()),
                    r.label, m_theme.foreground);
        for (int lane = 0; lane < lanes; ++lane) {
            const QRectF cell = laneRectIn(l, r, lane);
            if (lane < tw.threads) {
                painter.fillRect(cell, fill);
            } else {
                painter.setPen(QPen(m_theme.muted, 1.0, Qt::DashLine));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
        drawWrapped(painter,
                    QRectF(l.cells.right() + em * 0.6, r.band.center().y() - r.range.height() / 2.0,
                           r.range.width(), r.range.height()),
                    r.range, m_theme.foreground);
    }
    painter.restore();
}

bool ThreadMapView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) { return laneTip(pos); }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
