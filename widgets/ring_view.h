#pragma once
// Draws a ring collective at one moment: each GPU as a card on a ring with its chunk copies,
// the links between neighbours, chunks in flight, bytes sent so far, and the phase caption.
#include "frames/ring_frame.h"
#include "ring_layout.h"
#include "theme.h"

#include <QPainter>
#include <QWidget>

namespace wb {

class RingView : public QWidget {
    Q_OBJECT
public:
    explicit RingView(QWidget* parent = nullptr);

    void setFrame(const RingFrame& frame);
    const RingFrame& frame() const { return m_frame; }
    void setTheme(const Theme& theme);
    const Theme& theme() const { return m_theme; }

    // Paints the whole view into `bounds`; paintEvent and exports both come through here.
    void paint(QPainter& painter, const QRectF& bounds) const;

    // The geometry paint() uses for `bounds`, so tests can find what it drew.
    RingLayout layoutFor(const QRectF& bounds) const;

    // The texts the view shows, for tests and accessibility.
    static QString caption(const RingFrame& frame);
    static QString counterText(const RingFrame& frame, int rank);

    QSize sizeHint() const override { return {640, 600}; }
    QSize minimumSizeHint() const override { return {240, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    RingFrame m_frame;
    Theme m_theme = Theme::light();
};

} // namespace wb
