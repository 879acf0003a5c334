#pragma once
// Where a Traces panel draws: a painter, the theme, the type scale and a cursor that moves
// down the page as blocks are drawn. The same drawing serves the docked widget (unbounded:
// the page grows and the dock scrolls) and the exports (bounded: 1920×1080, so tables stop
// at the bottom and say how many rows are left). Clickable things leave a PanelHit, which
// the widget turns into the panel's signals.
#include "drawing/theme.h"
#include "text/type_scale.h"

#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <functional>
#include <vector>

namespace wb {

// What a click on `box` means; fields left at their defaults do not apply.
struct PanelHit {
    QRectF box;
    long rank = -1; // rankActivated(rank, step)
    int step = -1;
    QString kernel; // kernelActivated(kernel)
    QString item;   // the comparison's itemActivated(item)

    static PanelHit onRank(const QRectF& box, long rank, int step = -1) {
        PanelHit h;
        h.box = box;
        h.rank = rank;
        h.step = step;
        return h;
    }
    static PanelHit onKernel(const QRectF& box, const QString& kernel) {
        PanelHit h;
        h.box = box;
        h.kernel = kernel;
        return h;
    }
    static PanelHit onItem(const QRectF& box, const QString& item) {
        PanelHit h;
        h.box = box;
        h.item = item;
        return h;
    }
};

class PanelCanvas {
public:
    // `bounded`: the page ends at bounds.bottom() (an export); otherwise it grows (a dock).
    PanelCanvas(QPainter& painter, const QRectF& bounds, const Theme& theme, const TypeScale& type,
                bool bounded);

    QPainter& painter() const { return m_painter; }
    const Theme& theme() const { return m_theme; }
    const TypeScale& type() const { return m_type; }
    bool bounded() const { return m_bounded; }

    double left() const { return m_bounds.left(); }
    double right() const { return m_bounds.right(); }
    double width() const { return m_bounds.width(); }
    double y() const { return m_y; }
    void setY(double y) { m_y = y; }
    // Height left before the page ends; effectively unlimited on an unbounded page.
    double remaining() const;
    // The unit blocks space themselves in: the body text's size.
    double em() const { return m_type.px(TextRole::Body); }

    QFont font(TextRole role, bool bold = false) const;

    // Blocks at the cursor, each moving it down past what it drew (text wraps, never elided).
    void heading(const QString& text);
    void paragraph(const QString& text, TextRole role = TextRole::Body, bool muted = false);
    void space(double ems) { m_y += ems * em(); }

    void addHit(const PanelHit& hit) { m_hits.push_back(hit); }
    const std::vector<PanelHit>& hits() const { return m_hits; }
    // The widest thing drawn (a table wider than the page): the dock scrolls sideways to it.
    void needWidth(double w) { m_neededWidth = std::max(m_neededWidth, w); }
    double neededWidth() const { return m_neededWidth; }

private:
    QPainter& m_painter;
    QRectF m_bounds;
    Theme m_theme;
    TypeScale m_type;
    bool m_bounded;
    double m_y;
    double m_neededWidth = 0.0;
    std::vector<PanelHit> m_hits;
};

// A panel as exported: `bounds` filled with the background, a margin, `title` as a heading,
// then `draw` on a bounded page with the type of a slide as high as `bounds`.
void renderPanelPage(QPainter& painter, const QRectF& bounds, const Theme& theme,
                     const QString& title, const std::function<void(PanelCanvas&)>& draw);

// The type a docked panel draws with: a 1280×720 slide's (10 px floor, 12 px table text).
TypeScale dockedPanelType();

} // namespace wb
