#include "traces/panel_table.h"

#include "engine/number_format.h"
#include "text/text_layout.h"
#include "text/unit_glue.h"

#include <QFontMetricsF>
#include <algorithm>
#include <numeric>

namespace wb {

PanelTable panelTable(const AnalysisTable& table) {
    PanelTable t;
    t.id = QString::fromStdString(table.id);
    t.title = QString::fromStdString(table.title);
    for (const AnalysisColumn& c : table.columns) {
        QString h = QString::fromStdString(c.title);
        if (!c.unit.empty())
            h.append(QStringLiteral(" (")).append(QString::fromStdString(c.unit)).append(')');
        t.headers.push_back(h);
        t.alignRight.push_back(true);
    }
    // A column is text when its first row holds text (the report aligns it left too).
    if (!table.rows.empty())
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            t.alignRight[c] = !std::holds_alternative<std::string>(table.rows.front()[c]);
    t.totalRows = table.rows.size();
    for (std::size_t r = 0; r < std::min(table.rows.size(), kDockedTableRows); ++r) {
        auto& row = t.rows.emplace_back();
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            row.push_back(QString::fromStdString(table.cellText(r, c)));
    }
    return t;
}

namespace {

// Pixels added to every measured width: the wrapping layout rounds glyph advances, so a
// column exactly as wide as its text could still break it.
constexpr double kPtSlack = 2.0;

// Column widths for `avail` pixels: every cell on one line; headers on one line when the
// table fits, else wrapped at their spaces; the wrapping column takes what is left.
// `narrowest`: the least width the table can take (what a dock must scroll to), which does not
// depend on `avail`, so a dock sized by it settles.
std::vector<double> ptColumnWidths(const PanelTable& t, std::size_t rowsShown, const QFont& cell,
                                   const QFont& head, double gap, double avail, double minWrap,
                                   int& wrap, double& narrowest) {
    const std::size_t n = t.headers.size();
    const QFontMetricsF cm(cell), hm(head);
    std::vector<double> cellMax(n, 0.0), headFull(n, 0.0), headWord(n, 0.0);
    for (std::size_t c = 0; c < n; ++c) {
        headFull[c] = hm.horizontalAdvance(t.headers[c]) + kPtSlack;
        // The words wrapText may break between: a unit stays with its number ("p50 (µs)").
        for (const QString& w : glueUnits(t.headers[c]).text.split(' '))
            headWord[c] = std::max(headWord[c], hm.horizontalAdvance(w) + kPtSlack);
    }
    for (std::size_t r = 0; r < rowsShown; ++r)
        for (std::size_t c = 0; c < n && c < t.rows[r].size(); ++c)
            cellMax[c] = std::max(cellMax[c], cm.horizontalAdvance(t.rows[r][c]) + kPtSlack);
    if (wrap < 0) { // the text column with the widest cell
        double widest = 0.0;
        for (std::size_t c = 0; c < n; ++c)
            if (!t.alignRight[c] && cellMax[c] > widest) {
                widest = cellMax[c];
                wrap = static_cast<int>(c);
            }
    }
    auto total = [&](const std::vector<double>& w) {
        return std::accumulate(w.begin(), w.end(), 0.0) + gap * static_cast<double>(n - 1);
    };
    std::vector<double> w(n);
    for (std::size_t c = 0; c < n; ++c)
        w[c] = std::max(cellMax[c], headWord[c]);
    if (wrap >= 0) {
        const auto k = static_cast<std::size_t>(wrap);
        w[k] = std::max(std::min(cellMax[k], minWrap), headWord[k]);
    }
    narrowest = total(w);
    for (std::size_t c = 0; c < n; ++c)
        w[c] = std::max(cellMax[c], headFull[c]);
    if (total(w) <= avail)
        return w;
    for (std::size_t c = 0; c < n; ++c)
        w[c] = std::max(cellMax[c], headWord[c]);
    if (total(w) > avail && wrap >= 0) {
        const auto k = static_cast<std::size_t>(wrap);
        const double others = total(w) - w[k];
        w[k] = std::max({avail - others, std::min(w[k], minWrap), headWord[k]});
    }
    return w;
}

} // namespace

std::vector<QRectF> drawPanelTable(PanelCanvas& canvas, const PanelTable& table, double pageShare) {
    if (!table.title.isEmpty())
        canvas.heading(table.title);
    const Theme& theme = canvas.theme();
    QPainter& p = canvas.painter();
    const QFont cellFont = canvas.font(TextRole::Label);
    const QFont headFont = canvas.font(TextRole::Label, true);
    const QFontMetricsF cm(cellFont);
    const double line = cm.lineSpacing();
    const double padY = 0.2 * line;
    const double gap = 1.2 * cm.averageCharWidth() + 0.4 * line;
    std::vector<QRectF> boxes;
    if (table.rows.empty()) {
        canvas.paragraph(QStringLiteral("(none)"), TextRole::Label, true);
        return boxes;
    }
    // Rows that could be drawn: a bounded page holds at most its height in single lines.
    // The bottom this table stops at: its share of what is left of a bounded page.
    const double bottom = canvas.bounded() ? canvas.y() + pageShare * canvas.remaining() : 0.0;
    std::size_t shown = std::min(table.rows.size(), kDockedTableRows);
    if (canvas.bounded())
        shown = std::min(shown, static_cast<std::size_t>(std::max(0.0, canvas.remaining() / line)));
    int wrap = table.wrapColumn;
    double narrowest = 0.0;
    const std::vector<double> w = ptColumnWidths(table, shown, cellFont, headFont, gap,
                                                 canvas.width(), 12.0 * line, wrap, narrowest);
    std::vector<double> x(w.size());
    double cursor = canvas.left();
    for (std::size_t c = 0; c < w.size(); ++c) {
        x[c] = cursor;
        cursor += w[c] + gap;
    }
    const double tableWidth = cursor - gap - canvas.left();
    canvas.needWidth(narrowest);

    // Header: each title wrapped to its column, aligned like the column's cells.
    double headH = 0.0;
    std::vector<WrappedText> heads;
    for (std::size_t c = 0; c < w.size(); ++c) {
        heads.push_back(wrapText(headFont, table.headers[c], w[c] + 0.5));
        headH = std::max(headH, heads.back().height());
    }
    double y = canvas.y();
    for (std::size_t c = 0; c < w.size(); ++c)
        drawWrapped(p, QRectF(x[c], y, w[c] + 0.5, headH), heads[c], theme.foreground,
                    (table.alignRight[c] ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
    y += headH + padY;
    p.setPen(QPen(theme.grid, 1.0));
    p.drawLine(QPointF(canvas.left(), y), QPointF(canvas.left() + tableWidth, y));
    y += padY;

    const QColor stripe = mixColors(theme.background, theme.foreground, 0.05);
    const double moreLine = line + 2 * padY;
    std::size_t drawn = 0;
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& row = table.rows[r];
        WrappedText wrapped;
        double h = line;
        if (wrap >= 0) {
            const auto k = static_cast<std::size_t>(wrap);
            wrapped = wrapText(cellFont, row[k], w[k] + 0.5);
            h = std::max(h, wrapped.height());
        }
        const double rowH = h + 2 * padY;
        const bool more = r + 1 < table.rowCount();
        if (canvas.bounded() && y + rowH + (more ? moreLine : 0.0) > bottom)
            break;
        const QRectF box(canvas.left(), y, tableWidth, rowH);
        if (r % 2 == 1)
            p.fillRect(box, stripe);
        for (std::size_t c = 0; c < w.size() && c < row.size(); ++c) {
            const QRectF cell(x[c], y + padY, w[c] + 0.5, h);
            if (static_cast<int>(c) == wrap)
                drawWrapped(p, cell, wrapped, theme.foreground,
                            table.alignRight[c] ? Qt::AlignRight : Qt::AlignLeft);
            else
                drawWrappedText(p, cell, cellFont, theme.foreground, row[c],
                                table.alignRight[c] ? Qt::AlignRight : Qt::AlignLeft);
        }
        boxes.push_back(box);
        y += rowH;
        ++drawn;
    }
    canvas.setY(y + padY);
    if (drawn < table.rowCount()) {
        const long long left = static_cast<long long>(table.rowCount() - drawn);
        QString note = QString::fromStdString(formatCount(left, "more row", "more rows"));
        if (!table.id.isEmpty())
            note += QStringLiteral(" (all %1 in %2.csv)").arg(table.rowCount()).arg(table.id);
        canvas.paragraph(note, TextRole::Label, true);
    } else {
        canvas.space(0.4);
    }
    return boxes;
}

} // namespace wb
