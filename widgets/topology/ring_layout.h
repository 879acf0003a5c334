#pragma once
// Where everything in the ring view goes for a given size, rank count and theme: rank cards on
// an ellipse, chunk cells inside each card, and the path a chunk travels between two cards.
// Kept apart from painting so tests can ask where a rank or a token should be.
#include "drawing/theme.h"

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>

namespace wb {

class RingLayout {
public:
    // Fits `ranks` cards around the centre of `bounds`; shrinks type and cells until
    // neighbouring cards no longer overlap. The caption goes inside the ring when it fits
    // there at full size, else in a strip above the ring.
    static RingLayout compute(const QRectF& bounds, int ranks, const Theme& theme,
                              const QString& caption = {});

    int ranks() const { return m_ranks; }
    QPointF centre() const { return m_centre; }
    double radiusX() const { return m_rx; }
    double radiusY() const { return m_ry; }
    // Pixel size of card labels; other text is derived from it.
    double fontPx() const { return m_em; }
    double smallFontPx() const { return m_em * 0.78; }
    double captionFontPx() const { return m_em * 1.25; }
    double cellSize() const { return m_cell; }
    QSizeF cardSize() const { return m_card; }

    // Radians clockwise from 12 o'clock; rank 0 sits at the top.
    double angle(int rank) const;
    QPointF pointAtAngle(double radians) const;
    QPointF node(int rank) const { return pointAtAngle(angle(rank)); }

    QRectF cardRect(int rank) const;
    QRectF labelRect(int rank) const;
    QRectF cellRect(int rank, int chunk) const;
    QRectF counterTextRect(int rank) const;
    QRectF barRect(int rank) const;
    // Where the phase caption goes: inside the ring, or the strip above it.
    QRectF captionRect() const;
    // A bottom corner of `size` that no card covers (left first); empty when neither is free.
    QRectF freeCorner(const QSizeF& size) const;

    // The visible stretch of ring between two cards, as a start angle and a signed sweep.
    // Neighbours go the short way (clockwise for `to` = `from` + 1).
    struct Arc {
        double start = 0.0;
        double sweep = 0.0;
    };
    Arc linkArc(int from, int to) const;
    // Where a chunk that left `from` for `to` is: 0 = leaving from's card, 1 = reaching to's.
    QPointF transferPoint(int from, int to, double progress) const;

private:
    void fit(const QRectF& bounds, double em);
    void place(const QRectF& bounds, double em);
    bool cardsOverlap() const;
    double exitFraction(int rank, double start, double sweep) const;

    int m_ranks = 0;
    int m_columns = 1;
    int m_rows = 1;
    double m_em = 12.0;
    double m_cell = 10.0;
    double m_gap = 2.0;
    double m_pad = 6.0;
    double m_counterWidth = 0.0; // counter text width at m_em, measured with the theme font
    QPointF m_centre;
    double m_rx = 0.0;
    double m_ry = 0.0;
    QSizeF m_card;
    QRectF m_bounds;
    QRectF m_captionStrip; // empty when the caption sits inside the ring
};

} // namespace wb
