#pragma once
// Per-rank timelines of a trace, for millions of events: one row per rank × GPU stream
// (CPU threads below, collapsed by default, absent with gpuOnly), grouped under each lane's
// label; compute, communication (NCCL) and memory kernels in three colours, CPU work muted.
// Wheel zooms about the cursor, drag pans, shift+drag (or a drag on the time axis) selects a
// range whose statistics appear in a panel; hovering an event shows its tip and its flows.
// The maths live in Qt-free code: TimelineAxis (ns ↔ px, ticks), visibleSlice (the visible,
// merged rectangles of a row) and RangeStatistics (the selection's figures).
#include "drawing/frame_view.h"
#include "frames/timeline_frame.h"
#include "text/legend_layout.h"
#include "timeline/timeline_axis.h"
#include "timeline/timeline_slice.h"
#include "timeline/timeline_stats.h"

#include <QPainter>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <vector>

namespace wb {

class TimelineView : public FrameView<TimelineFrame> {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    void paint(QPainter& painter, const QRectF& bounds) const override;
    // Every row at its tallest (rows never grow past that), or the height the view needs for
    // its type, whichever is more.
    int naturalHeight(int width) const override;

    // One drawable row: a track of one lane's store.
    struct Row {
        int lane = 0;
        std::uint32_t track = 0;
        bool gpu = true;
        QString label; // "GPU 0 · stream 7", "thread 1234"
    };
    // Rows shown now, top to bottom (collapsed CPU threads are not rows).
    int rowCount() const { return static_cast<int>(m_shown.size()); }
    const Row& row(int index) const { return m_rows[m_shown[static_cast<std::size_t>(index)]]; }
    // The shown row of `track` in `lane`, or -1 (hidden or absent).
    int rowOf(int lane, std::uint32_t track) const;
    int cpuThreadCount(int lane) const;
    bool cpuExpanded(int lane) const;
    void setCpuExpanded(int lane, bool expanded);

    // Geometry paint() uses for `bounds`.
    QRectF plotRect(const QRectF& bounds) const; // the event area, all rows
    QRectF axisRect(const QRectF& bounds) const; // the tick band above the plot
    QRectF rowRect(const QRectF& bounds, int row) const;
    QRectF laneHeaderRect(const QRectF& bounds, int lane) const;
    QRectF statsRect(const QRectF& bounds) const; // empty without a selection
    double xOf(const QRectF& bounds, std::int64_t ns) const;

    // The line beside the legend: the window's span and, only in an interactive window, what
    // the mouse does. A hidden view or one in a window never shown on screen (an export, a
    // rendered slide) has no mouse to hint at.
    QString hintText() const;

    // The window shown (its width is the last laid-out plot width).
    const TimelineAxis& axis() const { return m_axis; }
    void setWindow(std::int64_t startNs, std::int64_t endNs);
    // Time 0 of the axis labels: the earliest time of all lanes.
    std::int64_t originNs() const { return m_axis.limitStartNs(); }

    // A range selection and its statistics (whole events, see timeline_stats.h).
    void setSelection(std::int64_t startNs, std::int64_t endNs);
    void clearSelection();
    bool hasSelection() const { return m_hasSelection; }
    const RangeSummary& selectionStats() const { return m_stats; }
    std::int64_t selectionStartNs() const { return m_selStartNs; }
    std::int64_t selectionEndNs() const { return m_selEndNs; }
    // The text lines of the statistics panel, as drawn.
    QStringList statsLines() const;

    // The event under `pos` (widget coordinates) found in the store, not in the merged
    // rectangles: exact at any zoom.
    struct Hit {
        int lane = -1;
        std::uint32_t event = 0;
        bool valid() const { return lane >= 0; }
        bool operator==(const Hit&) const = default;
    };
    Hit eventAt(const QPointF& pos) const;
    // Hover text: name, duration, start (from the origin), track and rank (lane label).
    QString eventText(int lane, std::uint32_t event) const;
    QString tipAt(const QPointF& pos) const;
    // Hovers what is under `pos`, as a mouse move does; flows of the hovered event are drawn.
    void hoverAt(const QPointF& pos);
    Hit hovered() const { return m_hover; }
    int hoveredFlowCount() const { return static_cast<int>(m_hoverLinks.size()); }

    QColor kindColor(EventKind kind) const;
    QColor colourOf(TimelineColour colour) const;
    // Rectangles and visible events of the last paint(): rectangles stay near one per pixel
    // column per row however many events are visible.
    int lastRects() const { return m_lastRects; }
    std::uint64_t lastEvents() const { return m_lastEvents; }

