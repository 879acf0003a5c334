#pragma once
// A training step as a Gantt chart (ScheduleFrame): rows of forward/backward passes and
// collectives on a shared time axis, pipeline bubbles hatched, a legend of the kinds shown,
// and the playback cursor. Colours are fixed per kind so every strategy reads the same.
#include "frame_view.h"
#include "frames/schedule_frame.h"

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
    QSize minimumSizeHint() const override { return {320, 200}; }

protected:
    bool event(QEvent* event) override;

private:
    struct Layout {
        double em = 12.0;
        QRectF title, caption, labels, plot, axis, legend;
        double rowH = 0.0;
    };
    Layout layoutFor(const QRectF& bounds) const;
    double xOf(const Layout& l, double s) const;
};

} // namespace wb
