#pragma once
// A whole cluster (ClusterMapFrame) as one map: pods side by side, each a grid of racks; a
// rack is its ToR strip on top, a handle column per node on the left, its GPUs as cells and
// its PDU bar below; the pod's spines in a row above it and its cooling zones in a strip on
// its left. Storage and the scheduler, the legend and the failure's consequences sit in a
// panel on the right. 16,384 GPUs are too many for one QPainter call each at 60 fps, so the
// cells are written into a cached QImage once per frame and size and blitted every paint.
// A press on any component emits componentClicked(kind, index) (MapKind numbers).
#include "drawing/frame_view.h"
#include "drawing/theme.h"
#include "frames/cluster_map_frame.h"

#include <QImage>
#include <QRect>
#include <QWidget>

namespace wb {

class ClusterMapView : public FrameView<ClusterMapFrame> {
    Q_OBJECT
public:
    explicit ClusterMapView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    struct Hit {
        int kind = -1; // MapKind, -1 for none
        int index = -1;
        bool operator==(const Hit&) const = default;
    };
    // The component drawn at `pos` when the view paints into `bounds`.
    Hit hitAt(const QRectF& bounds, const QPointF& pos) const;
    // Where a press picks a component (a rack: the gap column after its block; a PDU: the bar
    // under its first rack; a cooling zone: the strip beside its first rack), empty when it
    // is not drawn.
    QRectF componentRect(const QRectF& bounds, int kind, int index) const;

    QColor gpuColor(MapGpuState s) const;
    QColor componentColor(MapComponentState s) const;
    // The outline around a failure's reach (the GPUs it took down): a hue no cell has.
    QColor reachColor() const;
    // The cells of every lost GPU, as one rectangle in cell units; empty when none is lost.
    QRect reachCells() const;
    QString tipAt(const QRectF& bounds, const QPointF& pos) const;

    QSize sizeHint() const override { return {1200, 700}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

signals:
    void componentClicked(int kind, int index);

protected:
    void frameChanged(const ClusterMapFrame& previous) override;
    void themeChanged() override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    // The map in whole cells; see the header comment for what each cell row and column is.
    struct Geometry {
        int gpus = 0, nodes = 0, racks = 0, pods = 0;
        int nodeRows = 1, gpuCols = 1; // a node's GPUs as nodeRows × gpuCols cells
        int rackW = 2, rackH = 3;      // a rack's block without the gap after it
        int racksPerRow = 1, rackRows = 1;
        int podW = 1, podH = 1;
        int podCols = 1, podRows = 1;
        int cellsW = 1, cellsH = 1;
    };
    struct Layout {
        QSizeF size;
        double em = 12.0;
        QRectF title, caption, panel;
        QRect map;    // the cells' pixel area, whole pixels
        int cell = 1; // pixels per cell
        QRectF storage, scheduler;
    };
    Geometry geometry(int racksPerRow) const; // pods of rack rows `racksPerRow` wide
    QString componentBoxLabel(int kind) const;
    void drawZoom(QPainter& painter, const Layout& l, double top, const QFont& font) const;
    const Layout& layoutFor(const QRectF& bounds) const;
    // Cell rectangles (in cells, map origin) of each component, from the geometry.
    QRect podOrigin(int pod) const;
    QPoint rackOrigin(int rack) const;
    QRect cellsOf(int kind, int index) const;
    QRectF pixels(const Layout& l, const QRect& cells) const;
    void renderCells(const Layout& l) const;
    int rackOfCooling(int zone) const;

    mutable Geometry m_geo; // the pod arrangement follows the size (layoutFor)
    mutable Layout m_layout;
    mutable bool m_layoutValid = false;
    mutable QImage m_image; // the cells at m_layout's size
    mutable bool m_imageValid = false;
};

} // namespace wb
