#pragma once
// Stacked bars against a value axis (BarChartFrame): a bar per category made of segments in
// the theme's series colours, a legend of the series used, reference lines (a GPU's HBM)
// drawn dashed and labelled, one bar outlined for emphasis, totals at the bar ends, and a
// hover tip per segment. Vertical or horizontal; sizes follow the theme's font scale so the
// chart stays readable in presentation mode.
#include "drawing/frame_view.h"
#include "frames/bar_chart_frame.h"
#include "text/legend_layout.h"

#include <QPainter>
#include <QWidget>
#include <vector>

namespace wb {

class BarChartView : public FrameView<BarChartFrame> {
    Q_OBJECT
public:
    explicit BarChartView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Geometry paint() uses for `bounds`.
    QRectF plotRect(const QRectF& bounds) const;
    QRectF barRect(const QRectF& bounds, int category) const; // the whole stack's lane
    QRectF segmentRect(const QRectF& bounds, int category, int segment) const;
    // Pixel coordinate of a value along the value axis: x when horizontal, y when vertical.
    double valuePos(const QRectF& bounds, double value) const;
    double axisMax() const; // the value at the far end of the axis
    // The values the value axis labels for `bounds`, from 0 at round steps up to axisMax().
    std::vector<double> axisTicks(const QRectF& bounds) const;
    // Category and segment under `pos`; false when no segment is there.
    bool segmentAt(const QRectF& bounds, const QPointF& pos, int* category, int* segment) const;
    // Hover text of a segment: its tip, or "<series>: <value>".
    QString segmentText(int category, int segment) const;
    QString valueText(double value) const; // in the frame's unit

    QColor seriesColor(int series) const;
    QColor referenceColor() const;

    QSize sizeHint() const override { return {900, 480}; }
    QSize minimumSizeHint() const override { return {320, 220}; }

protected:
    bool event(QEvent* event) override;

private:
    struct Layout {
        double em = 12.0;
        ViewHeader header; // title and caption, wrapped
        QRectF legend, plot, labels;
        LegendLayout legendLayout;
        double lane = 0.0; // extent of one category along the category axis
        // A value-axis title longer than the plot is tall goes above the plot, wrapped,
        // instead of along the axis.
        WrappedText titleAbove;
        QRectF titleAboveBox;
        // Horizontal bars: the value-axis title under the tick labels, wrapped to the plot.
        WrappedText titleBelow;
        QRectF titleBelowBox;
    };
    std::vector<LegendEntry> legendEntries() const;
    Layout layoutFor(const QRectF& bounds) const;
    double posOf(const Layout& l, double value) const;
    std::vector<double> ticksIn(const Layout& l) const;
    QRectF laneRect(const Layout& l, int category) const;
    QRectF segmentRectIn(const Layout& l, int category, int segment) const;

    // The passes of paint(), in the order it runs them; drawBars draws each category with
    // drawSegments, drawTotal and drawCategoryLabel.
    void drawValueAxis(QPainter& painter, const Layout& l) const;
    void drawBars(QPainter& painter, const Layout& l) const;
    void drawSegments(QPainter& painter, const Layout& l, int category,
                      const QFont& valueFont) const;
    void drawTotal(QPainter& painter, const Layout& l, int category, const QFont& valueFont) const;
    QRectF totalTextRect(const Layout& l, int category) const;
    QRectF categoryLabelBox(const Layout& l, int category, const QFont& font) const;
    void drawCategoryLabel(QPainter& painter, const QRectF& box, int category,
                           const QFont& font) const;
    void drawAxisBaseline(QPainter& painter, const Layout& l) const;
    void drawReferences(QPainter& painter, const Layout& l) const;
};

} // namespace wb
