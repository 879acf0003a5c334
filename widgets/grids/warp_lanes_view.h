#pragma once
// One warp of 32 lanes at one moment of SIMT execution: which lanes are active and their
// values, the program with the issued instruction highlighted, the reconvergence stack (top
// first) and the efficiency so far. When the frame carries its issued masks, each program
// line shows the lanes it ran for, so the serialized paths stay visible after the warp
// reconverges. Hovering a lane shows the model's note for it.
#include "drawing/frame_view.h"
#include "drawing/theme.h"
#include "frames/warp_frame.h"
#include "text/text_layout.h"

#include <QPainter>
#include <QWidget>

namespace wb {

class WarpLanesView : public FrameView<WarpFrame> {
    Q_OBJECT
public:
    explicit WarpLanesView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Geometry paint() uses for `bounds`, so tests and tooltips can find what it drew.
    bool twoRows(const QRectF& bounds) const;
    QRectF laneRect(const QRectF& bounds, int lane) const;
    // The program line `line` (index into frame().program), empty when scrolled out of view.
    QRectF programLineRect(const QRectF& bounds, int line) const;
    QRectF stackRect(const QRectF& bounds) const;
    // The strip of 32 cells beside program line `line` showing the lanes its issue ran for;
    // empty when the frame has no record of that line (not issued yet, or scrolled away).
    QRectF maskStripRect(const QRectF& bounds, int line) const;
    // The lane under `pos` in widget coordinates, or -1.
    int laneAt(const QPointF& pos) const;

    // Counter text: "SIMT efficiency so far 50 % · 12 issued · 192 active lane-slots", the
    // same definition and rounding as the scenario's facts.
    static QString counterText(const WarpFrame& frame);

    QSize sizeHint() const override { return {900, 600}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

protected:
    bool event(QEvent* event) override;

private:
    struct Layout {
        double em = 12.0;
        double pad = 8.0;
        QRectF header;
        QRectF lanes;
        bool twoRows = false;
        double laneW = 0.0;
        double laneH = 0.0;
        double laneLabelH = 0.0; // the lane number under each box
        double laneGap = 0.0;
        QRectF program;
        QRectF stack;
        double lineH = 0.0;   // one line of code; a long instruction wraps onto more
        double codePx = 0.0;  // the listing's type size
        double lineGap = 0.0; // space under a line of code
        double stripW = 0.0;  // the mask strip at the right of each program line (0: none)
        int firstLine = 0;
        int visibleLines = 0;
        // Header and headings, wrapped to their widths.
        WrappedText title, counter, programHeading, stackHeading;
        double badgeW = 0.0;
        double headingH = 0.0;
        std::vector<WrappedText> code; // every program line, wrapped to the listing
        std::vector<double> lineTops;  // per visible line, from firstLine
    };
    Layout layoutFor(const QRectF& bounds) const;
    // `compact`: shorter lanes and a wider listing, for a mask record that would scroll.
    Layout layoutWith(const QRectF& bounds, bool compact) const;
    QRectF programLineRectIn(const Layout& l, int line) const;
    QRectF maskStripRectIn(const Layout& l, int line) const;
    // The mask the latest issue of `line` ran with, or nullptr.
    const IssuedMask* issuedMaskOf(int line) const;
};

} // namespace wb
