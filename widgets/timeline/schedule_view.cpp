#include "timeline/schedule_view.h"

#include "charts/tick_step.h"
#include "drawing/hover_tip.h"
#include "engine/number_format.h"

#include <QFontMetricsF>
#include <algorithm>
#include <array>
#include <cmath>

namespace wb {

namespace {

constexpr EmFit kScheduleFit{30.0, 16.0, 1.0}; // the ems a schedule needs at the body size

// Compute warm, communication cool: a reader separates the two at a glance, and the
// collectives differ from each other by hue.
constexpr std::array<QRgb, kScheduleKinds> kKindColours = {
    0x4c78a8, // forward: blue
    0x2f4b7c, // backward: dark blue
    0x9d755d, // optimizer: brown
    0xe45756, // all-reduce: red
    0xf58518, // reduce-scatter: orange
    0x54a24b, // all-gather: green
    0xb279a2, // send/recv: purple
    0xeeca3b, // all-to-all: yellow
    0x72b7b2, // compute (forward + backward): teal
};

} // namespace

ScheduleView::ScheduleView(QWidget* parent)
    : FrameView(parent) {
    setMouseTracking(true);
}

QColor ScheduleView::kindColor(ScheduleKind kind, int shade) const {
    QColor c(kKindColours[static_cast<std::size_t>(kind)]);
    if (shade > 0)
        c = c.lighter(100 + 35 * std::min(shade, 3));
    return c;
}

QColor ScheduleView::categoryColor(int category, int shade) const {
    QColor c = m_theme.seriesColor(category);
    if (shade > 0)
        c = c.lighter(100 + 35 * std::min(shade, 3));
    return c;
}

QColor ScheduleView::bubbleColor() const {
    return m_theme.isDark ? QColor(0xc0, 0x60, 0x60) : QColor(0xd0, 0x50, 0x50);
}

std::vector<LegendEntry> ScheduleView::legendEntries() const {
    std::array<bool, kScheduleKinds> used{};
    std::vector<bool> usedCategories(m_frame.categories.size(), false);
    bool bubble = false;
    for (const ScheduleRow& row : m_frame.rows) {
        bubble = bubble || row.idleIsBubble;
        for (const ScheduleBar& b : row.bars) {
            if (b.category >= 0 && static_cast<std::size_t>(b.category) < usedCategories.size())
                usedCategories[static_cast<std::size_t>(b.category)] = true;
            else
                used[static_cast<std::size_t>(b.kind)] = true;
        }
    }
    std::vector<LegendEntry> out;
    for (std::size_t c = 0; c < m_frame.categories.size(); ++c)
        if (usedCategories[c])
            out.push_back({categoryColor(static_cast<int>(c)), Qt::NoPen,
                           QString::fromStdString(m_frame.categories[c])});
    for (int k = 0; k < kScheduleKinds; ++k)
        if (used[static_cast<std::size_t>(k)])
            out.push_back({kindColor(static_cast<ScheduleKind>(k)), Qt::NoPen,
                           QString::fromLatin1(scheduleKindName(static_cast<ScheduleKind>(k)))});
    if (bubble)
        out.push_back({QBrush(bubbleColor(), Qt::BDiagPattern), Qt::NoPen, tr("bubble (idle)")});
    return out;
}

int ScheduleView::naturalHeight(int width) const {
    const Layout l = layoutFor(QRectF(0.0, 0.0, width, 1.0e6));
    const double content = l.legend.bottom() + l.em * 0.8;
    return static_cast<int>(std::ceil(std::max(content, kScheduleFit.heightEms * l.em)));
}

ScheduleView::Layout ScheduleView::layoutFor(const QRectF& bounds) const {
    Layout l;
    l.header = layoutHeader(bounds, kScheduleFit, m_frame.title, m_frame.caption);
    l.em = l.header.em;
    const QRectF inner = l.header.inner;
    l.legendLayout = layoutLegend(legendEntries(), font(l.em * 0.85), inner.width());
    const QFontMetricsF fm(m_theme.fontAtPixels(l.em * 0.9));
    double labelW = 0;
    for (const ScheduleRow& r : m_frame.rows)
        labelW = std::max(labelW, fm.horizontalAdvance(QString::fromStdString(r.label)));
    labelW = std::min(labelW + l.em * 0.8, inner.width() * 0.3);
    const int rows = std::max(1, static_cast<int>(m_frame.rows.size()));
    const double top = l.header.bottom() + l.em * 0.6;
    const double bottomReserve = l.em * 1.8 + l.legendLayout.height; // axis, legend
    const double available = std::max(0.0, inner.bottom() - top - bottomReserve);
    l.rowH = std::min(l.em * 5.0, available / rows);
    l.plot = QRectF(inner.left() + labelW, top, inner.width() - labelW, l.rowH * rows);
    l.labels = QRectF(inner.left(), top, labelW, l.plot.height());
    l.axis = QRectF(l.plot.left(), l.plot.bottom(), l.plot.width(), l.em * 1.6);
    l.legend =
        QRectF(inner.left(), l.axis.bottom() + l.em * 0.2, inner.width(), l.legendLayout.height);
    return l;
}

double ScheduleView::xOf(const Layout& l, double s) const {
    const double span = m_frame.endS - m_frame.startS;
    const double at = span > 0 ? (s - m_frame.startS) / span : s;
    return l.plot.left() + std::clamp(at, 0.0, 1.0) * l.plot.width();
}

QRectF ScheduleView::plotRect(const QRectF& bounds) const {
    return layoutFor(bounds).plot;
}

QRectF ScheduleView::rowRect(const QRectF& bounds, int row) const {
    const Layout l = layoutFor(bounds);
    return {l.plot.left(), l.plot.top() + row * l.rowH, l.plot.width(), l.rowH};
}

QRectF ScheduleView::barRect(const QRectF& bounds, int row, int bar) const {
    return barRect(layoutFor(bounds), row, bar);
}

QRectF ScheduleView::barRect(const Layout& l, int row, int bar) const {
    const ScheduleBar& b =
        m_frame.rows[static_cast<std::size_t>(row)].bars[static_cast<std::size_t>(bar)];
    const double gap = l.rowH > 8.0 ? std::max(1.0, l.rowH * 0.12) : 0.0;
    const double x0 = xOf(l, b.startS);
    const double x1 = std::max(xOf(l, b.endS), x0 + 1.0); // a sliver stays visible
    return {x0, l.plot.top() + row * l.rowH + gap / 2, x1 - x0, l.rowH - gap};
}

bool ScheduleView::barAt(const QRectF& bounds, const QPointF& pos, int* row, int* bar) const {
    const Layout l = layoutFor(bounds);
    if (!l.plot.contains(pos) || l.rowH <= 0)
        return false;
    const int r = static_cast<int>((pos.y() - l.plot.top()) / l.rowH);
    if (r < 0 || r >= static_cast<int>(m_frame.rows.size()))
        return false;
    const auto& bars = m_frame.rows[static_cast<std::size_t>(r)].bars;
    // The narrowest bar under the pointer wins: short collectives sit on long passes.
    int best = -1;
    double bestW = 0;
    for (int i = 0; i < static_cast<int>(bars.size()); ++i) {
        const QRectF rect = barRect(l, r, i).adjusted(-1, 0, 1, 0);
        if (rect.contains(pos) && (best < 0 || rect.width() < bestW)) {
            best = i;
            bestW = rect.width();
        }
    }
    if (best < 0)
        return false;
    *row = r;
    *bar = best;
    return true;
}

QString ScheduleView::barText(int row, int bar) const {
    const ScheduleBar& b =
        m_frame.rows[static_cast<std::size_t>(row)].bars[static_cast<std::size_t>(bar)];
    if (!b.tip.empty())
        return QString::fromStdString(b.tip);
    const bool categorised =
        b.category >= 0 && static_cast<std::size_t>(b.category) < m_frame.categories.size();
    return QStringLiteral("%1 \u00b7 %2\u2013%3")
        .arg(categorised
                 ? QString::fromStdString(m_frame.categories[static_cast<std::size_t>(b.category)])
                 : QString::fromLatin1(scheduleKindName(b.kind)),
             QString::fromStdString(formatSi(b.startS, "s")),
             QString::fromStdString(formatSi(b.endS, "s")));
}

bool ScheduleView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](const QPointF& pos) {
            int r = 0, b = 0;
            return barAt(QRectF(rect()), pos, &r, &b) ? barText(r, b) : QString();
        }))
        return true;
    return QWidget::event(event);
}

