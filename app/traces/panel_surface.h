#pragma once
// The scrolled page of a docked panel: paints a panel's drawing (PanelCanvas, unbounded) at
// the dock's width, grows to the height and width the drawing needed so the scroll area
// scrolls to all of it, and turns a click on a PanelHit into hitActivated. Used by every
// analysis panel and the comparison panel.
#include "drawing/theme.h"
#include "traces/panel_canvas.h"

#include <QWidget>
#include <functional>
#include <vector>

namespace wb {

class PanelSurface : public QWidget {
    Q_OBJECT
public:
    using Draw = std::function<void(PanelCanvas&)>;
    explicit PanelSurface(Draw draw, QWidget* parent = nullptr);

    void setTheme(const Theme& theme);
    // The clickable boxes of the last paint, in this widget's coordinates.
    const std::vector<PanelHit>& hits() const { return m_hits; }

signals:
    void hitActivated(const wb::PanelHit& hit);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    Draw m_draw;
    Theme m_theme = Theme::light();
    std::vector<PanelHit> m_hits;
};

} // namespace wb
