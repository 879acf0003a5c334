#pragma once
// The Traces workspace's comparison of two trace sets ("before" = the open files, "after" =
// the second set opened to compare): the tables of `warpboard analyze --compare`
// (scenarios/analysis/trace_compare.h), kernels and operators, sorted by impact, with the
// same cell text as the command's report (cli/analyze_compare.h compareTableRows) and the
// per-rank-average note when the rank counts differ. Drawn through the panels' shared page
// and table (panel_surface.h, panel_table.h); a click on a row emits itemActivated.
#include "drawing/theme.h"

#include <QRectF>
#include <QWidget>
#include <memory>

class QPainter;

namespace wb {

struct TraceComparison;
class PanelCanvas;
class PanelSurface;

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(QWidget* parent = nullptr);
    // What to show; null: no second set is open.
    void setComparison(std::shared_ptr<const TraceComparison> comparison);
    const TraceComparison* comparison() const { return m_comparison.get(); }
    // Draws the panel as exported into `bounds`.
    void render(QPainter& painter, const QRectF& bounds) const;

    // Added for the exports and the tests: the colours (light until set), the file stem of
    // its picture ("compare"), the dock's title and the scrolled page.
    void setTheme(const Theme& theme);
    QString panelId() const { return QStringLiteral("compare"); }
    QString title() const { return tr("Before and after"); }
    PanelSurface* surface() const { return m_surface; }

signals:
    // A click on a kernel or operator row.
    void itemActivated(const QString& name);

private:
    void draw(PanelCanvas& canvas) const;

    std::shared_ptr<const TraceComparison> m_comparison;
    Theme m_theme = Theme::light();
    PanelSurface* m_surface = nullptr;
};

} // namespace wb
