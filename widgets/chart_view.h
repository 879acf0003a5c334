#pragma once
// Renders a ChartFrame with Qt Charts: lines on linear or log axes, labelled markers with
// hover tooltips, a title and a source footnote. Animations stay off so two exports of the
// same frame are byte-identical, and an unchanged frame costs nothing.
#include "frames/chart_frame.h"
#include "theme.h"

#include <QChartView>
#include <vector>

class QAbstractAxis;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;
class QScatterSeries;

namespace wb {

class ChartView : public QChartView {
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);

    // Reuses the existing series and axes where it can; an equal frame is a no-op.
    void setFrame(const ChartFrame& frame);
    const ChartFrame& frame() const { return m_frame; }
    void setTheme(const Theme& theme);
    const Theme& theme() const { return m_theme; }

    // The text drawn beside a marker: estimates say so.
    static QString markerLabel(const ChartMarker& marker);

    // Structure, for tests: one line series per ChartSeries, one scatter per ChartMarker.
    const std::vector<QLineSeries*>& lineSeries() const { return m_lines; }
    const std::vector<QScatterSeries*>& markerSeries() const { return m_markers; }
    QAbstractAxis* axisX() const { return m_axisX; }
    QAbstractAxis* axisY() const { return m_axisY; }
    // How many frames were actually applied (equal frames are skipped).
    int frameUpdates() const { return m_frameUpdates; }
    // Where a data point lands in view coordinates; valid once the view has a size.
    QPointF mapToView(const ChartPoint& point);

    QSize sizeHint() const override { return {640, 420}; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    // Paints the background and the minor grid of log axes. Qt Charts' own minor grid
    // (translucent, antialiased items) cost ~10 ms a frame at 1080p; one aliased, opaque
    // drawLines call here costs about 1 ms and stays vector in SVG exports.
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    // Both kinds of axis exist for each side from the start and only the active one is shown:
    // removing an axis from a QChart leaves its items on screen until the event loop runs,
    // which would put ghost axes into an export made right after a log/linear switch.
    struct AxisPair {
        QValueAxis* linear = nullptr;
        QLogValueAxis* log = nullptr;
    };
    AxisPair makeAxes(Qt::Alignment side);
    QAbstractAxis* syncAxis(const AxisPair& pair, QAbstractAxis* active, const ChartAxis& spec);
    void syncLines();
    void syncMarkers();
    std::vector<QAbstractAxis*> allAxes() const;
    void styleAxes();
    void styleLines();
    void styleMarkers();
    void applyFonts();
    void placeFootnote();
    void settle();
    double basePx() const;

    ChartFrame m_frame;
    bool m_hasFrame = false;
    int m_frameUpdates = 0;
    Theme m_theme = Theme::light();
    AxisPair m_xAxes;
    AxisPair m_yAxes;
    QAbstractAxis* m_axisX = nullptr; // the shown one of m_xAxes
    QAbstractAxis* m_axisY = nullptr;
    std::vector<QLineSeries*> m_lines;
    std::vector<QScatterSeries*> m_markers;
    QGraphicsSimpleTextItem* m_footnote = nullptr;
};

} // namespace wb
