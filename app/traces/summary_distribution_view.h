#pragma once
// The centre of the Traces workspace in summary mode: how the job's ranks are distributed,
// where a timeline would be for traces. Two histograms over every rank of the summary: its
// median compute per ProfilerStep (the straggler rule's input) with the ranks' median and the
// rule's threshold marked, and its wait in collectives over the whole trace. With thousands of
// ranks one straggler is a bin of one: every non-empty bin stays at least a few pixels tall,
// and bins past the threshold are drawn hot and labelled with their count.
#include "drawing/theme.h"

#include <QWidget>
#include <memory>

namespace wb {

struct TraceAnalysis;

class SummaryDistributionView : public QWidget {
    Q_OBJECT
public:
    explicit SummaryDistributionView(QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis);
    void setTheme(const Theme& theme);
    // Draws the view into `bounds` (the widget paints through this too).
    void paint(QPainter& painter, const QRectF& bounds) const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::shared_ptr<const TraceAnalysis> m_analysis;
    Theme m_theme = Theme::light();
};

} // namespace wb
