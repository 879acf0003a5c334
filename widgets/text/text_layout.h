#pragma once
// One way to put text in a box: wrap it at word boundaries onto as many lines as it needs and
// report the height, so the caller gives room to what must be read. Nothing here elides; a
// single word wider than the box is broken inside the word rather than cut.
#include <QColor>
#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <vector>

namespace wb {

struct WrappedText {
    QFont font;
    std::vector<QString> lines;
    std::vector<double> lineWidths;
    double lineHeight = 0; // baseline to baseline
    double ascent = 0;

    double width() const;  // the widest line
    double height() const; // all lines, no trailing leading
    bool empty() const { return lines.empty(); }
};

// `text` wrapped to `width` pixels in `font`; "\n" starts a new line. A width of zero or less
// (or NaN) keeps each paragraph on one line.
WrappedText wrapText(const QFont& font, const QString& text, double width);

// Height `text` needs in `font` at `width`.
double wrappedHeight(const QFont& font, const QString& text, double width);

// Draws `block` inside `rect`: lines aligned by the horizontal flags, the block placed by the
// vertical ones (top by default). Returns the height drawn. Text past the rect's bottom is
// still drawn; callers size the rect from height() so that never happens silently.
double drawWrapped(QPainter& painter, const QRectF& rect, const WrappedText& block,
                   const QColor& colour, Qt::Alignment align = Qt::AlignLeft | Qt::AlignTop);

// wrapText + drawWrapped in one call, for text laid out where it is drawn.
double drawWrappedText(QPainter& painter, const QRectF& rect, const QFont& font,
                       const QColor& colour, const QString& text,
                       Qt::Alignment align = Qt::AlignLeft | Qt::AlignTop);

// Labels made of parts ("job 196 · 64 GPUs · high", "GPU 0 · stream 7") shortened by whole
// parts until they fit `width`: Head keeps the leading parts ("job 196 · 64 GPUs"), Tail the
// trailing ones ("stream 7"). Empty when not even one part fits; never a cut word.
enum class KeepParts { Head, Tail };
QString fitByParts(const QFont& font, const QString& label, double width, KeepParts keep);

} // namespace wb
