#pragma once
// What every analysis panel shares, written once: the docked page (a scrolled PanelSurface at
// the docked type), the progress bar and Cancel button while the analysis runs, the "Open
// traces to see …" line while nothing is open, the Export button and context menu (CSV, PNG,
// SVG through exportPanel), the CSV tables picked by id from TraceAnalysis::tables() (the
// very tables `analyze --csv` writes), and render() for exports with the export's type scale.
// A panel adds its id, title, table ids and drawBody().
#include "traces/analysis_panel.h"
#include "traces/panel_canvas.h"

#include <QString>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QHBoxLayout;
class QProgressBar;
class QPushButton;
class QMenu;

namespace wb {

class PanelSurface;
struct PanelHit;

class TracePanel : public AnalysisPanel {
    Q_OBJECT
public:
    explicit TracePanel(QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const TraceAnalysis> analysis) override;
    void setProgress(double fraction) override;
    std::vector<AnalysisTable> tables() const override;
    void render(QPainter& painter, const QRectF& bounds) const override;
    void setTheme(const Theme& theme) override;

    const TraceAnalysis* analysis() const { return m_analysis.get(); }
    const Theme& theme() const { return m_theme; }
    PanelSurface* surface() const { return m_surface; }
    QProgressBar* progressBar() const { return m_progress; }
    QPushButton* cancelButton() const { return m_cancel; }

protected:
    // Ids of the TraceAnalysis tables this panel shows, in its order.
    virtual std::vector<std::string> tableIds() const = 0;
    // What the panel shows, for the line drawn while nothing is open: "the step time per rank".
    virtual QString subject() const = 0;
    // The panel's content below its title, for `analysis` (never null here).
    virtual void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const = 0;
    // Whether a job summary holds what the panel shows (TraceAnalysis::fromSummary): a panel
    // that needs every event says so instead of drawing empty tables as if nothing ran.
    virtual bool heldInSummary() const { return true; }

    // tables(), made once per analysis: a panel draws from these on every paint.
    const std::vector<AnalysisTable>& shownTables() const;

    // The row above the page, for a panel's own buttons (added before the Export button).
    QHBoxLayout* toolRow() const { return m_tools; }
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void draw(PanelCanvas& canvas) const;
    void activate(const PanelHit& hit);
    void fillExportMenu(QMenu& menu);
    void exportAs(unsigned formats);

    std::shared_ptr<const TraceAnalysis> m_analysis;
    mutable std::optional<std::vector<AnalysisTable>> m_tables; // shownTables(), once made
    Theme m_theme = Theme::light();
    PanelSurface* m_surface = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QHBoxLayout* m_tools = nullptr;
};

} // namespace wb
