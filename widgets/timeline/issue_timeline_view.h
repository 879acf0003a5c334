#pragma once
#include <algorithm>
// Issue slots of an SM's warp schedulers over time: one row per scheduler, one column per
// cycle, each cell in the colour of the warp it issued or hatched when every warp stalled.
// Runs of equal cells are merged and sub-pixel columns binned, so thousands of cycles
// draw as a few hundred rectangles.
#include "drawing/frame_view.h"
#include "drawing/theme.h"
#include "frames/issue_timeline_frame.h"
#include "text/text_layout.h"

#include <QPainter>
#include <QWidget>

namespace wb {

class IssueTimelineView : public FrameView<IssueTimelineFrame> {
    Q_OBJECT
public:
    explicit IssueTimelineView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Geometry paint() uses for `bounds`: the whole plot, and one scheduler × cycle cell.
    QRectF plotRect(const QRectF& bounds) const;
    QRectF cellRect(const QRectF& bounds, int scheduler, int cycle) const;
    // Scheduler and cycle under `pos` in widget coordinates; false outside the plot.
    bool cellAt(const QPointF& pos, int* scheduler, int* cycle) const;

    // Warp w runs on scheduler w mod S as that scheduler's (w / S)-th warp: colouring by that
    // slot gives every row the same colours, so a colour never means two warps in one legend.
    QColor warpColor(int warp) const {
        return m_theme.seriesColor(warp / std::max(1, m_frame.schedulers));
    }
    // "utilisation 23 % · <caption>"
    static QString captionText(const IssueTimelineFrame& frame);
    // Hover text for one cell: "scheduler 1 · cycle 40: warp 5 issued".
    static QString cellText(const IssueTimelineFrame& frame, int scheduler, int cycle);
    // Rectangles the last paint() filled for cells: stays small for long timelines.
    int lastCellRects() const { return m_lastCellRects; }

    QSize sizeHint() const override { return {900, 400}; }
    QSize minimumSizeHint() const override { return {320, 200}; }

protected:
    bool event(QEvent* event) override;

private:
    struct Layout {
        double em = 12.0;
        QRectF title;
        QRectF caption;
        WrappedText titleText, captionText; // both wrap to the view's width
        QRectF labels;                      // scheduler names, left of the plot
        QRectF plot;
        double rowH = 0.0;
        double colW = 0.0;
        QRectF axis;
        QRectF legend;
    };
    Layout layoutFor(const QRectF& bounds) const;
    int issuedAt(int scheduler, int cycle) const;
    void fillSegment(QPainter& painter, double x0, double x1, double y, double hgt, int value,
                     const QBrush& hatch) const;

    // The passes of paint(), in the order it runs them; `shown` is the cycles revealed so far.
    int drawSchedulerRows(QPainter& painter, const Layout& l, int shown, const QBrush& hatch) const;
    int drawCellRuns(QPainter& painter, const Layout& l, int scheduler, double y, double hgt,
                     int shown, const QBrush& hatch) const;
    int drawBinnedCells(QPainter& painter, const Layout& l, int scheduler, double y, double hgt,
                        int shown, const QBrush& hatch) const;
    void drawCycleBoundaries(QPainter& painter, const Layout& l, int shown) const;
    void drawNowMarker(QPainter& painter, const Layout& l, int shown) const;
    void drawCycleAxis(QPainter& painter, const Layout& l) const;
    void drawWarpLegend(QPainter& painter, const Layout& l, int shown, const QBrush& hatch) const;

    mutable int m_lastCellRects = 0;
};

} // namespace wb
