#include "traces/trace_panel.h"

#include "analysis/trace_analysis.h"
#include "traces/panel_export.h"
#include "traces/panel_surface.h"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace wb {

TracePanel::TracePanel(QWidget* parent)
    : AnalysisPanel(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_tools = new QHBoxLayout;
    m_tools->setContentsMargins(4, 2, 4, 0);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_tools->addWidget(m_progress, 1);
    m_tools->addWidget(m_cancel);
    m_tools->addStretch();
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(exportButton);
    // Filled when shown: whether there are tables to export is the subclass's to say, and a
    // constructor cannot ask it.
    connect(menu, &QMenu::aboutToShow, this, [this, menu] {
        menu->clear();
        fillExportMenu(*menu);
    });
    exportButton->setMenu(menu);
    m_tools->addWidget(exportButton);
    layout->addLayout(m_tools);
    m_progress->hide();
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, &AnalysisPanel::cancelRequested);

    m_surface = new PanelSurface([this](PanelCanvas& c) { draw(c); });
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_surface);
    layout->addWidget(scroll, 1);
    connect(m_surface, &PanelSurface::hitActivated, this, &TracePanel::activate);
}

void TracePanel::setAnalysis(std::shared_ptr<const TraceAnalysis> analysis) {
    m_analysis = std::move(analysis);
    m_tables.reset();
    m_surface->update();
}

void TracePanel::setProgress(double fraction) {
    const bool running = fraction >= 0.0;
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (running)
        m_progress->setValue(static_cast<int>(std::min(fraction, 1.0) * 1000.0));
}

std::vector<AnalysisTable> TracePanel::tables() const {
    return shownTables();
}

const std::vector<AnalysisTable>& TracePanel::shownTables() const {
    if (m_tables)
        return *m_tables;
    std::vector<AnalysisTable>& out = m_tables.emplace();
    if (!m_analysis)
        return out;
    std::vector<AnalysisTable> all = m_analysis->tables();
    for (const std::string& id : tableIds())
        for (AnalysisTable& t : all)
            if (t.id == id)
                out.push_back(std::move(t));
    return out;
}

void TracePanel::setTheme(const Theme& theme) {
    m_theme = theme;
    m_surface->setTheme(theme);
}

void TracePanel::draw(PanelCanvas& canvas) const {
    if (!m_analysis) {
        canvas.paragraph(tr("Open traces to see %1.").arg(subject()), TextRole::Body, true);
        return;
    }
    if (m_analysis->fromSummary && !heldInSummary()) {
        canvas.paragraph(tr("A job summary does not hold %1: it needs every event. Click a rank "
                            "in another panel to open its trace.")
                             .arg(subject()),
                         TextRole::Body, true);
        return;
    }
    drawBody(canvas, *m_analysis);
}

void TracePanel::render(QPainter& painter, const QRectF& bounds) const {
    renderPanelPage(painter, bounds, m_theme, title(), [this](PanelCanvas& c) { draw(c); });
}

void TracePanel::activate(const PanelHit& hit) {
    if (!hit.kernel.isEmpty())
        emit kernelActivated(hit.kernel);
    else if (hit.rank >= 0)
        emit rankActivated(hit.rank, hit.step);
}

void TracePanel::fillExportMenu(QMenu& menu) {
    menu.addAction(tr("Export CSV…"), this, [this] { exportAs(PanelCsv); })
        ->setEnabled(!tableIds().empty());
    menu.addAction(tr("Export PNG…"), this, [this] { exportAs(PanelPng); });
    menu.addAction(tr("Export SVG…"), this, [this] { exportAs(PanelSvg); });
}

void TracePanel::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    fillExportMenu(menu);
    menu.exec(event->globalPos());
}

void TracePanel::exportAs(unsigned formats) {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Export “%1” to a folder").arg(title()));
    if (dir.isEmpty())
        return;
    const PanelExport result = exportPanel(*this, dir, formats);
    if (!result.error.isEmpty())
        QMessageBox::warning(this, tr("Export"), result.error);
}

} // namespace wb
