#include "charts/bar_chart_view.h"

#include "charts/tick_step.h"
#include "drawing/hover_tip.h"
#include "engine/number_format.h"

#include <QFontMetricsF>
#include <QRegion>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// Negative, NaN and infinite values draw as nothing rather than poisoning the scale.
double drawable(double v) {
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

double total(const BarCategory& c) {
    double sum = 0;
    for (const BarSegment& s : c.segments)
        sum += drawable(s.value);
    return sum;
}

} // namespace

BarChartView::BarChartView(QWidget* parent)
    : FrameView(parent) {
    setMouseTracking(true);
}

QColor BarChartView::seriesColor(int series) const {
    return m_theme.seriesColor(series);
}

QColor BarChartView::referenceColor() const {
    return m_theme.isDark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc0, 0x1c, 0x28);
}

double BarChartView::axisMax() const {
    double top = drawable(m_frame.axisMax);
    for (const BarCategory& c : m_frame.categories)
        top = std::max(top, total(c));
    for (const BarReference& r : m_frame.references)
        top = std::max(top, drawable(r.value));
    if (top <= 0 || !std::isfinite(top))
        return 1.0;
    // Headroom for the totals printed past the bar ends, then a round number.
    const double step = niceTickStep(top * 1.08, 5);
    return std::ceil(top * 1.08 / step) * step;
}

QString BarChartView::valueText(double v) const {
    switch (m_frame.unit) {
    case BarValueUnit::Bytes:
        return QString::fromStdString(formatBytes(v));
    case BarValueUnit::Seconds:
        return QString::fromStdString(formatSi(v, "s"));
    case BarValueUnit::Percent:
        return QString::fromStdString(formatSignificant(v * 100.0, 3) + " %");
    case BarValueUnit::Plain:
        break;
    }
    return QString::fromStdString(std::abs(v) >= 1e4 ? formatSi(v, "") : formatSignificant(v, 3));
}

std::vector<LegendEntry> BarChartView::legendEntries() const {
    std::vector<LegendEntry> out;
    for (std::size_t i = 0; i < m_frame.series.size(); ++i)
        out.push_back({seriesColor(static_cast<int>(i)), Qt::NoPen,
                       QString::fromStdString(m_frame.series[i])});
    return out;
}

BarChartView::Layout BarChartView::layoutFor(const QRectF& bounds) const {
    Layout l;
    l.header = layoutHeader(bounds, {28.0, 18.0, 1.0}, m_frame.title, m_frame.caption);
    l.em = l.header.em;
    const QRectF inner = l.header.inner;
    // Every series the frame names, wrapped into rows, so colours mean the same in every step.
    l.legendLayout = layoutLegend(legendEntries(), font(l.em * 0.85), inner.width());
    l.legend = QRectF(inner.left(), l.header.bottom(), inner.width(),
                      m_frame.series.empty() ? 0 : l.legendLayout.height + l.em * 0.4);
    const double top = l.legend.bottom() + l.em * 0.6;
    const int n = std::max(1, static_cast<int>(m_frame.categories.size()));
    const QFontMetricsF fm(m_theme.fontAtPixels(l.em * 0.85));
    if (m_frame.horizontal) {
        double labelW = 0;
        for (const BarCategory& c : m_frame.categories)
            labelW = std::max(labelW, fm.horizontalAdvance(QString::fromStdString(c.label)));
        labelW = std::min(labelW + l.em, inner.width() * 0.35);
        // Tick labels, then the axis title wrapped to the plot's width.
        const double plotW = inner.width() - labelW - l.em * 2.5;
        l.titleBelow = wrapText(m_theme.fontAtPixels(l.em * 0.8),
                                QString::fromStdString(m_frame.axisTitle), plotW);
        const double axisH = l.em * 1.6 + (l.titleBelow.empty() ? 0.0 : l.titleBelow.height());
        // The right margin keeps the last tick label inside the view.
        l.plot =
            QRectF(inner.left() + labelW, top, plotW, std::max(0.0, inner.bottom() - top - axisH));
        l.titleBelowBox =
            QRectF(l.plot.left(), l.plot.bottom() + l.em * 1.4, plotW, l.titleBelow.height());
        l.labels = QRectF(inner.left(), top, labelW, l.plot.height());
        l.lane = l.plot.height() / n;
    } else {
        const double axisW = l.em * 5.5;  // tick labels and the rotated axis title
        const double labelH = l.em * 3.2; // up to three lines of category label
        l.plot = QRectF(inner.left() + axisW, top, inner.width() - axisW,
                        std::max(0.0, inner.bottom() - top - labelH));
        const QFont axisFont = m_theme.fontAtPixels(l.em * 0.8);
        const QString title = QString::fromStdString(m_frame.axisTitle);
        if (!title.isEmpty() &&
            QFontMetricsF(axisFont).horizontalAdvance(title) > l.plot.height()) {
            l.titleAbove = wrapText(axisFont, title, inner.width());
            l.titleAboveBox = QRectF(inner.left(), top, inner.width(), l.titleAbove.height());
            const double shift = l.titleAbove.height() + l.em * 0.6;
            l.plot.adjust(0, shift, 0, 0);
            if (l.plot.height() < 0)
                l.plot.setHeight(0);
        }
        l.labels = QRectF(l.plot.left(), l.plot.bottom(), l.plot.width(), labelH);
        l.lane = l.plot.width() / n;
    }
    return l;
}