void ScheduleView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout l = layoutFor(bounds);

    drawHeader(painter, l.header);
    drawRows(painter, l);
    if (m_frame.rows.empty()) { // nothing to put on a time axis
        painter.restore();
        return;
    }
    drawTimeAxis(painter, l);
    drawCursor(painter, l);
    drawLegend(painter, l.legend.topLeft(), l.legendLayout, legendEntries(), m_theme.foreground);
    painter.restore();
}

// Each row in turn: its track and label, its bubbles hatched, then its bars.
void ScheduleView::drawRows(QPainter& painter, const Layout& l) const {
    const QFont labelFont = m_theme.fontAtPixels(l.em * 0.9);
    const QFont barFont = m_theme.fontAtPixels(std::min(l.em * 0.8, l.rowH * 0.5));
    const QBrush hatch(bubbleColor(), Qt::BDiagPattern);
    const QColor track =
        m_theme.isDark ? m_theme.background.lighter(115) : QColor(0xf6, 0xf7, 0xf9);

    // Rows thinner than a line of text (64 nodes) are labelled every stride-th, at full
    // size, centred on their row; the tips name every row's bars.
    const double lineH = QFontMetricsF(labelFont).height();
    const int stride = l.rowH > 0 ? std::max(1, static_cast<int>(std::ceil(lineH / l.rowH))) : 1;
    for (int r = 0; r < static_cast<int>(m_frame.rows.size()); ++r) {
        const ScheduleRow& row = m_frame.rows[static_cast<std::size_t>(r)];
        const QRectF rr(l.plot.left(), l.plot.top() + r * l.rowH, l.plot.width(), l.rowH);
        const double gap = l.rowH > 8.0 ? std::max(1.0, l.rowH * 0.12) : 0.0;
        const QRectF lane = rr.adjusted(0, gap / 2, 0, -gap / 2);
        painter.fillRect(lane, track);
        if (r % stride == 0) {
            const double h = std::max(rr.height(), lineH);
            const QRectF box(l.labels.left(), rr.center().y() - h / 2,
                             l.labels.width() - l.em * 0.5, h);
            // A label too long for the column wraps when the row has room for its lines.
            const WrappedText wrapped =
                wrapText(labelFont, QString::fromStdString(row.label), box.width());
            if (wrapped.height() <= rr.height()) {
                drawWrapped(painter, box, wrapped, m_theme.foreground,
                            Qt::AlignRight | Qt::AlignVCenter);
            } else {
                // No room to wrap: the leading parts that fit ("job 196 · 64 GPUs"); the hover
                // tip has the rest.
                painter.setFont(labelFont);
                painter.setPen(m_theme.foreground);
                painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter,
                                 fitByParts(labelFont, QString::fromStdString(row.label),
                                            box.width(), KeepParts::Head));
            }
        }
        if (row.idleIsBubble)
            drawBubbles(painter, l, row, lane, hatch);
        drawBars(painter, l, r, track, barFont);
    }
}

