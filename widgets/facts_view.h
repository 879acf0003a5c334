#pragma once
// A compact table of the numbers a step is about: label, value and, in small muted type, where
// the number comes from. Hovering a row shows its source in full.
#include "frames/facts_frame.h"
#include "theme.h"

#include <QPainter>
#include <QWidget>
#include <vector>

namespace wb {

class FactsView : public QWidget {
    Q_OBJECT
public:
    explicit FactsView(QWidget* parent = nullptr);

    void setFrame(const FactsFrame& frame);
    const FactsFrame& frame() const { return m_frame; }
    void setTheme(const Theme& theme);
    const Theme& theme() const { return m_theme; }

    void paint(QPainter& painter, const QRectF& bounds) const;

    // Row bands for a given area; the view itself uses rect().
    std::vector<QRectF> rowRects(const QRectF& bounds) const;
    // Index of the row under `pos` in widget coordinates, or -1.
    int rowAt(const QPointF& pos) const;

    QSize sizeHint() const override { return {420, 320}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Metrics {
        double px = 12.0; // label and value size
        double pad = 8.0;
        double titleH = 0.0;
        double rowH = 0.0;
    };
    Metrics metrics(const QRectF& bounds) const;

    FactsFrame m_frame;
    Theme m_theme = Theme::light();
};

} // namespace wb