double BarChartView::posOf(const Layout& l, double value) const {
    const double f = std::clamp(drawable(value) / axisMax(), 0.0, 1.0);
    return m_frame.horizontal ? l.plot.left() + f * l.plot.width()
                              : l.plot.bottom() - f * l.plot.height();
}

QRectF BarChartView::laneRect(const Layout& l, int category) const {
    // The bar takes 60 % of its lane: gaps separate categories at any count.
    const double thick = l.lane * 0.6, off = l.lane * 0.2;
    if (m_frame.horizontal)
        return {l.plot.left(), l.plot.top() + category * l.lane + off, l.plot.width(), thick};
    return {l.plot.left() + category * l.lane + off, l.plot.top(), thick, l.plot.height()};
}

QRectF BarChartView::segmentRectIn(const Layout& l, int category, int segment) const {
    const BarCategory& c = m_frame.categories[static_cast<std::size_t>(category)];
    double before = 0;
    for (int i = 0; i < segment; ++i)
        before += drawable(c.segments[static_cast<std::size_t>(i)].value);
    const double after = before + drawable(c.segments[static_cast<std::size_t>(segment)].value);
    const QRectF lane = laneRect(l, category);
    if (m_frame.horizontal) {
        const double x0 = posOf(l, before), x1 = posOf(l, after);
        return {x0, lane.top(), x1 - x0, lane.height()};
    }
    const double y0 = posOf(l, before), y1 = posOf(l, after);
    return {lane.left(), y1, lane.width(), y0 - y1};
}

QRectF BarChartView::plotRect(const QRectF& bounds) const {
    return layoutFor(bounds).plot;
}

QRectF BarChartView::barRect(const QRectF& bounds, int category) const {
    return laneRect(layoutFor(bounds), category);
}

QRectF BarChartView::segmentRect(const QRectF& bounds, int category, int segment) const {
    return segmentRectIn(layoutFor(bounds), category, segment);
}

double BarChartView::valuePos(const QRectF& bounds, double value) const {
    return posOf(layoutFor(bounds), value);
}

bool BarChartView::segmentAt(const QRectF& bounds, const QPointF& pos, int* category,
                             int* segment) const {
    const Layout l = layoutFor(bounds);
    for (int c = 0; c < static_cast<int>(m_frame.categories.size()); ++c) {
        if (!laneRect(l, c).contains(pos))
            continue;
        const auto& segs = m_frame.categories[static_cast<std::size_t>(c)].segments;
        for (int s = 0; s < static_cast<int>(segs.size()); ++s) {
            // A thin segment still answers within a pixel of its edge.
            const QRectF r = segmentRectIn(l, c, s);
            const QRectF hit =
                m_frame.horizontal ? r.adjusted(-1, 0, 1, 0) : r.adjusted(0, -1, 0, 1);
            if (hit.contains(pos) && drawable(segs[static_cast<std::size_t>(s)].value) > 0) {
                *category = c;
                *segment = s;
                return true;
            }
        }
    }
    return false;
}

