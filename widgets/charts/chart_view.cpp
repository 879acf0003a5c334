#include "charts/chart_view.h"

#include "engine/number_format.h"
#include "text/text_layout.h"

#include <QChart>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

namespace wb {

namespace {

// Smallest positive value a log axis is allowed to start at when the frame asks for <= 0.
double logMin(const ChartAxis& spec) {
    if (spec.min > 0.0) {
        return spec.min;
    }
    return spec.max > 0.0 ? spec.max / 1e3 : 1.0;
}

// Tick labels keep this many body sizes from the plot's edge: clear of an emphasised marker
// dot (1.25 body sizes across) sitting on an axis.
constexpr double kTickGap = 0.75;

// A 1-2-5 step giving about five labelled ticks over `span`.
double niceStep(double span) {
    if (!(span > 0.0) || !std::isfinite(span)) {
        return 1.0;
    }
    const double raw = span / 5.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double fraction = raw / magnitude;
    const double nice =
        fraction < 1.5 ? 1.0 : (fraction < 3.5 ? 2.0 : (fraction < 7.5 ? 5.0 : 10.0));
    return nice * magnitude;
}

// A log axis drops a whole series that has a point <= 0, so such points are left out.
QList<QPointF> plottable(const std::vector<ChartPoint>& points, const ChartFrame& frame) {
    QList<QPointF> out;
    out.reserve(static_cast<qsizetype>(points.size()));
    for (const ChartPoint& p : points) {
        if ((frame.x.log && p.x <= 0.0) || (frame.y.log && p.y <= 0.0)) {
            continue;
        }
        out.append(QPointF(p.x, p.y));
    }
    return out;
}

void hideFromLegend(QChart* chart, QAbstractSeries* series, bool hide) {
    for (QLegendMarker* marker : chart->legend()->markers(series)) {
        marker->setVisible(!hide);
    }
}

} // namespace

ChartView::ChartView(QWidget* parent)
    : QChartView(parent) {
    auto* chart = new QChart();
    chart->setAnimationOptions(QChart::NoAnimation); // exports must be byte-identical
    chart->setBackgroundRoundness(0.0);
    chart->setPlotAreaBackgroundVisible(false);
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // shows dashed as dashed
    setChart(chart);
    setRenderHint(QPainter::Antialiasing, true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    chart->legend()->setVisible(false); // drawn by drawForeground, wrapped, never elided
    m_xAxes = makeAxes(Qt::AlignBottom);
    m_yAxes = makeAxes(Qt::AlignLeft);
    m_axisX = m_xAxes.linear;
    m_axisY = m_yAxes.linear;
    setTheme(m_theme);
}

QString ChartView::markerLabel(const ChartMarker& marker) {
    QString label = QString::fromStdString(marker.label);
    if (marker.estimate) {
        label += label.isEmpty() ? tr("(est.)") : QStringLiteral(" ") + tr("(est.)");
    }
    return label;
}

void ChartView::setFrame(const ChartFrame& frame) {
    if (m_hasFrame && frame == m_frame) {
        return;
    }
    m_frame = frame;
    m_hasFrame = true;
    ++m_frameUpdates;
    m_axisX = syncAxis(m_xAxes, m_axisX, m_frame.x);
    m_axisY = syncAxis(m_yAxes, m_axisY, m_frame.y);
    syncLines();
    syncMarkers();
    reserveTextRoom();
    settle();
    viewport()->update();
}

void ChartView::setTheme(const Theme& theme) {
    m_theme = theme;
    QChart* c = chart();
    // The view paints the background (see drawBackground), so the chart's stays off.
    c->setBackgroundVisible(false);
    m_type = TypeScale::forSlide(m_type.slideHeight(), theme.fontScale);
    m_theme.minimumPx = m_type.floor();
    QPalette p = palette();
    p.setColor(QPalette::Window, theme.background);
    p.setColor(QPalette::Base, theme.background);
    setPalette(p);
    setBackgroundBrush(theme.background);
    styleAxes();
    styleLines();
    applyFonts(); // also restyles markers, whose size follows the type size
    settle();
}

void ChartView::setTypeScale(const TypeScale& scale) {
    if (scale == m_type)
        return;
    m_type = scale;
    m_theme.minimumPx = m_type.floor();
    applyFonts();
    settle();
}

ChartView::AxisPair ChartView::makeAxes(Qt::Alignment side) {
    AxisPair pair;
    pair.linear = new QValueAxis();
    pair.linear->setLabelFormat(QStringLiteral("%g"));
    pair.linear->setTickType(QValueAxis::TicksDynamic);
    pair.log = new QLogValueAxis();
    pair.log->setBase(10.0);
    pair.log->setLabelFormat(QStringLiteral("%g"));
    pair.log->setMinorTickCount(0); // the minor grid is drawn by drawBackground
    pair.log->setMinorGridLineVisible(false);
    pair.log->setVisible(false);
    for (QAbstractAxis* axis :
         {static_cast<QAbstractAxis*>(pair.linear), static_cast<QAbstractAxis*>(pair.log)}) {
        // Tick numbers and titles are drawn by drawForeground in human units.
        axis->setLabelsVisible(false);
        axis->setTitleVisible(false);
    }
    chart()->addAxis(pair.linear, side);
    chart()->addAxis(pair.log, side);
    return pair;
}

QAbstractAxis* ChartView::syncAxis(const AxisPair& pair, QAbstractAxis* active,
                                   const ChartAxis& spec) {
    QAbstractAxis* wanted = spec.log ? static_cast<QAbstractAxis*>(pair.log) : pair.linear;
    if (wanted != active) {
        for (QLineSeries* s : m_lines) {
            s->detachAxis(active);
            s->attachAxis(wanted);
        }
        for (QScatterSeries* s : m_markers) {
            s->detachAxis(active);
            s->attachAxis(wanted);
        }
        active->setVisible(false);
        wanted->setVisible(true);
    }
    wanted->setTitleText(QString::fromStdString(spec.title));
    if (spec.log) {
        const double lo = logMin(spec);
        pair.log->setRange(lo, std::max(spec.max, lo * 10.0));
    } else {
        const double hi = spec.max > spec.min ? spec.max : spec.min + 1.0;
        const double step = niceStep(hi - spec.min);
        pair.linear->setRange(spec.min, hi);
        pair.linear->setTickAnchor(std::ceil(spec.min / step) * step);
        pair.linear->setTickInterval(step);
    }
    return wanted;
}

void ChartView::syncLines() {
    const std::size_t wanted = m_frame.series.size();
    while (m_lines.size() > wanted) {
        chart()->removeSeries(m_lines.back());
        delete m_lines.back();
        m_lines.pop_back();
    }
    while (m_lines.size() < wanted) {
        auto* s = new QLineSeries();
        chart()->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
        m_lines.push_back(s);
    }
    for (std::size_t i = 0; i < wanted; ++i) {
        const ChartSeries& spec = m_frame.series[i];
        m_lines[i]->setName(QString::fromStdString(spec.name));
        m_lines[i]->replace(plottable(spec.points, m_frame));
    }
    styleLines();
}

void ChartView::syncMarkers() {
    const std::size_t wanted = m_frame.markers.size();
    while (m_markers.size() > wanted) {
        chart()->removeSeries(m_markers.back());
        delete m_markers.back();
        m_markers.pop_back();
    }
    while (m_markers.size() < wanted) {
        auto* s = new QScatterSeries();
        chart()->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
        const std::size_t index = m_markers.size();
        connect(s, &QXYSeries::hovered, this, [this, index](const QPointF&, bool entered) {
            if (entered && index < m_frame.markers.size()) {
                QToolTip::showText(QCursor::pos(),
                                   QString::fromStdString(m_frame.markers[index].tooltip), this);
            } else {
                QToolTip::hideText();
            }
        });
        m_markers.push_back(s);
    }
    for (std::size_t i = 0; i < wanted; ++i) {
        const ChartMarker& spec = m_frame.markers[i];
        m_markers[i]->replace(plottable({spec.at}, m_frame));
        // A format without @xPoint/@yPoint is printed as is: the marker's own label.
        m_markers[i]->setPointLabelsFormat(markerLabel(spec));
    }
    styleMarkers();
}

std::vector<QAbstractAxis*> ChartView::allAxes() const {
    std::vector<QAbstractAxis*> out;
    for (const AxisPair* pair : {&m_xAxes, &m_yAxes}) {
        if (pair->linear != nullptr) {
            out.push_back(pair->linear);
            out.push_back(pair->log);
        }
    }
    return out;
}

void ChartView::styleAxes() {
    const double grid = m_theme.lineWidth(1.0);
    QColor minor = m_theme.grid;
    minor.setAlphaF(0.25f);
    for (QAbstractAxis* axis : allAxes()) {
        axis->setLabelsBrush(m_theme.foreground);
        axis->setTitleBrush(m_theme.muted);
        axis->setGridLinePen(QPen(m_theme.grid, grid));
        axis->setMinorGridLinePen(QPen(minor, grid));
        axis->setLinePen(QPen(m_theme.muted, grid));
    }
}

void ChartView::styleLines() {
    const double scale = m_theme.highContrast ? 1.4 : 1.0;
    for (std::size_t i = 0; i < m_lines.size() && i < m_frame.series.size(); ++i) {
        const ChartSeries& spec = m_frame.series[i];
        QColor colour = m_theme.seriesColor(spec.colorIndex);
        QPen pen(colour, 2.5 * scale, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        if (spec.style == ChartSeries::Style::Dashed) {
            pen.setStyle(Qt::DashLine);
            pen.setCapStyle(Qt::FlatCap);
        } else if (spec.style == ChartSeries::Style::Faint) {
            colour.setAlphaF(0.45f);
            pen.setColor(colour);
            pen.setWidthF(1.5 * scale);
        }
        m_lines[i]->setPen(pen);
        hideFromLegend(chart(), m_lines[i], spec.name.empty());
    }
}

void ChartView::styleMarkers() {
    const double base = basePx();
    for (std::size_t i = 0; i < m_markers.size() && i < m_frame.markers.size(); ++i) {
        const ChartMarker& spec = m_frame.markers[i];
        QScatterSeries* s = m_markers[i];
        const QColor colour = m_theme.seriesColor(spec.colorIndex);
        s->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        s->setMarkerSize(base * (spec.emphasis ? 1.25 : 0.85));
        if (spec.estimate) {
            // Hollow: the value is a model's estimate, not a measurement.
            s->setBrush(m_theme.background);
            s->setPen(QPen(colour, m_theme.lineWidth(2.5)));
        } else {
            s->setBrush(colour);
            s->setPen(QPen(m_theme.background, m_theme.lineWidth(1.5)));
        }
        // The label is placed by drawForeground (LabelPlacer), so labels never overlap.
        s->setPointLabelsVisible(false);
        hideFromLegend(chart(), s, true);
    }
}

double ChartView::basePx() const {
    // Chosen by reserveTextRoom: the slide's body size, less in a small panel, never under
    // the floor.
    return m_basePx > 0 ? m_basePx : m_type.px(TextRole::Body);
}

QFont ChartView::textFont(double px, bool bold) const {
    return m_theme.fontAtPixels(px, bold); // floored by the theme's minimumPx
}

void ChartView::applyFonts() {
    reserveTextRoom();
    styleMarkers();
}

QString ChartView::tickText(double value, const std::string& axisTitle) {
    // The unit is the title's last parenthesis: "message size (B)" -> "B".
    std::string unit;
    const auto open = axisTitle.rfind('(');
    const auto close = axisTitle.rfind(')');
    if (open != std::string::npos && close != std::string::npos && close > open)
        unit = axisTitle.substr(open + 1, close - open - 1);
    if (unit == "B")
        return QString::fromStdString(formatBytes(value));
    // Times read as times whatever unit the axis counts in: "10 ms", "1 s", "100 µs".
    static const std::map<std::string, double> kSeconds{
        {"s", 1.0}, {"ms", 1e-3}, {"\u00b5s", 1e-6}, {"us", 1e-6}, {"ns", 1e-9}};
    if (const auto it = kSeconds.find(unit); it != kSeconds.end())
        return QString::fromStdString(formatSi(value * it->second, "s"));
    // From a thousand up and below a hundredth, SI prefixes: "10 k", "1 M", "5 m" (so one
    // axis never mixes "1000" with "10 k").
    const double a = std::abs(value);
    if (a >= 1e3 || (a > 0 && a < 1e-2))
        return QString::fromStdString(formatSi(value, ""));
    return QString::fromStdString(formatSignificant(value, 3));
}

std::vector<ChartView::Tick> ChartView::ticks(bool xAxis) const {
    std::vector<Tick> out;
    if (!m_hasFrame)
        return out;
    const ChartAxis& spec = xAxis ? m_frame.x : m_frame.y;
    const AxisPair& pair = xAxis ? m_xAxes : m_yAxes;
    if (spec.log) {
        const double lo = pair.log->min(), hi = pair.log->max();
        if (!(lo > 0) || !(hi > lo))
            return out;
        const int first = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
        const int last = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
        // At most about eight labels: every 2nd or 3rd decade on a very wide axis.
        const int stride = std::max(1, (last - first) / 8 + 1);
        for (int k = first; k <= last; k += stride) {
            const double v = std::pow(10.0, k);
            out.push_back({v, tickText(v, spec.title)});
        }
        return out;
    }
    const double lo = pair.linear->min(), hi = pair.linear->max();
    const double step = pair.linear->tickInterval();
    if (!(step > 0) || !(hi > lo) || (hi - lo) / step > 50)
        return out;
    for (double v = pair.linear->tickAnchor(); v <= hi + step * 1e-6; v += step) {
        if (v >= lo - step * 1e-6)
            out.push_back({std::abs(v) < step * 1e-9 ? 0.0 : v,
                           tickText(std::abs(v) < step * 1e-9 ? 0.0 : v, spec.title)});
    }
    return out;
}

std::vector<LegendEntry> ChartView::legendEntries() const {
    std::vector<LegendEntry> out;
    for (std::size_t i = 0; i < m_frame.series.size() && i < m_lines.size(); ++i) {
        if (m_frame.series[i].name.empty())
            continue;
        LegendEntry e;
        e.line = m_lines[i]->pen();
        e.text = QString::fromStdString(m_frame.series[i].name);
        out.push_back(e);
    }
    return out;
}

ChartView::TextRoom ChartView::textRoomAt(double base) const {
    TextRoom r;
    const double pad = base * 0.6;
    const double w = std::max(1.0, width() - 2.0 * pad);
    const QFontMetricsF tm(textFont(base * 0.8));
    const QFont axisFont = textFont(base * 0.85);
    double top =
        pad + wrappedHeight(textFont(base * 1.2, true), QString::fromStdString(m_frame.title), w);
    const std::vector<LegendEntry> legend = legendEntries();
    if (!legend.empty())
        top += base * 0.4 + layoutLegend(legend, textFont(base * 0.85), w).height;
    r.top = top + base * 0.6 + tm.height() / 2.0;
    const double xTitleH = wrappedHeight(axisFont, QString::fromStdString(m_frame.x.title), w);
    const double footH =
        wrappedHeight(textFont(base * 0.75), QString::fromStdString(m_frame.footnote), w);
    r.bottom = pad + tm.height() * 1.0 + base * kTickGap + xTitleH +
               (footH > 0 ? base * 0.4 + footH : 0.0);
    double yTickW = 0;
    for (const Tick& t : ticks(false))
        yTickW = std::max(yTickW, tm.horizontalAdvance(t.text));
    const double plotH = std::max(1.0, height() - r.top - r.bottom);
    r.yTitleWidth = plotH;
    const double yTitleH = wrappedHeight(axisFont, QString::fromStdString(m_frame.y.title), plotH);
    r.left = pad + yTitleH + base * 0.5 + yTickW + base * kTickGap;
    double lastXTick = 0;
    if (const std::vector<Tick> xt = ticks(true); !xt.empty())
        lastXTick = tm.horizontalAdvance(xt.back().text);
    r.right = pad + lastXTick / 2.0;
    return r;
}

void ChartView::reserveTextRoom() {
    // The slide's body size, smaller while the texts would leave the plot less than 40 % of
    // the view, down to the floor. Qt Charts will not shrink a chart below its margins, so
    // margins that do not fit would push the plot out of the view.
    const double side = std::min(width(), height());
    double base = std::max(m_type.floor(), std::min(m_type.px(TextRole::Body), side / 18.0));
    TextRoom room = textRoomAt(base);
    while (base > m_type.floor() &&
           (room.top + room.bottom > height() * 0.6 || room.left + room.right > width() * 0.6)) {
        base = std::max(m_type.floor(), base * 0.92);
        room = textRoomAt(base);
    }
    m_basePx = base;
    // Even at the floor the margins may not fit a tiny view; they are capped so the chart
    // never grows past its view (the texts then overflow, and the lint reports them).
    const auto cap = [](double& a, double& b, double limit) {
        if (a + b > limit && a + b > 0) {
            const double k = limit / (a + b);
            a *= k;
            b *= k;
        }
    };
    cap(room.top, room.bottom, height() * 0.8);
    cap(room.left, room.right, width() * 0.8);
    chart()->setTitle(QString());
    chart()->setMargins(QMargins(
        static_cast<int>(std::ceil(room.left)), static_cast<int>(std::ceil(room.top)),
        static_cast<int>(std::ceil(room.right)), static_cast<int>(std::ceil(room.bottom))));
}

std::vector<LabelPlacement> ChartView::markerLabels() const {
    std::vector<LabelPlacement> out(m_frame.markers.size());
    if (!m_hasFrame || m_markers.empty())
        return out;
    QChart* c = chart();
    const QRectF plot = c->mapRectToScene(c->plotArea());
    const double base = basePx();
    LabelPlacer placer(plot);
    const auto toScene = [&](QAbstractSeries* series, const QPointF& value) {
        return c->mapToScene(c->mapToPosition(value, series));
    };
    // The curves and the marker dots are obstacles: a label never sits on a line.
    const double reach = base * 0.25;
    for (QLineSeries* line : m_lines) {
        const QList<QPointF> pts = line->points();
        for (qsizetype i = 1; i < pts.size(); ++i) {
            const QPointF a = toScene(line, pts[i - 1]), b = toScene(line, pts[i]);
            const double len = std::hypot(b.x() - a.x(), b.y() - a.y());
            const int pieces = std::clamp(static_cast<int>(len / base) + 1, 1, 400);
            for (int k = 0; k < pieces; ++k) {
                const QPointF p = a + (b - a) * (double(k) / pieces);
                const QPointF q = a + (b - a) * (double(k + 1) / pieces);
                placer.addObstacle(
                    QRectF(p, q).normalized().adjusted(-reach, -reach, reach, reach));
            }
        }
    }
    std::vector<QRectF> dots(m_frame.markers.size());
    for (std::size_t i = 0; i < m_frame.markers.size() && i < m_markers.size(); ++i) {
        const QList<QPointF> pts = m_markers[i]->points();
        if (pts.isEmpty())
            continue;
        const QPointF at = toScene(m_markers[i], pts.front());
        const double r = m_markers[i]->markerSize() / 2.0;
        dots[i] = QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r);
        placer.addMark(dots[i]);
    }
    // Emphasised markers choose first, then the rest in the frame's order.
    std::vector<std::size_t> order(m_frame.markers.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return m_frame.markers[a].emphasis && !m_frame.markers[b].emphasis;
    });
    for (std::size_t i : order) {
        if (!dots[i].isValid())
            continue;
        const QString text = markerLabel(m_frame.markers[i]);
        if (text.isEmpty())
            continue;
        const QFontMetricsF fm(textFont(base * 0.85, m_frame.markers[i].emphasis));
        out[i] =
            placer.place(QSizeF(fm.horizontalAdvance(text), fm.height()), dots[i], base * 0.25);
    }
    return out;
}

void ChartView::drawForeground(QPainter* painter, const QRectF& /*rect*/) {
    if (!m_hasFrame)
        return;
    painter->save();
    painter->setRenderHint(QPainter::TextAntialiasing, true);
    const double base = basePx();
    const double pad = base * 0.6;
    const double w = std::max(1.0, width() - 2.0 * pad);
    QChart* c = chart();
    const QRectF plot = c->mapRectToScene(c->plotArea());

    double y = pad;
    y += drawWrappedText(*painter, QRectF(pad, y, w, 0), textFont(base * 1.2, true),
                         m_theme.foreground, QString::fromStdString(m_frame.title));
    if (const std::vector<LegendEntry> legend = legendEntries(); !legend.empty()) {
        const QFont legendFont = textFont(base * 0.85);
        y += base * 0.4;
        drawLegend(*painter, QPointF(pad, y), layoutLegend(legend, legendFont, w), legend,
                   m_theme.foreground);
    }

    const QFont tickFont = textFont(base * 0.8);
    const QFontMetricsF tm(tickFont);
    painter->setFont(tickFont);
    painter->setPen(m_theme.foreground);
    QAbstractSeries* any = !m_lines.empty()     ? static_cast<QAbstractSeries*>(m_lines.front())
                           : !m_markers.empty() ? static_cast<QAbstractSeries*>(m_markers.front())
                                                : nullptr;
    if (any != nullptr) {
        const double yAt = m_frame.y.log ? m_yAxes.log->min() : m_yAxes.linear->min();
        // A label that would touch the one before it is skipped: a short plot keeps every
        // other tick labelled rather than a pile of digits.
        double lastRight = -1e9;
        for (const Tick& t : ticks(true)) {
            const double x = c->mapToScene(c->mapToPosition(QPointF(t.value, yAt), any)).x();
            const double tw = tm.horizontalAdvance(t.text);
            if (x - tw / 2.0 < lastRight + base * 0.5)
                continue;
            lastRight = x + tw / 2.0;
            painter->drawText(QPointF(x - tw / 2.0, plot.bottom() + base * kTickGap + tm.ascent()),
                              t.text);
        }
        const double xAt = m_frame.x.log ? m_xAxes.log->min() : m_xAxes.linear->min();
        double lastTop = 1e9;
        for (const Tick& t : ticks(false)) {
            const double ty = c->mapToScene(c->mapToPosition(QPointF(xAt, t.value), any)).y();
            const double tw = tm.horizontalAdvance(t.text);
            if (ty + tm.height() / 2.0 > lastTop)
                continue; // ticks run bottom to top
            lastTop = ty - tm.height() / 2.0;
            painter->drawText(
                QPointF(plot.left() - base * kTickGap - tw, ty - tm.height() / 2.0 + tm.ascent()),
                t.text);
        }
    }

    // Axis titles: x below its ticks, y turned along the left edge; both wrap.
    const QFont axisFont = textFont(base * 0.85);
    const double xTitleTop = plot.bottom() + base * kTickGap + tm.height();
    drawWrappedText(*painter, QRectF(pad, xTitleTop, w, 0), axisFont, m_theme.muted,
                    QString::fromStdString(m_frame.x.title), Qt::AlignHCenter | Qt::AlignTop);
    {
        const WrappedText yTitle = wrapText(axisFont, QString::fromStdString(m_frame.y.title),
                                            textRoomAt(base).yTitleWidth);
        painter->save();
        painter->translate(pad, plot.bottom());
        painter->rotate(-90);
        drawWrapped(*painter, QRectF(0, 0, plot.height(), yTitle.height()), yTitle, m_theme.muted,
                    Qt::AlignHCenter | Qt::AlignTop);
        painter->restore();
    }
    const QFont footFont = textFont(base * 0.75);
    const WrappedText foot = wrapText(footFont, QString::fromStdString(m_frame.footnote), w);
    drawWrapped(*painter, QRectF(pad, height() - pad - foot.height(), w, foot.height()), foot,
                m_theme.muted);

    const std::vector<LabelPlacement> labels = markerLabels();
    for (std::size_t i = 0; i < labels.size() && i < m_frame.markers.size(); ++i) {
        const ChartMarker& spec = m_frame.markers[i];
        drawPlacedLabel(*painter, labels[i], textFont(base * 0.85, spec.emphasis),
                        spec.emphasis ? m_theme.foreground : m_theme.muted, m_theme.muted,
                        markerLabel(spec));
    }
    painter->restore();
}

QPointF ChartView::mapToView(const ChartPoint& point) {
    QAbstractSeries* series = nullptr;
    if (!m_lines.empty()) {
        series = m_lines.front();
    } else if (!m_markers.empty()) {
        series = m_markers.front();
    }
    const QPointF inChart = chart()->mapToPosition(QPointF(point.x, point.y), series);
    return mapFromScene(chart()->mapToScene(inChart));
}

void ChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    // QChartView makes the chart's minimum its own, which would keep a view that was once
    // small (margins for big type) from taking the size the stage gives it.
    setMinimumSize(0, 0);
    applyFonts();
    settle();
}