// Idle time of a pipeline stage is the bubble: hatch the gaps between its passes
// (up to the cursor while playing, so the bubble grows as the step runs).
void ScheduleView::drawBubbles(QPainter& painter, const Layout& l, const ScheduleRow& row,
                               const QRectF& lane, const QBrush& hatch) const {
    const bool playing = m_frame.cursorS >= 0;
    const double end = row.idleEndS >= 0 ? std::min(row.idleEndS, m_frame.endS) : m_frame.endS;
    const double until = playing ? std::min(m_frame.cursorS, end) : end;
    std::vector<std::pair<double, double>> busy;
    for (const ScheduleBar& b : row.bars)
        busy.emplace_back(b.startS, b.endS);
    std::sort(busy.begin(), busy.end());
    // One fill per row: a pattern fill taller than about 96 pixels is split across Qt's
    // thread pool, so a fill per gap (thousands of kernels) cost more in thread
    // hand-offs than in pixels.
    QPainterPath gaps;
    double t = m_frame.startS;
    auto hatchGap = [&](double a, double b) {
        if (b <= a)
            return;
        gaps.addRect(QRectF(xOf(l, a), lane.top(), xOf(l, b) - xOf(l, a), lane.height()));
    };
    for (const auto& [s, e] : busy) {
        hatchGap(t, std::min(s, until));
        t = std::max(t, e);
    }
    hatchGap(t, until);
    if (!gaps.isEmpty())
        painter.fillPath(gaps, hatch);
}

