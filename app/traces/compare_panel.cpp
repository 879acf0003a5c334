#include "traces/compare_panel.h"

#include "analysis/trace_compare.h"
#include "cli/analyze_compare.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "traces/panel_surface.h"
#include "traces/panel_table.h"

#include <QPainter>
#include <QScrollArea>
#include <QVBoxLayout>

namespace wb {

namespace {

// One comparison table as a panel table: status and name left, figures right, the name
// wrapping; returns the items' names by row (the total row has none).
PanelTable cpTable(const QString& title, const CompareTable& table) {
    PanelTable t;
    t.title = title;
    const auto rows = cli::compareTableRows(table, 0);
    for (const std::string& h : rows.front())
        t.headers.push_back(QString::fromStdString(h));
    t.alignRight.assign(t.headers.size(), true);
    t.alignRight.front() = false;
    t.alignRight.back() = false;
    t.wrapColumn = static_cast<int>(t.headers.size()) - 1;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        auto& row = t.rows.emplace_back();
        for (const std::string& cell : rows[r])
            row.push_back(QString::fromStdString(cell));
    }
    return t;
}

// "8 ranks, generated-rank0.json to generated-rank7.json": a side's files by their first and
// last (the report's list shortens with an ellipsis, which on a panel reads as cut text).
QString cpSideText(const char* which, const CompareSide& side) {
    std::string files = side.files.empty() ? std::string() : side.files.front();
    if (side.files.size() > 1)
        files = fill("from %1 to %2", {side.files.front(), side.files.back()});
    return QString::fromStdString(
        fill("%1: %2, %3", {which, formatCount(side.ranks, "rank", "ranks"), files}));
}

void cpDrawTable(PanelCanvas& canvas, const QString& title, const CompareTable& table,
                 double pageShare) {
    canvas.heading(QString::fromStdString(
        fill("%1: %2 changed, %3 added, %4 removed, %5 unchanged",
             {title.toStdString(), std::to_string(table.changed), std::to_string(table.added),
              std::to_string(table.removed), std::to_string(table.unchanged)})));
    if (table.items.empty() && table.unchanged == 0) {
        canvas.paragraph(QObject::tr("(none on either side)"), TextRole::Label, true);
        return;
    }
    const auto boxes = drawPanelTable(canvas, cpTable(QString(), table), pageShare);
    for (std::size_t r = 0; r < boxes.size() && r < table.items.size(); ++r)
        canvas.addHit(PanelHit::onItem(boxes[r], QString::fromStdString(table.items[r].name)));
}

} // namespace

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_surface = new PanelSurface([this](PanelCanvas& c) { draw(c); });
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_surface);
    layout->addWidget(scroll);
    connect(m_surface, &PanelSurface::hitActivated, this, [this](const PanelHit& hit) {
        if (!hit.item.isEmpty())
            emit itemActivated(hit.item);
    });
}

void ComparePanel::setComparison(std::shared_ptr<const TraceComparison> comparison) {
    m_comparison = std::move(comparison);
    m_surface->update();
}

void ComparePanel::setTheme(const Theme& theme) {
    m_theme = theme;
    m_surface->setTheme(theme);
}

void ComparePanel::draw(PanelCanvas& canvas) const {
    if (!m_comparison) {
        canvas.paragraph(tr("Open a second set of traces to compare (“after”) to see which "
                            "kernels and operators changed."),
                         TextRole::Body, true);
        return;
    }
    const TraceComparison& c = *m_comparison;
    canvas.paragraph(cpSideText("before", c.before), TextRole::Label);
    canvas.paragraph(cpSideText("after", c.after), TextRole::Label);
    canvas.paragraph(QString::fromStdString(
                         fill("Figures are %1; names match exactly; operator times are inclusive "
                              "(nested ops count in their callers); by |Δ total|, largest first.",
                              {cli::compareBasisText(c)})),
                     TextRole::Label, !c.perRankAverage);
    // On a picture the kernels leave the operators room, when there are any to list.
    cpDrawTable(canvas, tr("Kernels"), c.kernels, c.operators.items.empty() ? 0.85 : 0.55);
    cpDrawTable(canvas, tr("Operators"), c.operators, 1.0);
}

void ComparePanel::render(QPainter& painter, const QRectF& bounds) const {
    renderPanelPage(painter, bounds, m_theme, title(), [this](PanelCanvas& c) { draw(c); });
}

} // namespace wb