void ChartView::drawBackground(QPainter* painter, const QRectF& rect) {
    painter->fillRect(rect, m_theme.background);
    if (!m_hasFrame)
        return;
    const QRectF plot = chart()->mapRectToScene(chart()->plotArea());
    QVector<QLineF> lines;
    // Positions of 2…9 × 10^k inside [lo, hi], as fractions of the axis length.
    auto minorFractions = [](double lo, double hi, auto visit) {
        const double span = std::log10(hi) - std::log10(lo);
        if (!(lo > 0.0) || !(span > 0.0) || span > 40.0)
            return;
        for (int k = static_cast<int>(std::floor(std::log10(lo)));
             k <= static_cast<int>(std::ceil(std::log10(hi))); ++k) {
            for (int m = 2; m <= 9; ++m) {
                const double v = m * std::pow(10.0, k);
                if (v > lo && v < hi)
                    visit((std::log10(v) - std::log10(lo)) / span);
            }
        }
    };
    if (m_frame.x.log) {
        const auto* axis = m_xAxes.log;
        minorFractions(axis->min(), axis->max(), [&](double f) {
            const double x = plot.left() + f * plot.width();
            lines.append(QLineF(x, plot.top(), x, plot.bottom()));
        });
    }
    if (m_frame.y.log) {
        const auto* axis = m_yAxes.log;
        minorFractions(axis->min(), axis->max(), [&](double f) {
            const double y = plot.bottom() - f * plot.height();
            lines.append(QLineF(plot.left(), y, plot.right(), y));
        });
    }
    if (lines.isEmpty())
        return;
    // An opaque colour between grid and background: blending alpha down a 1000-pixel
    // line is what made the stock minor grid slow.
    const QColor minor = mixColors(m_theme.grid, m_theme.background, 0.65);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(QPen(minor, 0)); // cosmetic: one device pixel at any scale
    painter->drawLines(lines);
    painter->restore();
}

void ChartView::settle() {
    // Qt Charts lays out on a posted event; an export that renders right after a change
    // (no event loop in between) would otherwise draw stale or empty axes and labels.
    if (QGraphicsLayout* layout = chart()->layout()) {
        layout->invalidate();
        layout->activate();
    }
}

} // namespace wb
