#pragma once
// The slowdown triage's verdict on the open traces (triage/triage_verdict.h): the verdict,
// its evidence sentence and the values its rules compared, with "Why this verdict?", which
// opens the slowdown-triage lesson on these files (explainRequested).
#include "traces/trace_panel.h"

class QPushButton;

namespace wb {

class VerdictPanel : public TracePanel {
    Q_OBJECT
public:
    explicit VerdictPanel(QWidget* parent = nullptr);
    QString panelId() const override { return QStringLiteral("verdict"); }
    QString title() const override { return tr("Triage verdict"); }
    QPushButton* explainButton() const { return m_explain; }

protected:
    std::vector<std::string> tableIds() const override { return {}; }
    QString subject() const override { return tr("why the job is slow"); }
    void drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const override;

private:
    QPushButton* m_explain = nullptr;
};

} // namespace wb