QString BarChartView::segmentText(int category, int segment) const {
    const BarSegment& s = m_frame.categories[static_cast<std::size_t>(category)]
                              .segments[static_cast<std::size_t>(segment)];
    if (!s.tip.empty())
        return QString::fromStdString(s.tip);
    const bool named = s.series >= 0 && static_cast<std::size_t>(s.series) < m_frame.series.size();
    // The bar's own name leads: a dense chart does not label every bar (drawBars).
    return QStringLiteral("%1 \u00b7 %2: %3")
        .arg(QString::fromStdString(m_frame.categories[static_cast<std::size_t>(category)].label),
             named ? QString::fromStdString(m_frame.series[static_cast<std::size_t>(s.series)])
                   : tr("value"),
             valueText(s.value));
}

bool BarChartView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](const QPointF& pos) {
            int c = 0, s = 0;
            const QRectF bounds(rect());
            if (segmentAt(bounds, pos, &c, &s))
                return segmentText(c, s);
            // The label of a bar explains the bar.
            const Layout l = layoutFor(bounds);
            for (int i = 0; i < static_cast<int>(m_frame.categories.size()); ++i) {
                const QRectF lane = laneRect(l, i);
                const QRectF label =
                    m_frame.horizontal
                        ? QRectF(l.labels.left(), lane.top(), l.labels.width(), lane.height())
                        : QRectF(lane.left() - l.lane * 0.2, l.labels.top(), l.lane,
                                 l.labels.height());
                if (label.contains(pos))
                    return tipOf(m_frame.categories, i, &BarCategory::tip);
            }
            return QString();
        }))
        return true;
    return QWidget::event(event);
}

void BarChartView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout l = layoutFor(bounds);

    drawHeader(painter, l.header);
    drawLegend(painter, l.legend.topLeft(), l.legendLayout, legendEntries(), m_theme.foreground);

    if (m_frame.categories.empty() || l.plot.width() <= 1 || l.plot.height() <= 1) {
        painter.restore();
        return;
    }
    drawValueAxis(painter, l);
    drawBars(painter, l);
    drawAxisBaseline(painter, l);
    // Reference lines last, over the bars: the limit must stay visible where a bar passes it.
    drawReferences(painter, l);
    painter.restore();
}

std::vector<double> BarChartView::ticksIn(const Layout& l) const {
    const double top = axisMax();
    const double extent = m_frame.horizontal ? l.plot.width() : l.plot.height();
    double step = niceTickStep(top, std::max(2, static_cast<int>(extent / (l.em * 6))));
    // Bytes print as whole numbers below 1 kB: a finer step would label two ticks alike.
    if (m_frame.unit == BarValueUnit::Bytes)
        step = std::max(step, 1.0);
    const int count = static_cast<int>(std::min(50.0, std::floor(top / step + 1e-9)));
    std::vector<double> out;
    for (int i = 0; i <= count; ++i)
        out.push_back(i * step);
    return out;
}

std::vector<double> BarChartView::axisTicks(const QRectF& bounds) const {
    return ticksIn(layoutFor(bounds));
}

// Value axis: grid lines at round values, labelled in the frame's unit.
void BarChartView::drawValueAxis(QPainter& painter, const Layout& l) const {
    const double em = l.em;
    const bool horiz = m_frame.horizontal;
    const QFont axisFont = m_theme.fontAtPixels(em * 0.8);
    painter.setFont(axisFont);
    const std::vector<double> ticks = ticksIn(l);
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const double v = ticks[i];
        const double p = posOf(l, v);
        painter.setPen(QPen(m_theme.grid, 1.0));
        const QString text = i == 0 ? QStringLiteral("0") : valueText(v);
        if (horiz) {
            painter.drawLine(QPointF(p, l.plot.top()), QPointF(p, l.plot.bottom()));
            painter.setPen(m_theme.muted);
            painter.drawText(QRectF(p - em * 4, l.plot.bottom() + em * 0.2, em * 8, em * 1.2),
                             Qt::AlignHCenter | Qt::AlignTop, text);
        } else {
            painter.drawLine(QPointF(l.plot.left(), p), QPointF(l.plot.right(), p));
            painter.setPen(m_theme.muted);
            painter.drawText(QRectF(l.plot.left() - em * 5.3, p - em * 0.6, em * 5, em * 1.2),
                             Qt::AlignRight | Qt::AlignVCenter, text);
        }
    }
    if (!m_frame.axisTitle.empty()) {
        const QString text = QString::fromStdString(m_frame.axisTitle);
        painter.setPen(m_theme.muted);
        if (horiz) {
            drawWrapped(painter, l.titleBelowBox, l.titleBelow, m_theme.muted, Qt::AlignHCenter);
        } else if (!l.titleAbove.empty()) {
            drawWrapped(painter, l.titleAboveBox, l.titleAbove, m_theme.muted);
        } else {
            painter.save();
            painter.translate(l.plot.left() - em * 5.2, l.plot.center().y());
            painter.rotate(-90);
            painter.drawText(QRectF(-l.plot.height() / 2, -em * 1.2, l.plot.height(), em * 1.2),
                             Qt::AlignHCenter | Qt::AlignBottom, text);
            painter.restore();
        }
    }
}

