#pragma once
// One block's threads as the hardware groups them: a row per warp, a cell per lane coloured by
// the scheduler that issues the warp, the thread range at the row's end, and a partial last
// warp's idle lanes left hollow. A block with more warps than rows fit shows the first warps,
// a line that counts the ones in between, and the last warp. Hovering a lane names its thread.
#include "drawing/frame_view.h"
#include "frames/thread_map_frame.h"
#include "text/text_layout.h"

#include <QPainter>
#include <QWidget>
#include <vector>

namespace wb {

class ThreadMapView : public FrameView<ThreadMapFrame> {
    Q_OBJECT
public:
    explicit ThreadMapView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Warps drawn for `bounds` (indexes into frame().warps), in order; a gap between two
    // consecutive entries is where the "more warps" line sits.
    std::vector<int> shownWarps(const QRectF& bounds) const;
    // The cell of `lane` in warp `warpIndex`, empty when that warp is not shown.
    QRectF laneRect(const QRectF& bounds, int warpIndex, int lane) const;
    // "thread 37 → lane 5 of warp 1 → scheduler 1", or "" where there is no lane.
    QString laneTip(const QPointF& pos) const;

    QSize sizeHint() const override { return {760, 420}; }

protected:
    bool event(QEvent* event) override;

private:
    struct Row {
        int warp = -1; // index into m_frame.warps; -1: the line that counts skipped warps
        QRectF band;
        WrappedText label, range;
    };
    struct Layout {
        ViewHeader header;
        double em = 12.0;
        QRectF cells; // the 32 lane columns across all rows
        double laneW = 0.0;
        double axisY = 0.0;
        double labelW = 0.0;
        std::vector<Row> rows;
    };
    Layout layoutFor(const QRectF& bounds) const;
    // Lane `lane`'s cell in row `r` of layout `l`: paint and hover read one layout, not one per
    // cell.
    QRectF laneRectIn(const Layout& l, const Row& r, int lane) const;
    QString rangeText(const ThreadMapWarp& w) const;
};

} // namespace wb
