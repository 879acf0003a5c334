#include "traces/summary_distribution_view.h"

#include "analysis/trace_analysis.h"
#include "engine/number_format.h"
#include "traces/step_heatmap_panel.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

constexpr int kSdvBins = 40;
constexpr double kSdvMinBarPx = 3.0; // a bin of one rank among thousands still shows

struct SdvMark {
    double value = 0.0;
    QString label;
    QColor colour;
};

QString sdvTime(double us) {
    return QString::fromStdString(formatSi(us * 1e-6, "s", 4));
}

// One histogram of `values` in `box`: title, bars, the marks as vertical lines with their
// labels above the plot, the range below. A bin holding ranks past `hotFrom` is hot, and
// says how many.
void sdvHistogram(QPainter& p, const QRectF& box, const Theme& theme, const QString& title,
                  const std::vector<double>& values, const std::vector<SdvMark>& marks,
                  double hotFrom) {
    const QFontMetricsF fm(p.font());
    const double line = fm.lineSpacing();
    p.setPen(theme.foreground);
    p.drawText(QRectF(box.left(), box.top(), box.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
               title);
    if (values.empty())
        return;
    const auto [loIt, hiIt] = std::minmax_element(values.begin(), values.end());
    const double lo = *loIt, hi = *hiIt;
    const double span = hi > lo ? hi - lo : 1.0;
    std::vector<long> count(kSdvBins, 0), past(kSdvBins, 0); // past: ranks beyond hotFrom
    for (const double v : values) {
        const auto b = static_cast<std::size_t>(
            std::clamp(static_cast<int>((v - lo) / span * kSdvBins), 0, kSdvBins - 1));
        ++count[b];
        past[b] += v > hotFrom ? 1 : 0;
    }
    const long most = *std::max_element(count.begin(), count.end());
    // Two label rows for the marks above the plot, one for counts, one for the range below.
    const QRectF plot(box.left(), box.top() + 4.0 * line, box.width(),
                      std::max(2.0 * line, box.height() - 5.4 * line));
    const double binW = plot.width() / kSdvBins;
    const auto xOf = [&](double v) { return plot.left() + (v - lo) / span * plot.width(); };
    p.setPen(Qt::NoPen);
    for (int b = 0; b < kSdvBins; ++b) {
        const long n = count[static_cast<std::size_t>(b)];
        if (n == 0)
            continue;
        const double h = std::max(kSdvMinBarPx, plot.height() * static_cast<double>(n) /
                                                    static_cast<double>(most));
        const long nHot = past[static_cast<std::size_t>(b)];
        const bool hot = nHot > 0;
        const QRectF bar(plot.left() + b * binW + 1, plot.bottom() - h, binW - 2, h);
        p.fillRect(bar, hot ? StepHeatmapPanel::heatColour(1.0) : theme.seriesColor(0));
        if (hot) {
            p.setPen(theme.foreground);
            const QString text = QString::fromStdString(formatCount(nHot, "rank", "ranks"));
            const double w = fm.horizontalAdvance(text) + 2;
            const double x = std::clamp(bar.center().x() - w / 2, plot.left(), plot.right() - w);
            p.drawText(QRectF(x, bar.top() - line, w, line), Qt::AlignCenter, text);
            p.setPen(Qt::NoPen);
        }
    }
    p.setPen(QPen(theme.grid, 1.0));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    // Marks: a line through the plot, the label on its own row so two never touch.
    for (std::size_t i = 0; i < marks.size(); ++i) {
        const double x = std::clamp(xOf(marks[i].value), plot.left(), plot.right());
        p.setPen(QPen(marks[i].colour, 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, plot.top() - 0.5 * line), QPointF(x, plot.bottom()));
        const double w = fm.horizontalAdvance(marks[i].label) + 2;
        const double lx = std::clamp(x - w / 2, box.left(), box.right() - w);
        p.setPen(marks[i].colour);
        p.drawText(QRectF(lx, box.top() + (1.2 + static_cast<double>(i % 2)) * line, w, line),
                   Qt::AlignCenter, marks[i].label);
    }
    p.setPen(theme.muted);
    const QRectF below(plot.left(), plot.bottom() + 0.2 * line, plot.width(), line);
    p.drawText(below, Qt::AlignLeft | Qt::AlignVCenter, sdvTime(lo));
    p.drawText(below, Qt::AlignRight | Qt::AlignVCenter, sdvTime(hi));
}

double sdvMedian(std::vector<double> v) {
    if (v.empty())
        return 0.0;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

} // namespace

SummaryDistributionView::SummaryDistributionView(QWidget* parent)
    : QWidget(parent) {
    setObjectName("summaryDistributions");
    setMinimumHeight(160);
}

void SummaryDistributionView::setAnalysis(std::shared_ptr<const TraceAnalysis> analysis) {
    m_analysis = std::move(analysis);
    update();
}

void SummaryDistributionView::setTheme(const Theme& theme) {
    m_theme = theme;
    update();
}

void SummaryDistributionView::paintEvent(QPaintEvent* event) {
    (void)event;
    QPainter p(this);
    paint(p, QRectF(rect()));
}

void SummaryDistributionView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.fillRect(bounds, m_theme.background);
    if (!m_analysis)
        return;
    painter.setFont(font());
    const StragglerCandidates& s = m_analysis->stragglers;
    std::vector<double> compute, wait;
    for (const RankStragglerRow& r : s.ranks)
        compute.push_back(r.medianComputeUs);
    for (const RankBreakdown& r : m_analysis->perRank)
        wait.push_back(r.whole.waitUs);
    const double gap = 24.0;
    const QRectF inner = bounds.adjusted(16, 8, -16, -8);
    const double half = (inner.width() - gap) / 2;
    const QColor hot = StepHeatmapPanel::heatColour(1.0);
    sdvHistogram(
        painter, QRectF(inner.left(), inner.top(), half, inner.height()), m_theme,
        tr("Ranks by median compute per ProfilerStep (%1)")
            .arg(QString::fromStdString(
                formatCount(static_cast<long long>(compute.size()), "rank", "ranks"))),
        compute,
        {{s.medianComputeUs, tr("median %1").arg(sdvTime(s.medianComputeUs)), m_theme.muted},
         {s.thresholdUs, tr("straggler threshold %1").arg(sdvTime(s.thresholdUs)), hot}},
        s.thresholdUs > 0 ? s.thresholdUs : HUGE_VAL);
    const double medianWait = sdvMedian(wait);
    sdvHistogram(painter, QRectF(inner.left() + half + gap, inner.top(), half, inner.height()),
                 m_theme, tr("Ranks by wait in collectives (whole trace)"), wait,
                 {{medianWait, tr("median %1").arg(sdvTime(medianWait)), m_theme.muted}}, HUGE_VAL);
}

} // namespace wb
