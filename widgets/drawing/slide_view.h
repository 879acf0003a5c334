#pragma once
// The one base of the painted views. It owns what every view used to repeat: the theme, the
// slide's type scale and fonts from it (never below the floor), the layout prologue (the unit
// a view lays out in, its padding, its wrapped title and caption), and painting through
// paint() so the screen, exports, the lint and tests see the same drawing.
#include "drawing/styled_view.h"
#include "drawing/theme.h"
#include "text/text_layout.h"
#include "text/type_scale.h"

#include <QPainter>
#include <QWidget>
#include <string>

namespace wb {

// How many units (em) of width and height a view's layout needs at least; the em shrinks
// toward the type scale's floor when the view is smaller than that, never below it.
struct EmFit {
    double widthEms = 30.0;
    double heightEms = 16.0;
    double ofBody = 1.0; // the view's unit relative to the slide's body size (dense views < 1)
};

// The top of a view: padding, title and caption, both wrapped to the view's width.
struct ViewHeader {
    double em = 14.0;
    QRectF inner;   // bounds less the padding
    QRectF title;   // empty height when there is no title
    QRectF caption; // empty height when there is no caption
    WrappedText titleText;
    WrappedText captionText;
    double bottom() const { return caption.bottom(); }
};

class SlideView : public QWidget, public StyledView {
    Q_OBJECT
public:
    explicit SlideView(QWidget* parent = nullptr);

    void setTheme(const Theme& theme) override;
    const Theme& theme() const { return m_theme; }
    void setTypeScale(const TypeScale& scale) override;
    const TypeScale& typeScale() const { return m_type; }

    // Paints the whole view into `bounds`; paintEvent, exports and the lint come through here.
    virtual void paint(QPainter& painter, const QRectF& bounds) const = 0;

protected:
    // Derived state (layouts, caches) follows the theme or the type scale here.
    virtual void themeChanged() {}

    // The unit this view lays out in for `bounds`: the slide's body size, smaller only when
    // the view lacks `fit` ems, and never under the floor.
    double layoutEm(const QRectF& bounds, EmFit fit) const;
    // A font of `px` pixels raised to the floor: the only way views make fonts.
    QFont font(double px, bool bold = false) const;
    QFont monoFont(double px, bool bold = false) const;

    // The prologue nine views shared: em, padding of 0.8 em, then title (1.15 em, bold) and
    // caption (0.95 em), each wrapped onto as many lines as it needs.
    ViewHeader layoutHeader(const QRectF& bounds, EmFit fit, const std::string& title,
                            const std::string& caption) const;
    void drawHeader(QPainter& painter, const ViewHeader& header) const;

    void paintEvent(QPaintEvent* event) override;

    Theme m_theme = Theme::light();
    TypeScale m_type;
};

} // namespace wb