// The bars of row `r`: faint while still to come, the running one lighter past the cursor,
// labelled where the label fits. `track` is the row's background.
void ScheduleView::drawBars(QPainter& painter, const Layout& l, int r, const QColor& track,
                            const QFont& barFont) const {
    const bool playing = m_frame.cursorS >= 0;
    const QFontMetricsF barMetrics(barFont);
    const ScheduleRow& row = m_frame.rows[static_cast<std::size_t>(r)];
    std::vector<BarLabel> labels;
    for (int i = 0; i < static_cast<int>(row.bars.size()); ++i) {
        const ScheduleBar& b = row.bars[static_cast<std::size_t>(i)];
        const bool categorised =
            b.category >= 0 && static_cast<std::size_t>(b.category) < m_frame.categories.size();
        const QRectF br = barRect(l, r, i);
        QColor fill = categorised ? categoryColor(b.category, b.shade) : kindColor(b.kind, b.shade);
        const bool future = playing && b.startS > m_frame.cursorS;
        // Faint colours are opaque mixes, not alpha: a translucent fill over about 96
        // pixel rows is split across Qt's thread pool, and thousands of bars then cost
        // more in thread hand-offs than in pixels.
        if (future)
            fill = mixColors(track, fill, 0.22);
        painter.fillRect(br, fill);
        if (playing && !future && b.endS > m_frame.cursorS) {
            // Running now: the part still to come is lighter.
            const double xc = xOf(l, m_frame.cursorS);
            painter.fillRect(QRectF(xc, br.top(), br.right() - xc, br.height()),
                             mixColors(m_theme.background, fill, 0.45));
        }
        if (br.width() >= 3.0) {
            painter.setPen(QPen(m_theme.background, 1.0));
            painter.drawLine(br.topLeft(), br.bottomLeft());
        }
        if (!b.label.empty() && !future) {
            const QString text = QString::fromStdString(b.label);
            const QSizeF size(barMetrics.horizontalAdvance(text) + 4, barMetrics.height());
            if (size.width() <= br.width() && size.height() <= br.height())
                labels.push_back(
                    {i, QRectF(br.center() - QPointF(size.width(), size.height()) / 2, size), text,
                     fill});
        }
    }
    drawBarLabels(painter, l, r, barFont, labels);
}

