#include "traces/step_heatmap_panel.h"

#include "analysis/trace_analysis.h"
#include "engine/number_format.h"
#include "engine/sentence.h"

#include <QComboBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLinearGradient>
#include <algorithm>
#include <cmath>
#include <limits>

namespace wb {

namespace {

// The map's values: ranks in the analysis's order, steps by number over every rank.
struct HmGrid {
    std::vector<long> ranks;
    std::vector<long> steps;
    std::vector<std::vector<double>> value; // [rank][step]; NaN where a rank lacks the step
    double lo = 0.0, hi = 0.0;
};

double hmValue(const StepFigures& s, HeatMetric metric) {
    switch (metric) {
    case HeatMetric::StepTime:
        return s.stepUs;
    case HeatMetric::Compute:
        return s.figures.computeUs;
    case HeatMetric::Wait:
        return s.figures.waitUs;
    }
    return s.stepUs;
}

HmGrid hmGrid(const TraceAnalysis& a, HeatMetric metric) {
    HmGrid g;
    for (const RankBreakdown& r : a.perRank)
        for (const StepFigures& s : r.steps)
            g.steps.push_back(s.step.number);
    std::sort(g.steps.begin(), g.steps.end());
    g.steps.erase(std::unique(g.steps.begin(), g.steps.end()), g.steps.end());
    g.lo = std::numeric_limits<double>::max();
    g.hi = std::numeric_limits<double>::lowest();
    for (const RankBreakdown& r : a.perRank) {
        g.ranks.push_back(r.whole.rank);
        auto& row = g.value.emplace_back(g.steps.size(), std::nan(""));
        for (const StepFigures& s : r.steps) {
            const auto k =
                std::lower_bound(g.steps.begin(), g.steps.end(), s.step.number) - g.steps.begin();
            const double v = hmValue(s, metric);
            row[static_cast<std::size_t>(k)] = v;
            g.lo = std::min(g.lo, v);
            g.hi = std::max(g.hi, v);
        }
    }
    if (g.lo > g.hi)
        g.lo = g.hi = 0.0;
    return g;
}

QString hmDuration(double us) {
    return QString::fromStdString(formatSi(us * 1e-6, "s", 4));
}

const char* hmMetricName(HeatMetric m) {
    switch (m) {
    case HeatMetric::StepTime:
        return "step time";
    case HeatMetric::Compute:
        return "compute";
    case HeatMetric::Wait:
        return "wait in collectives";
    }
    return "step time";
}

// The thinnest band of the map: a single slow rank among thousands stays this tall.
constexpr double kHeatBandPx = 3.0;

// Labels every k-th rank, k from 1, 2, 5, 10, 20, 50, ... so that labels `spacing` apart fit.
std::size_t hmLabelStride(double rowH, double spacing) {
    for (std::size_t k = 1;; k *= 10)
        for (const std::size_t m : {1u, 2u, 5u})
            if (static_cast<double>(k * m) * rowH >= spacing)
                return k * m;
}

} // namespace

StepHeatmapPanel::StepHeatmapPanel(QWidget* parent)
    : TracePanel(parent) {
    m_choice = new QComboBox(this);
    for (const HeatMetric m : {HeatMetric::Compute, HeatMetric::StepTime, HeatMetric::Wait})
        m_choice->addItem(tr(hmMetricName(m)), static_cast<int>(m));
    toolRow()->insertWidget(toolRow()->count() - 1, m_choice);
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this](int index) {
        setMetric(static_cast<HeatMetric>(m_choice->itemData(index).toInt()));
    });
}

void StepHeatmapPanel::setMetric(HeatMetric metric) {
    m_metric = metric;
    const int index = m_choice->findData(static_cast<int>(metric));
    if (index != m_choice->currentIndex())
        m_choice->setCurrentIndex(index);
    surface()->update();
}

QColor StepHeatmapPanel::heatColour(double t) {
    // ColorBrewer's RdYlBu ends and middle: blue (least), pale yellow, red (most). Readable
    // on the light and the dark background alike, and hot means slow.
    static const QColor stops[3] = {QColor(0x2c, 0x7b, 0xb6), QColor(0xff, 0xff, 0xbf),
                                    QColor(0xd7, 0x19, 0x1c)};
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0);
    return t < 0.5 ? mixColors(stops[0], stops[1], 2 * t)
                   : mixColors(stops[1], stops[2], 2 * t - 1);
}

