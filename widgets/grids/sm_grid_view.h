#pragma once
// The GPU's SMs as a grid of small tiles at one moment of block dispatch: each tile shows its
// resident blocks (coloured by the wave they belong to) and four bars, the warps on each
// sub-partition's scheduler. The caption names the wave and how full the tail wave is.
// Drawn with plain fills and one cached layout, so 132 SMs cost a few milliseconds.
#include "drawing/frame_view.h"
#include "drawing/theme.h"
#include "frames/sm_grid_frame.h"
#include "text/text_layout.h"

#include <QFont>
#include <QPainter>
#include <QWidget>
#include <vector>

namespace wb {

class SmGridView : public FrameView<SmGridFrame> {
    Q_OBJECT
public:
    explicit SmGridView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Geometry paint() uses for `bounds`.
    int columns(const QRectF& bounds) const;
    QRectF smRect(const QRectF& bounds, int sm) const;
    // Slot `slot` of SM `sm`'s resident blocks (frame().sms[sm].blocks[slot]).
    QRectF blockRect(const QRectF& bounds, int sm, int slot) const;
    // Sub-partition `part`'s bar track (0…3).
    QRectF subPartitionRect(const QRectF& bounds, int sm, int part) const;
    int smAt(const QPointF& pos) const;

    // The wave a block id runs in (0-based) and the colour its chip is drawn in.
    int waveOfBlock(int blockId) const;
    QColor blockColor(int blockId) const;
    // "wave 2/3 · blocks 132/300 done · tail wave 27 % full"
    static QString caption(const SmGridFrame& frame);

    QSize sizeHint() const override { return {900, 600}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

protected:
    void frameChanged(const SmGridFrame& previous) override;
    void themeChanged() override;
    bool event(QEvent* event) override;

private:
    struct Layout {
        QSizeF size;
        double em = 12.0;
        QRectF title;
        QRectF caption;
        QRectF grid;
        int columns = 1;
        int rows = 1;
        double tileW = 0.0;
        double tileH = 0.0;
        double gap = 2.0;
        bool labels = false; // room for "SM n" in each tile
        double labelH = 0.0;
        int slotColumns = 1; // block chips per row inside a tile
        int slotRows = 1;
        QFont titleFont;
        QFont captionFont;
        WrappedText titleText;
        QFont labelFont;
        bool chipText = false; // room for the block id on each chip
        QFont chipFont;
    };
    // Computed once per size, SM count and theme; paint() and hit tests reuse it.
    const Layout& layoutFor(const QRectF& bounds) const;
    int slotCount() const { return m_slots; }

    mutable Layout m_layout;
    mutable bool m_layoutValid = false;
    int m_slots = 1; // block chips per tile: the most blocks any SM may hold
};

} // namespace wb
