#pragma once
// Renders a ChartFrame with Qt Charts: lines on linear or log axes, labelled markers with
// hover tooltips, a title and a source footnote. Qt Charts draws the plot only (lines, markers,
// grid); every text (title, legend, tick numbers, axis titles, marker labels, footnote) is laid
// out here with the shared text layout and label placer, so nothing is elided, ticks read
// "1 MB" rather than "1e+06", and marker labels do not cover each other. Animations stay off so
// two exports of the same frame are byte-identical, and an unchanged frame costs nothing.
#include "drawing/styled_view.h"
#include "frames/chart_frame.h"
#include "text/label_placer.h"
#include "text/legend_layout.h"

#include <QChartView>
#include <vector>

class QAbstractAxis;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;
class QScatterSeries;

namespace wb {

class ChartView : public QChartView, public StyledView {
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);

    // Reuses the existing series and axes where it can; an equal frame is a no-op.
    void setFrame(const ChartFrame& frame);
    const ChartFrame& frame() const { return m_frame; }
    void setTheme(const Theme& theme) override;
    const Theme& theme() const { return m_theme; }
    void setTypeScale(const TypeScale& scale) override;
    const TypeScale& typeScale() const { return m_type; }

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
    // The tick numbers an axis shows, in the axis title's unit ("1 kB", "10 ms").
    static QString tickText(double value, const std::string& axisTitle);
    // Where each marker's label went (not placed: the label lives in the marker's tooltip).
    std::vector<LabelPlacement> markerLabels() const;

    QSize sizeHint() const override { return {640, 420}; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    // Paints the background and the minor grid of log axes. Qt Charts' own minor grid
    // (translucent, antialiased items) cost ~10 ms a frame at 1080p; one aliased, opaque
    // drawLines call here costs about 1 ms and stays vector in SVG exports.
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    // The texts around the plot, drawn over it in scene (= view) coordinates.
    void drawForeground(QPainter* painter, const QRectF& rect) override;

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
    QFont textFont(double px, bool bold = false) const;
    struct Tick {
        double value;
        QString text;
    };
    std::vector<Tick> ticks(bool xAxis) const;
    std::vector<LegendEntry> legendEntries() const;
    // The chart's margins around the plot: room for every text drawForeground puts there.
    struct TextRoom {
        double left = 0, top = 0, right = 0, bottom = 0;
        double yTitleWidth = 0; // the y title wraps at this length, in layout and in paint
    };
    TextRoom textRoomAt(double base) const;
    void reserveTextRoom();

    ChartFrame m_frame;
    bool m_hasFrame = false;
    int m_frameUpdates = 0;
    Theme m_theme = Theme::light();
    TypeScale m_type;
    double m_basePx = 0; // the text unit reserveTextRoom chose
    AxisPair m_xAxes;
    AxisPair m_yAxes;
    QAbstractAxis* m_axisX = nullptr; // the shown one of m_xAxes
    QAbstractAxis* m_axisY = nullptr;
    std::vector<QLineSeries*> m_lines;
    std::vector<QScatterSeries*> m_markers;
};

} // namespace wb
