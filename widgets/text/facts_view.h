#pragma once
// A compact table of the numbers a step is about: label, value and, in smaller muted type, where
// the number comes from. Label, value and source wrap onto more lines; type gets smaller only
// down to the slide's floor. Hovering a row shows its source. A Slide-layout frame (the
// whiteboard answer) numbers its rows and sets them as large as the area allows, spreading them
// over its height, so the closing slide reads from the back of a room.
#include "drawing/frame_view.h"
#include "frames/facts_frame.h"
#include "text/text_layout.h"

#include <QPainter>
#include <QWidget>
#include <vector>

namespace wb {

class FactsView : public FrameView<FactsFrame> {
    Q_OBJECT
public:
    explicit FactsView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Row bands for a given area; the view itself uses rect().
    std::vector<QRectF> rowRects(const QRectF& bounds) const;
    // Index of the row under `pos` in widget coordinates, or -1.
    int rowAt(const QPointF& pos) const;

    QSize sizeHint() const override { return {420, 320}; }
    int naturalHeight(int width) const override;

protected:
    bool event(QEvent* event) override;

private:
    struct RowLayout {
        QRectF band;
        QRectF labelBox, valueBox, sourceBox;
        WrappedText label, value, source;
        QRectF markerBox; // the point's number (Slide layout only)
    };
    struct Layout {
        double px = 12.0; // label and value size
        double pad = 8.0;
        QRectF titleBox;
        WrappedText title;
        std::vector<RowLayout> rows;
        // Rows that do not fit even at the floor are left out and counted on this line.
        WrappedText more;
        QRectF moreBox;
        double bottom = 0.0;
    };
    // `gap`: extra space after each row (the Slide layout spreads its points with it).
    Layout layoutAt(const QRectF& bounds, double px, double gap = 0.0) const;
    Layout layoutFor(const QRectF& bounds) const;
    Layout slideLayoutFor(const QRectF& bounds) const;
    bool isSlide() const { return m_frame.layout == FactsLayout::Slide; }
};

} // namespace wb
