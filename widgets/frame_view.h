#pragma once
// What every frame view shares: the frame it shows (an equal frame changes nothing and
// paints nothing), the theme, and painting through paint() so that the screen, exports and
// tests render the same pixels. A view adds its drawing, its layout and its hover text.
#include "theme.h"

#include <QPaintEvent>
#include <QPainter>
#include <QWidget>
#include <utility>

namespace wb {

template <typename Frame> class FrameView : public QWidget {
public:
    explicit FrameView(QWidget* parent = nullptr)
        : QWidget(parent) {
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

    void setFrame(const Frame& frame) {
        if (frame == m_frame)
            return;
        const Frame previous = std::exchange(m_frame, frame);
        frameChanged(previous);
        update();
    }
    const Frame& frame() const { return m_frame; }

    void setTheme(const Theme& theme) {
        m_theme = theme;
        themeChanged();
        update();
    }
    const Theme& theme() const { return m_theme; }

    // Paints the whole view into `bounds`; paintEvent and exports both come through here.
    virtual void paint(QPainter& painter, const QRectF& bounds) const = 0;

protected:
    // Derived state (layouts, indexes) follows the frame or the theme here.
    virtual void frameChanged(const Frame& previous) { (void)previous; }
    virtual void themeChanged() {}

    void paintEvent(QPaintEvent* /*event*/) override {
        QPainter painter(this);
        paint(painter, QRectF(rect()));
    }

    Frame m_frame;
    Theme m_theme = Theme::light();
};

} // namespace wb