// A dense row labels what stays readable: a label is drawn only where no other bar covers
// any of it (bars of one row may overlap in time); the rest keep their text in the tip.
void ScheduleView::drawBarLabels(QPainter& painter, const Layout& l, int r, const QFont& barFont,
                                 const std::vector<BarLabel>& labels) const {
    if (labels.empty())
        return;
    const auto& bars = m_frame.rows[static_cast<std::size_t>(r)].bars;
    // Bars by left edge, with the running maximum of right edges before each, so "does any
    // other bar reach into this box" is a short scan instead of a pass over the whole row.
    std::vector<QRectF> rects;
    rects.reserve(bars.size());
    for (int i = 0; i < static_cast<int>(bars.size()); ++i)
        rects.push_back(barRect(l, r, i));
    std::vector<int> order(bars.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return rects[static_cast<std::size_t>(a)].left() <
               rects[static_cast<std::size_t>(b)].left();
    });
    painter.setFont(barFont);
    for (const BarLabel& label : labels) {
        bool covered = false;
        for (int j : order) {
            const QRectF& other = rects[static_cast<std::size_t>(j)];
            if (other.left() >= label.box.right())
                break;
            if (j != label.bar && other.right() > label.box.left()) {
                covered = true;
                break;
            }
        }
        if (covered)
            continue;
        painter.setPen(label.fill.lightnessF() > 0.6f ? QColor(0x20, 0x20, 0x20)
                                                      : QColor(Qt::white));
        painter.drawText(label.box, Qt::AlignCenter, label.text);
    }
}

// Time axis.
void ScheduleView::drawTimeAxis(QPainter& painter, const Layout& l) const {
    const double em = l.em;
    painter.setPen(QPen(m_theme.grid, m_theme.lineWidth(1.0)));
    painter.drawLine(QPointF(l.plot.left(), l.plot.bottom()),
                     QPointF(l.plot.right(), l.plot.bottom()));
    if (m_frame.endS > m_frame.startS) {
        const QFont axisFont = m_theme.fontAtPixels(em * 0.8);
        painter.setFont(axisFont);
        const QFontMetricsF axisMetrics(axisFont);
        // Ticks in the frame's unit (seconds by default, hours or days for long timelines).
        const bool seconds = m_frame.axisUnit == "s" || m_frame.axisUnitS <= 0;
        const double unitS = seconds ? 1.0 : m_frame.axisUnitS;
        const double step = niceTickStep((m_frame.endS - m_frame.startS) / unitS,
                                         std::max(2, static_cast<int>(l.plot.width() / (em * 7))));
        // The first tick on the step's grid at or after the axis start.
        const double first = std::ceil(m_frame.startS / unitS / step - 1e-9) * step;
        for (double u = first; u <= m_frame.endS / unitS * (1 + 1e-9); u += step) {
            const double v = u * unitS;
            const double x = xOf(l, v);
            painter.setPen(QPen(m_theme.grid, 1.0));
            painter.drawLine(QPointF(x, l.plot.bottom()), QPointF(x, l.plot.bottom() + em * 0.3));
            painter.setPen(m_theme.muted);
            const QString text = QString::fromStdString(v == 0    ? std::string("0")
                                                        : seconds ? formatSi(v, "s")
                                                                  : formatSignificant(u, 3) + " " +
                                                                        m_frame.axisUnit);
            // Centred under its tick, but slid inwards at the view's edges rather than cut.
            const double w = axisMetrics.horizontalAdvance(text) + 2;
            const double left = std::clamp(x - w / 2, 0.0, std::max(0.0, width() - w));
            painter.drawText(QRectF(left, l.plot.bottom() + em * 0.3, w, em * 1.2),
                             Qt::AlignHCenter | Qt::AlignTop, text);
        }
    }
}

// The playback cursor, while playing.
void ScheduleView::drawCursor(QPainter& painter, const Layout& l) const {
    if (m_frame.cursorS >= 0 && m_frame.endS > 0) {
        const double x = xOf(l, m_frame.cursorS);
        painter.setPen(QPen(m_theme.accent, m_theme.lineWidth(2.0)));
        painter.drawLine(QPointF(x, l.plot.top()), QPointF(x, l.plot.bottom()));
    }
}

} // namespace wb
