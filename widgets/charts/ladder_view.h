#pragma once
// The memory hierarchy as a ladder, fastest level on top: each rung with capacity, latency
// (cycles and ns), bandwidth and its source in small muted type; the highlighted level
// emphasised; below, a Little's-law gauge of bytes in flight provided against needed.
#include "drawing/frame_view.h"
#include "drawing/theme.h"
#include "frames/ladder_frame.h"

#include <QPainter>
#include <QWidget>
#include <vector>

namespace wb {

class LadderView : public FrameView<LadderFrame> {
    Q_OBJECT
public:
    explicit LadderView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Geometry paint() uses for `bounds`.
    QRectF rungRect(const QRectF& bounds, int level) const;
    // The gauge's track and its filled part (empty when the frame shows no gauge).
    QRectF gaugeTrack(const QRectF& bounds) const;
    QRectF gaugeFill(const QRectF& bounds) const;
    int levelAt(const QPointF& pos) const;

    // "40 cycles · 22.9 ns", "3.35 TB/s", "1.2 KB provided of 40 KB needed (3 %)"
    static QString latencyText(const LadderLevel& level);
    static QString bandwidthText(const LadderLevel& level);
    static QString gaugeText(const LadderFrame& frame);

    QSize sizeHint() const override { return {900, 600}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

protected:
    bool event(QEvent* event) override;

private:
    struct Layout {
        double em = 12.0;
        QRectF title;
        QRectF rungs;
        double rungH = 0.0;           // a rung with a one-line source
        std::vector<double> rungTops; // each rung's top; sources that wrap make it taller
        std::vector<double> rungHeights;
        bool wrapSources = true; // false: no room, sources keep one line
        QRectF gauge;            // label, track and source
        QRectF track;
    };
    Layout layoutFor(const QRectF& bounds) const;
    QRectF rungRectIn(const Layout& l, int level) const;
    bool showsGauge() const;
};

} // namespace wb
