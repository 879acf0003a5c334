#include "text/text_layout.h"

#include "text/unit_glue.h"

#include <QFontMetricsF>
#include <QStringList>
#include <QTextLayout>
#include <algorithm>
#include <cmath>

namespace wb {

double WrappedText::width() const {
    double w = 0;
    for (double lw : lineWidths)
        w = std::max(w, lw);
    return w;
}

double WrappedText::height() const {
    if (lines.empty())
        return 0;
    return lineHeight * static_cast<double>(lines.size());
}

namespace {
// The characters of `source` behind glued.text[start, start + length).
QString sourcePiece(const QString& source, const GluedText& glued, int start, int length) {
    int first = -1;
    int last = -1;
    for (int k = start; k < start + length; ++k) {
        const int s = glued.sourceIndex[static_cast<std::size_t>(k)];
        if (s < 0)
            continue;
        if (first < 0)
            first = s;
        last = s;
    }
    return first < 0 ? QString() : source.mid(first, last - first + 1);
}
} // namespace

WrappedText wrapText(const QFont& font, const QString& text, double width) {
    WrappedText out;
    out.font = font;
    const QFontMetricsF fm(font);
    out.lineHeight = fm.height();
    out.ascent = fm.ascent();
    if (text.isEmpty())
        return out;
    const bool unbounded = !(width > 0) || !std::isfinite(width);
    const QStringList paragraphs = text.split(QLatin1Char('\n'));
    for (const QString& paragraph : paragraphs) {
        if (paragraph.isEmpty()) {
            out.lines.emplace_back();
            out.lineWidths.push_back(0);
            continue;
        }
        if (unbounded) {
            out.lines.push_back(paragraph);
            out.lineWidths.push_back(fm.horizontalAdvance(paragraph));
            continue;
        }
        // Laid out with numbers glued to their units; the lines keep the paragraph's own
        // characters, so callers see exactly the text they passed in.
        const GluedText glued = glueUnits(paragraph);
        QTextLayout layout(glued.text, font);
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        layout.setTextOption(option);
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            const QString piece =
                sourcePiece(paragraph, glued, line.textStart(), line.textLength()).trimmed();
            out.lines.push_back(piece);
            out.lineWidths.push_back(fm.horizontalAdvance(piece));
        }
        layout.endLayout();
    }
    return out;
}

double wrappedHeight(const QFont& font, const QString& text, double width) {
    return wrapText(font, text, width).height();
}

double drawWrapped(QPainter& painter, const QRectF& rect, const WrappedText& block,
                   const QColor& colour, Qt::Alignment align) {
    if (block.empty())
        return 0;
    const double h = block.height();
    double top = rect.top();
    if (align & Qt::AlignVCenter)
        top = rect.center().y() - h / 2.0;
    else if (align & Qt::AlignBottom)
        top = rect.bottom() - h;
    painter.setFont(block.font);
    painter.setPen(colour);
    for (std::size_t i = 0; i < block.lines.size(); ++i) {
        const double lw = block.lineWidths[i];
        double x = rect.left();
        if (align & Qt::AlignHCenter)
            x = rect.center().x() - lw / 2.0;
        else if (align & Qt::AlignRight)
            x = rect.right() - lw;
        const double baseline = top + static_cast<double>(i) * block.lineHeight + block.ascent;
        painter.drawText(QPointF(x, baseline), block.lines[i]);
    }
    return h;
}

double drawWrappedText(QPainter& painter, const QRectF& rect, const QFont& font,
                       const QColor& colour, const QString& text, Qt::Alignment align) {
    return drawWrapped(painter, rect, wrapText(font, text, rect.width()), colour, align);
}

QString fitByParts(const QFont& font, const QString& label, double width, KeepParts keep) {
    const QFontMetricsF fm(font);
    const QString sep = QStringLiteral(" \u00b7 ");
    QStringList parts = label.split(sep);
    while (!parts.isEmpty()) {
        const QString text = parts.join(sep);
        if (fm.horizontalAdvance(text) <= width)
            return text;
        if (keep == KeepParts::Head)
            parts.removeLast();
        else
            parts.removeFirst();
    }
    return {};
}

} // namespace wb
