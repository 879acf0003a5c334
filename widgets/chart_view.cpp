#include "chart_view.h"

#include <QChart>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// Smallest positive value a log axis is allowed to start at when the frame asks for <= 0.
double logMin(const ChartAxis& spec) {
    if (spec.min > 0.0) {
        return spec.min;
    }
    return spec.max > 0.0 ? spec.max / 1e3 : 1.0;
}

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
    m_footnote = new QGraphicsSimpleTextItem(chart);
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
    chart()->setTitle(QString::fromStdString(m_frame.title));
    placeFootnote();
    settle();
}

void ChartView::setTheme(const Theme& theme) {
    m_theme = theme;
    QChart* c = chart();
    // The view paints the background (see drawBackground), so the chart's stays off.
    c->setBackgroundVisible(false);
    c->setTitleBrush(theme.foreground);
    c->legend()->setLabelColor(theme.foreground);
    m_footnote->setBrush(theme.muted);
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
    const bool named = std::any_of(m_frame.series.begin(), m_frame.series.end(),
                                   [](const ChartSeries& s) { return !s.name.empty(); });
    chart()->legend()->setVisible(named);
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
        s->setPointLabelsVisible(true);
        s->setPointLabelsClipping(false);
        s->setPointLabelsColor(spec.emphasis ? m_theme.foreground : m_theme.muted);
        QFont font = m_theme.fontAtPixels(base * 0.85, spec.emphasis);
        s->setPointLabelsFont(font);
        hideFromLegend(chart(), s, true);
    }
}

double ChartView::basePx() const {
    // Type follows the view's size so a 1080p export and a small panel both read well.
    const double side = std::min(width(), height());
    return std::clamp(side / 26.0, 11.0, 22.0) * m_theme.fontScale;
}

void ChartView::applyFonts() {
    const double base = basePx();
    QChart* c = chart();
    c->setTitleFont(m_theme.fontAtPixels(base * 1.2, true));
    c->legend()->setFont(m_theme.fontAtPixels(base * 0.85));
    for (QAbstractAxis* axis : allAxes()) {
        axis->setLabelsFont(m_theme.fontAtPixels(base * 0.8));
        axis->setTitleFont(m_theme.fontAtPixels(base * 0.85));
    }
    styleMarkers();
    m_footnote->setFont(m_theme.fontAtPixels(base * 0.75));
    placeFootnote();
}

void ChartView::placeFootnote() {
    const QString text = QString::fromStdString(m_frame.footnote);
    const double base = basePx();
    const int margin = static_cast<int>(std::lround(base * 0.6));
    const QFontMetricsF metrics(m_footnote->font());
    const double lineH = text.isEmpty() ? 0.0 : metrics.height();
    chart()->setMargins(
        QMargins(margin, margin, margin, margin + static_cast<int>(std::ceil(lineH))));
    m_footnote->setText(metrics.elidedText(text, Qt::ElideRight, width() - 2.0 * margin));
    m_footnote->setPos(margin, height() - margin * 0.6 - lineH);
    m_footnote->setVisible(!text.isEmpty());
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