// Bars: segments stacked from zero, a background hairline between them, the total at
// the end, the category label beside. One category at a time, all its parts before the next.
void BarChartView::drawBars(QPainter& painter, const Layout& l) const {
    const QFont labelFont = m_theme.fontAtPixels(l.em * 0.85);
    const QFont labelBold = m_theme.fontAtPixels(l.em * 0.85, true);
    const QFont valueFont = m_theme.fontAtPixels(l.em * 0.75);
    // Dense axes (64 experts) label what fits: left to right (top to bottom), a label is
    // drawn when it clears the last one drawn, at full size; the tips name every bar.
    double lastEnd = -1e9;
    for (int c = 0; c < static_cast<int>(m_frame.categories.size()); ++c) {
        drawSegments(painter, l, c, valueFont);
        drawTotal(painter, l, c, valueFont);
        const QFont& font = c == m_frame.emphasis ? labelBold : labelFont;
        const QRectF box = categoryLabelBox(l, c, font);
        if (box.isEmpty())
            continue;
        const double start = m_frame.horizontal ? box.top() : box.left();
        if (start < lastEnd)
            continue;
        drawCategoryLabel(painter, box, c, font);
        lastEnd = (m_frame.horizontal ? box.bottom() : box.right()) + 2.0;
    }
}

// Where category `c`'s label goes: beside a horizontal bar, or under a vertical one as wide
// as its widest word (labels wrap at spaces). Empty for an empty label.
QRectF BarChartView::categoryLabelBox(const Layout& l, int c, const QFont& font) const {
    const QString label =
        QString::fromStdString(m_frame.categories[static_cast<std::size_t>(c)].label);
    if (label.trimmed().isEmpty())
        return {};
    const double em = l.em;
    const QRectF lane = laneRect(l, c);
    const QFontMetricsF fm(font);
    if (m_frame.horizontal) {
        // As tall as the label wrapped to the column, centred on its bar.
        const double w = l.labels.width() - em * 0.5;
        const double h = wrappedHeight(font, label, w);
        return {l.labels.left(), lane.center().y() - h / 2, w, h};
    }
    double widest = 0;
    for (const QString& word : label.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        widest = std::max(widest, fm.horizontalAdvance(word));
    const double w = std::max(l.lane - 4, widest + 2);
    return {lane.center().x() - w / 2, l.labels.top() + em * 0.2, w, l.labels.height() - em * 0.2};
}

// The segments of category `c`, each with its value inside where it fits.
void BarChartView::drawSegments(QPainter& painter, const Layout& l, int c,
                                const QFont& valueFont) const {
    const bool horiz = m_frame.horizontal;
    const QFontMetricsF vm(valueFont);
    const BarCategory& cat = m_frame.categories[static_cast<std::size_t>(c)];
    // A bar of one segment already shows its value at its end.
    const auto parts = std::count_if(cat.segments.begin(), cat.segments.end(),
                                     [](const BarSegment& x) { return drawable(x.value) > 0; });
    for (int s = 0; s < static_cast<int>(cat.segments.size()); ++s) {
        const BarSegment& seg = cat.segments[static_cast<std::size_t>(s)];
        if (drawable(seg.value) <= 0)
            continue;
        const QRectF r = segmentRectIn(l, c, s);
        const QColor fill = seriesColor(seg.series);
        painter.fillRect(r, fill);
        if ((horiz ? r.width() : r.height()) >= 4.0) {
            painter.setPen(QPen(m_theme.background, 1.0));
            if (horiz)
                painter.drawLine(r.topLeft(), r.bottomLeft());
            else
                painter.drawLine(r.bottomLeft(), r.bottomRight());
        }
        const QString text = valueText(seg.value);
        if (parts > 1 && vm.horizontalAdvance(text) + 6 <= r.width() &&
            vm.height() + 2 <= r.height()) {
            painter.setFont(valueFont);
            painter.setPen(fill.lightnessF() > 0.6f ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white));
            painter.drawText(r, Qt::AlignCenter, text);
        }
    }
}

