#pragma once
// A transparent layer over the stage for presenting: freehand pen strokes kept per page
// (each step has its own), and a laser dot whose short trail fades within a second. Off, it
// lets every mouse event through to the stage below.
#include "drawing/theme.h"

#include <QElapsedTimer>
#include <QPolygonF>
#include <QTimer>
#include <QWidget>
#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace wb {

class PenOverlay : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Off, Pen, Laser };
    Q_ENUM(Mode)

    explicit PenOverlay(QWidget* parent = nullptr);

    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    void setTheme(const Theme& theme);
    const Theme& theme() const { return m_theme; }

    // Strokes belong to a page; switching pages shows that page's strokes.
    void setPage(int page);
    int page() const { return m_page; }
    int strokeCount() const;
    // Adds a finished stroke in widget coordinates (what a mouse drag produces).
    void addStroke(const QVector<QPointF>& points);
    void undo();
    void clear();
    void clearAllPages();

    // Moves the laser dot and extends its trail (what mouse moves do in Laser mode).
    void addLaserPoint(const QPointF& pos);
    int laserTrailSize() const { return static_cast<int>(m_trail.size()); }
    // True while a trail is fading; the timer stops once it is gone.
    bool isFading() const { return m_fadeTimer.isActive(); }
    static constexpr int kTrailMs = 1000;

    // Paints strokes and laser into `bounds` (e.g. over an exported stage image).
    void paint(QPainter& painter, const QRectF& bounds) const;

signals:
    void strokesChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct TrailPoint {
        QPointF pos; // normalised, like strokes
        qint64 ms = 0;
    };
    QPointF toUnit(const QPointF& pos) const;
    void fadeTrail();
    double penWidth(const QRectF& bounds) const;

    Mode m_mode = Mode::Off;
    Theme m_theme = Theme::light();
    int m_page = 0;
    // Points are stored as fractions of the overlay's size so strokes stay on what they
    // marked when the window or the presentation screen changes size.
    std::map<int, std::vector<QPolygonF>> m_pages;
    QPolygonF m_current;
    bool m_drawing = false;
    std::deque<TrailPoint> m_trail;
    std::optional<QPointF> m_laserDot;
    QElapsedTimer m_clock;
    QTimer m_fadeTimer;
};

} // namespace wb