    // Every instance of one event name outlined in the accent colour (a kernel picked in an
    // analysis panel); "" clears it. Instances are found by the name's exact text.
    void setHighlightedName(const QString& name);
    const QString& highlightedName() const { return m_highlightName; }
    // The outlined events of `lane` (indexes into its store's events(), ascending).
    const std::vector<std::uint32_t>& highlightedEvents(int lane) const;
    std::size_t highlightedCount() const;

    // Scrolls the rows so `lane`'s header is at the top of the plot (as far as they scroll).
    void scrollToLane(int lane);

    QSize sizeHint() const override { return {1200, 640}; }
    QSize minimumSizeHint() const override { return {400, 240}; }

signals:
    // The selection was set, moved or cleared (by the mouse, a key or setSelection).
    void selectionChanged();
    // The window shown moved (zoom, pan, fit, setWindow).
    void windowChanged(qint64 startNs, qint64 endNs);

protected:
    void frameChanged(const TimelineFrame& previous) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Layout {
        double em = 12.0;
        QRectF title, caption, legend, axis, labels, plot;
        WrappedText titleText, captionText;
        LegendLayout legendLayout;
        QString hint;    // the window's span (and, on screen, what the mouse does)
        QRectF hintRect; // beside the legend's last row, or on a line of its own
        double rowH = 0.0;
        double headerH = 0.0;
        std::vector<double> laneTop; // header band top per lane (scrolled)
        std::vector<double> rowTop;  // per shown row (scrolled)
        double contentH = 0.0;       // all headers and rows, unscrolled
    };
    Layout layoutFor(const QRectF& bounds) const;
    TimelineAxis axisFor(const Layout& layout) const;
    // The statistics panel's text, wrapped to `width`, and the height it takes.
    struct StatsBlock {
        double lineH = 0.0, numW = 0.0, nameW = 0.0, height = 0.0;
        QFont head, body;
        std::vector<WrappedText> lines; // the summary lines above the table
        std::vector<WrappedText> names; // one per listed name
    };
    StatsBlock statsBlock(const Layout& layout, double width) const;
    // The panel's rectangle, sized to its block, and the block itself (wrapped once, used twice).
    QRectF statsPanel(const Layout& layout, StatsBlock* block = nullptr) const;
    void rebuildRows();
    void showRows(); // which rows are shown: GPU rows, and CPU rows of expanded lanes
    void refreshStats();
    void setHover(const Hit& hit);
    int laneHeaderAt(const QPointF& pos) const;
    bool handlesKey(int key) const;
    void drawRows(QPainter& painter, const Layout& l, const TimelineAxis& axis) const;
    void drawAxis(QPainter& painter, const Layout& l, const TimelineAxis& axis) const;
    void drawLegend(QPainter& painter, const Layout& l) const;
    std::vector<LegendEntry> legendEntries() const;
    void drawHover(QPainter& painter, const Layout& l, const TimelineAxis& axis) const;
    void drawHighlight(QPainter& painter, const Layout& l, const TimelineAxis& axis) const;
    void findHighlighted();
    void drawStats(QPainter& painter, const Layout& l, const TimelineAxis& axis) const;

    std::vector<Row> m_rows;          // every track with events, GPU first within a lane
    std::vector<std::size_t> m_shown; // indexes into m_rows shown now
    std::vector<bool> m_expanded;     // per lane: CPU threads shown
    TimelineAxis m_axis;
    double m_scrollY = 0.0;

    bool m_hasSelection = false;
    RangeSummary m_stats;
    std::int64_t m_selStartNs = 0, m_selEndNs = 0;

    Hit m_hover;
    std::vector<FlowLink> m_hoverLinks;

    QString m_highlightName;
    std::vector<std::vector<std::uint32_t>> m_highlighted; // per lane, ascending

    enum class Drag { None, Pan, Select };
    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    std::int64_t m_pressStartNs = 0, m_pressEndNs = 0, m_pressTimeNs = 0;
    bool m_dragged = false;

    // Slices of the last paint, reused while the window, width and rows stay (a hover or a
    // selection repaints without re-merging a million events).
    struct SliceCache {
        std::int64_t startNs = 0, endNs = 0;
        double width = -1.0;
        std::vector<std::size_t> rows;
        std::vector<std::vector<SliceRect>> slices;
    };
    mutable SliceCache m_cache;
    mutable int m_lastRects = 0;
    mutable std::uint64_t m_lastEvents = 0;
};

} // namespace wb