// The total at the end of category `c`'s bar, and the outline when it is the emphasised one.
// The tight box of the total drawTotal prints for category `c` (empty when it prints none).
QRectF BarChartView::totalTextRect(const Layout& l, int c) const {
    const double em = l.em;
    const QRectF lane = laneRect(l, c);
    const double sum = total(m_frame.categories[static_cast<std::size_t>(c)]);
    if (sum <= 0)
        return {};
    const QFontMetricsF fm(m_theme.fontAtPixels(em * 0.75));
    const double w = fm.horizontalAdvance(valueText(sum)) + 2;
    const double end = posOf(l, sum);
    if (m_frame.horizontal)
        return {end + em * 0.3, lane.center().y() - fm.height() / 2, w, fm.height()};
    if (w > l.lane)
        return {};
    return {lane.center().x() - w / 2, end - em * 0.1 - fm.height(), w, fm.height()};
}

void BarChartView::drawTotal(QPainter& painter, const Layout& l, int c,
                             const QFont& valueFont) const {
    const double em = l.em;
    const bool horiz = m_frame.horizontal;
    const QRectF lane = laneRect(l, c);
    const double sum = total(m_frame.categories[static_cast<std::size_t>(c)]);
    const double end = posOf(l, sum);
    painter.setFont(valueFont);
    painter.setPen(m_theme.foreground);
    if (sum > 0) {
        if (horiz)
            painter.drawText(QRectF(end + em * 0.3, lane.top(), em * 6, lane.height()),
                             Qt::AlignLeft | Qt::AlignVCenter, valueText(sum));
        else if (QFontMetricsF(valueFont).horizontalAdvance(valueText(sum)) <= l.lane - 2)
            // Only where it fits over its own bar; narrow bars give their total in the tip.
            painter.drawText(
                QRectF(lane.center().x() - l.lane / 2, end - em * 1.2, l.lane, em * 1.1),
                Qt::AlignHCenter | Qt::AlignBottom, valueText(sum));
    }
    const bool emphasised = c == m_frame.emphasis;
    if (emphasised && sum > 0) {
        const QRectF bar = horiz ? QRectF(lane.left(), lane.top(), end - lane.left(), lane.height())
                                 : QRectF(lane.left(), end, lane.width(), lane.bottom() - end);
        const double w = m_theme.lineWidth(2.5);
        painter.setPen(QPen(m_theme.accent, w));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(bar.adjusted(-w / 2, -w / 2, w / 2, w / 2));
    }
}

// The label of category `c` in `box` (from categoryLabelBox), in `lf` (bold for the
// emphasised bar).
void BarChartView::drawCategoryLabel(QPainter& painter, const QRectF& box, int c,
                                     const QFont& lf) const {
    painter.setFont(lf);
    painter.setPen(m_theme.foreground);
    const QString label =
        QString::fromStdString(m_frame.categories[static_cast<std::size_t>(c)].label);
    if (m_frame.horizontal) {
        // Wrapped to the label column, whole; drawBars skips a label that would meet the last.
        drawWrappedText(painter, box, lf, m_theme.foreground, label, Qt::AlignRight | Qt::AlignTop);
    } else {
        painter.drawText(box, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, label);
    }
}

// Axis baseline.
void BarChartView::drawAxisBaseline(QPainter& painter, const Layout& l) const {
    painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(1.0)));
    if (m_frame.horizontal)
        painter.drawLine(l.plot.topLeft(), l.plot.bottomLeft());
    else
        painter.drawLine(l.plot.bottomLeft(), l.plot.bottomRight());
}

