#pragma once
// The memory hierarchy as a ladder, fastest level on top: each rung with capacity, latency
// (cycles and ns), bandwidth and its source in small muted type; the highlighted level
// emphasised; below, a Little's-law gauge of bytes in flight provided against needed.
#include "drawing/frame_view.h"
#include "drawing/theme.h"
#include "frames/ladder_frame.h"
#include "text/text_layout.h"

#include <QPainter>
#include <QWidget>
#include <array>
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
    // Every text is wrapped where it is laid out: a cell's value wraps inside its column, the
    // source wraps under the values, and a rung is as tall as its text. When the rungs do not
    // fit, the type shrinks towards the floor before anything else.
    struct Rung {
        std::array<WrappedText, 4> values; // level, capacity, latency, bandwidth
        WrappedText source;
        double valuesH = 0.0;
        double top = 0.0;
        double height = 0.0;
    };
    struct Layout {
        double em = 12.0;
        double text = 12.0; // the body size the texts use (em, or less while they do not fit)
        WrappedText titleText;
        QRectF title;
        std::array<WrappedText, 4> headings;
        double headingsH = 0.0;
        QRectF rungs;
        std::vector<Rung> rungList;
        // Source clauses that several rungs share, said once under the rungs and referred to
        // as [1], [2] in each rung.
        WrappedText notes;
        QRectF notesBox;
        int hiddenLevels = 0; // rungs that do not fit even at the floor, counted in the notes
        QRectF gauge;         // label, track and source
        QRectF track;
        WrappedText gaugeLabel, gaugeValue, gaugeSource;
    };
    Layout layoutAt(const QRectF& bounds, double em, double text, std::size_t levels) const;
    // Each level's source with shared clauses replaced by [k], and the notes they refer to.
    std::pair<std::vector<QString>, QString> sharedSources() const;
    QRectF gaugeFillIn(const QRectF& track) const;
    std::array<double, 4> columnLefts(const QRectF& rung, double em) const;
    double columnWidth(const QRectF& rung, double em, int c) const;
    Layout layoutFor(const QRectF& bounds) const;
    QRectF rungRectIn(const Layout& l, int level) const;
    bool showsGauge() const;
};

} // namespace wb
