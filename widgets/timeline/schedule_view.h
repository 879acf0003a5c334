#pragma once
// A training step as a Gantt chart (ScheduleFrame): rows of forward/backward passes and
// collectives on a shared time axis, pipeline bubbles hatched, a legend of the kinds shown,
// and the playback cursor. Colours are fixed per kind so every strategy reads the same.
#include "drawing/frame_view.h"
#include "frames/schedule_frame.h"
#include "text/legend_layout.h"

#include <QPainter>
#include <QWidget>

namespace wb {

class ScheduleView : public FrameView<ScheduleFrame> {
    Q_OBJECT
public:
    explicit ScheduleView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Geometry paint() uses for `bounds`.
    QRectF plotRect(const QRectF& bounds) const;
    QRectF rowRect(const QRectF& bounds, int row) const;
    QRectF barRect(const QRectF& bounds, int row, int bar) const;
    // Row and bar under `pos` for `bounds`; false when no bar is there.
    bool barAt(const QRectF& bounds, const QPointF& pos, int* row, int* bar) const;

    QColor kindColor(ScheduleKind kind, int shade = 0) const;
    // A bar with a category: the theme's series palette, lighter with shade.
    QColor categoryColor(int category, int shade = 0) const;
    QColor bubbleColor() const;
    // Hover text of a bar: its tip, or "<kind> · <start>–<end>".
    QString barText(int row, int bar) const;

    QSize sizeHint() const override { return {900, 420}; }
    // Every row at its tallest (5 em), with header, axis and legend.
    int naturalHeight(int width) const override;
    QSize minimumSizeHint() const override { return {320, 200}; }

protected:
    bool event(QEvent* event) override;

private:
    struct Layout {
        double em = 12.0;
        ViewHeader header; // title and caption, wrapped
        QRectF labels, plot, axis, legend;
        LegendLayout legendLayout;
        double rowH = 0.0;
    };
    // The kinds and categories the frame's bars use, then the bubble if a row has one.
    std::vector<LegendEntry> legendEntries() const;
    Layout layoutFor(const QRectF& bounds) const;
    // The same rect from a layout already made: layouts shape text, so paint and hit tests
    // make one and reuse it for every bar.
    QRectF barRect(const Layout& l, int row, int bar) const;
    double xOf(const Layout& l, double s) const;

    // The passes of paint(), in the order it runs them; drawRows draws each row's bubbles
    // and bars with drawBubbles and drawBars.
    void drawRows(QPainter& painter, const Layout& l) const;
    void drawBubbles(QPainter& painter, const Layout& l, const ScheduleRow& row, const QRectF& lane,
                     const QBrush& hatch) const;
    struct BarLabel {
        int bar = 0;
        QRectF box;
        QString text;
        QColor fill;
    };
    void drawBarLabels(QPainter& painter, const Layout& l, int r, const QFont& barFont,
                       const std::vector<BarLabel>& labels) const;
    void drawBars(QPainter& painter, const Layout& l, int row, const QColor& track,
                  const QFont& barFont) const;
    void drawTimeAxis(QPainter& painter, const Layout& l) const;
    void drawCursor(QPainter& painter, const Layout& l) const;
};

} // namespace wb