// Reference lines (a GPU's HBM), dashed, each labelled on a plate.
void BarChartView::drawReferences(QPainter& painter, const Layout& l) const {
    const double em = l.em;
    const bool horiz = m_frame.horizontal;
    const QColor rc = referenceColor();
    // The bars, so a reference's plate can sit beside them rather than on one.
    std::vector<QRectF> taken;
    for (int c = 0; c < static_cast<int>(m_frame.categories.size()); ++c) {
        const QRectF lane = laneRect(l, c);
        const double end = posOf(l, total(m_frame.categories[static_cast<std::size_t>(c)]));
        taken.push_back(horiz ? QRectF(lane.left(), lane.top(), end - lane.left(), lane.height())
                              : QRectF(lane.left(), end, lane.width(), lane.bottom() - end));
        // ... and the total printed at its end (drawTotal's box).
        taken.push_back(
            horiz ? QRectF(end + em * 0.3, lane.top(), em * 6, lane.height())
                  : QRectF(lane.center().x() - l.lane / 2, end - em * 1.2, l.lane, em * 1.1));
    }
    for (const BarReference& ref : m_frame.references) {
        if (drawable(ref.value) <= 0)
            continue;
        const double p = posOf(l, ref.value);
        painter.setPen(QPen(rc, m_theme.lineWidth(2.0), Qt::DashLine));
        const QFont f = m_theme.fontAtPixels(em * 0.8, true);
        painter.setFont(f);
        const QString text = QString::fromStdString(ref.label);
        const QFontMetricsF fm(f);
        const double tw = fm.horizontalAdvance(text) + em * 0.6;
        const double th = std::max(em * 1.2, fm.height());
        // The line passes behind the printed totals, not through them: their text boxes are
        // clipped out (the bars themselves stay crossed, the limit must show where a bar
        // passes it).
        painter.save();
        QRegion clip(l.plot.toAlignedRect().adjusted(-2, -2, 2, 2));
        for (std::size_t i = 1; i < taken.size(); i += 2)
            clip -= QRegion(totalTextRect(l, static_cast<int>(i / 2)).toAlignedRect());
        painter.setClipRegion(clip);
        if (horiz)
            painter.drawLine(QPointF(p, l.plot.top()), QPointF(p, l.plot.bottom()));
        else
            painter.drawLine(QPointF(l.plot.left(), p), QPointF(l.plot.right(), p));
        painter.restore();
        painter.setFont(f);
        // Along the line from its far end, on either side of it: the first spot clear of
        // bars and of other plates; the far end above the line when none is.
        // Then the same a little farther off the line, joined to it by a leader.
        std::vector<QRectF> spots;
        const double run = horiz ? l.plot.height() : l.plot.width();
        for (int tier = 0; tier < 8; ++tier) {
            const double off = tier * (horiz ? tw * 0.6 : th * 1.2);
            for (double d = 0; d + (horiz ? th : tw) <= run + 0.5; d += (horiz ? th : tw) * 0.5) {
                if (horiz) {
                    const double y = l.plot.top() + d;
                    spots.emplace_back(p + em * 0.2 + off, y, tw, th);
                    spots.emplace_back(p - em * 0.2 - tw - off, y, tw, th);
                } else {
                    const double x = l.plot.right() - tw - d;
                    spots.emplace_back(x, p - em * 0.1 - th - off, tw, th);
                    if (tier == 0)
                        spots.emplace_back(x, p + em * 0.1, tw, th);
                }
            }
        }
        QRectF box = horiz
                         ? QRectF(std::min(p + em * 0.2, l.plot.right() - tw), l.plot.top(), tw, th)
                         : QRectF(l.plot.right() - tw, p - em * 0.1 - th, tw, th);
        for (const QRectF& spot : spots) {
            const bool inside = l.plot.adjusted(-1, -em * 1.4, 1, 1).contains(spot);
            const bool clear = std::none_of(taken.begin(), taken.end(),
                                            [&](const QRectF& t) { return t.intersects(spot); });
            if (inside && clear) {
                box = spot;
                break;
            }
        }
        taken.push_back(box);
        // A plate away from its line gets a leader back to it.
        const QPointF mid = box.center();
        if (horiz ? std::abs(mid.x() - p) > tw : std::abs(mid.y() - p) > th) {
            painter.setPen(QPen(rc, 1.0));
            painter.drawLine(horiz ? QPointF(p, mid.y()) : QPointF(mid.x(), p),
                             horiz ? QPointF(mid.x() < p ? box.right() : box.left(), mid.y())
                                   : QPointF(mid.x(), mid.y() < p ? box.bottom() : box.top()));
        }
        painter.fillRect(box, m_theme.background);
        painter.setPen(rc);
        painter.drawText(box, Qt::AlignCenter, text);
    }
}

} // namespace wb