void StepHeatmapPanel::drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const {
    const HmGrid g = hmGrid(analysis, m_metric);
    const Theme& theme = canvas.theme();
    QPainter& p = canvas.painter();
    canvas.paragraph(
        QString::fromStdString(fill(
            "%1 per rank and ProfilerStep, %2 × %3. Every rank's step lasts as long as the "
            "slowest's (the collectives wait for it), so compute points at a straggler and wait "
            "shows what the others pay.",
            {hmMetricName(m_metric),
             formatCount(static_cast<long long>(g.ranks.size()), "rank", "ranks"),
             formatCount(static_cast<long long>(g.steps.size()), "step", "steps")})),
        TextRole::Label, true);
    if (g.ranks.empty() || g.steps.empty())
        return;

    // Legend: "least [gradient] most" in the values' unit.
    const QFont font = canvas.font(TextRole::Label);
    const QFontMetricsF fm(font);
    const double line = fm.lineSpacing();
    p.setFont(font);
    p.setPen(theme.foreground);
    const QString lo = hmDuration(g.lo), hi = hmDuration(g.hi);
    const double loW = fm.horizontalAdvance(lo), hiW = fm.horizontalAdvance(hi);
    const double gradW =
        std::min(16.0 * line, std::max(4.0 * line, canvas.width() - loW - hiW - 2 * line));
    double x = canvas.left();
    p.drawText(QRectF(x, canvas.y(), loW + 1, line), Qt::AlignLeft | Qt::AlignVCenter, lo);
    x += loW + 0.5 * line;
    QLinearGradient grad(QPointF(x, 0), QPointF(x + gradW, 0));
    for (const double t : {0.0, 0.25, 0.5, 0.75, 1.0})
        grad.setColorAt(t, heatColour(t));
    p.fillRect(QRectF(x, canvas.y() + 0.2 * line, gradW, 0.6 * line), grad);
    x += gradW + 0.5 * line;
    p.setPen(theme.foreground);
    p.drawText(QRectF(x, canvas.y(), hiW + 1, line), Qt::AlignLeft | Qt::AlignVCenter, hi);
    canvas.setY(canvas.y() + 1.6 * line);

    // Geometry: rank labels on the left, step labels on top, candidates named on the right.
    double labelW = 0.0;
    for (const long r : {g.ranks.front(), g.ranks.back()})
        labelW = std::max(labelW, fm.horizontalAdvance(tr("rank %1").arg(r)));
    std::vector<QString> marks;
    std::vector<std::size_t> markRow;
    for (const long c : analysis.stragglers.candidates)
        for (std::size_t i = 0; i < g.ranks.size(); ++i)
            if (g.ranks[i] == c) {
                marks.push_back(tr("◀ rank %1: straggler candidate").arg(c));
                markRow.push_back(i);
            }
    double markW = 0.0;
    for (const QString& m : marks)
        markW = std::max(markW, fm.horizontalAdvance(m));
    const double gap = 0.6 * line;
    const double gridX = canvas.left() + labelW + gap;
    const double gridW =
        std::max(4.0 * line, canvas.width() - labelW - gap - (markW > 0 ? markW + gap : 0.0));
    canvas.needWidth(labelW + 4.0 * line + markW + 2 * gap);
    const std::size_t nSteps = g.steps.size(), nRanks = g.ranks.size();
    const double colW = gridW / static_cast<double>(nSteps);
    // Step labels ("#12"), every k-th when the columns are narrower than a label.
    const double stepLabelW = fm.horizontalAdvance(QStringLiteral("#%1").arg(g.steps.back())) + gap;
    const std::size_t stepStride = hmLabelStride(colW, stepLabelW);
    const double headY = canvas.y();
    for (std::size_t s = 0; s < nSteps; s += stepStride) {
        const QString text = g.steps[s] < 0 ? tr("whole") : QStringLiteral("#%1").arg(g.steps[s]);
        p.drawText(
            QRectF(gridX + colW * static_cast<double>(s), headY, std::max(colW, stepLabelW), line),
            Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    const double gridY = headY + 1.2 * line;
    // Rows up to 2.5 lines tall (room for a value), the map no taller than the page.
    const double natural = static_cast<double>(nRanks) * 2.5 * line;
    const double gridH =
        std::min(natural, canvas.bounded() ? std::max(2.0 * line, canvas.remaining() - 1.4 * line)
                                           : 24.0 * line);
    const double rowH = gridH / static_cast<double>(nRanks);

    // Cells: one rectangle per rank, or, when a rank's row would be thinner than a band a
    // reader can see, bands of kHeatBandPx showing the largest value of the ranks they cover.
    const double span = g.hi - g.lo;
    const QColor missing = mixColors(theme.background, theme.foreground, 0.08);
    p.setRenderHint(QPainter::Antialiasing, false);
    const bool aggregated = rowH < kHeatBandPx;
    const std::size_t bands =
        aggregated ? std::max<std::size_t>(1, static_cast<std::size_t>(gridH / kHeatBandPx))
                   : nRanks;
    const double bandH = gridH / static_cast<double>(bands);
    for (std::size_t y = 0; y < bands; ++y) {
        const std::size_t r0 = aggregated ? y * nRanks / bands : y;
        const std::size_t r1 = aggregated ? std::max(r0 + 1, (y + 1) * nRanks / bands) : y + 1;
        const double top = gridY + static_cast<double>(y) * bandH;
        const double h = bandH;
        for (std::size_t s = 0; s < nSteps; ++s) {
            double v = std::nan("");
            std::size_t worst = r0;
            for (std::size_t r = r0; r < r1; ++r)
                if (std::isfinite(g.value[r][s]) && !(g.value[r][s] <= v)) {
                    v = g.value[r][s];
                    worst = r;
                }
            const QRectF cell(gridX + colW * static_cast<double>(s), top, colW, h);
            const double t = span > 0 ? (v - g.lo) / span : 0.5;
            p.fillRect(cell, std::isfinite(v) ? heatColour(t) : missing);
            // The value inside a cell that has room for it: dark on the pale middle of the
            // scale, white on its saturated ends.
            if (std::isfinite(v) && !aggregated && h >= 1.3 * line) {
                const QString text = hmDuration(v);
                if (fm.horizontalAdvance(text) + gap < colW) {
                    p.setPen(t > 0.2 && t < 0.8 ? QColor(0x1d, 0x23, 0x2b) : QColor(Qt::white));
                    p.drawText(cell, Qt::AlignCenter, text);
                }
            }
            canvas.addHit(PanelHit::onRank(cell, g.ranks[worst], static_cast<int>(g.steps[s])));
        }
    }
    p.setRenderHint(QPainter::Antialiasing, true);

    // Rank labels, far enough apart never to touch, centred on their row.
    p.setPen(theme.foreground);
    const std::size_t stride = hmLabelStride(rowH, 1.15 * line);
    for (std::size_t r = 0; r < nRanks; r += stride) {
        const double cy = gridY + (static_cast<double>(r) + 0.5) * rowH;
        if (cy + 0.5 * line > gridY + gridH + 0.5 * line)
            break;
        p.drawText(QRectF(canvas.left(), cy - 0.5 * line, labelW + 1, line),
                   Qt::AlignRight | Qt::AlignVCenter, tr("rank %1").arg(g.ranks[r]));
    }
    // Candidates named at their row, each clear of the one above.
    double nextFree = gridY - line;
    for (std::size_t i = 0; i < marks.size(); ++i) {
        const double cy =
            std::max(gridY + (static_cast<double>(markRow[i]) + 0.5) * rowH, nextFree + 0.5 * line);
        p.drawText(QRectF(gridX + gridW + gap, cy - 0.5 * line, markW + 1, line),
                   Qt::AlignLeft | Qt::AlignVCenter, marks[i]);
        nextFree = cy + 0.5 * line;
    }
    canvas.setY(gridY + gridH + 0.8 * line);
}

} // namespace wb
