#include "traces/verdict_panel.h"

#include "analysis/trace_analysis.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "traces/panel_table.h"

#include <QHBoxLayout>
#include <QPushButton>

namespace wb {

namespace {

// The lesson that explains the rules: the workspace opens it on the same files.
const char* const kVerdictLesson = "slowdown-triage";

QString vpMicros(double us) {
    return QString::fromStdString(formatSi(us * 1e-6, "s", 4));
}

QString vpPercent(double pct) {
    return QString::fromStdString(formatPercent(pct));
}

} // namespace

VerdictPanel::VerdictPanel(QWidget* parent)
    : TracePanel(parent) {
    m_explain = new QPushButton(tr("Why this verdict?"), this);
    m_explain->setToolTip(tr("Opens the slowdown-triage lesson on these files"));
    toolRow()->insertWidget(toolRow()->count() - 1, m_explain);
    connect(m_explain, &QPushButton::clicked, this,
            [this] { emit explainRequested(QString::fromLatin1(kVerdictLesson)); });
}

void VerdictPanel::drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const {
    const TriageVerdict& v = analysis.triage;
    QString head = tr("Verdict: %1").arg(QString::fromStdString(v.verdict));
    if (v.stragglerRank)
        head += tr(" (rank %1)").arg(*v.stragglerRank);
    canvas.heading(head);
    canvas.paragraph(QString::fromStdString(v.evidence));
    const TriageMeasures& m = v.measures;
    PanelTable t;
    t.title = tr("What the rules compared");
    t.headers = {tr("measure"), tr("value")};
    t.alignRight = {false, true};
    auto add = [&t](const QString& what, const QString& value) { t.rows.push_back({what, value}); };
    if (m.heaviestRank >= 0) {
        add(tr("rank with the most compute"), QString::number(m.heaviestRank));
        add(tr("its compute"), vpMicros(m.heaviestComputeUs));
        add(tr("the other ranks' median compute"), vpMicros(m.othersComputeUs));
        add(tr("its excess over them"), vpPercent(m.excessPct));
        add(tr("its wait in collectives"), vpMicros(m.heaviestWaitUs));
        add(tr("the other ranks' median wait"), vpMicros(m.othersWaitUs));
    }
    add(tr("median GPU window"), vpMicros(m.medianWindowUs));
    add(tr("median communication"), vpMicros(m.medianCommUs));
    add(tr("median overlap (of communication)"), vpPercent(m.medianOverlapPct));
    add(tr("median hidden share"), vpPercent(m.medianHiddenPct));
    add(tr("median exposed communication"), vpMicros(m.medianExposedUs));
    add(tr("median wait in collectives"), vpMicros(m.medianWaitUs));
    drawPanelTable(canvas, t);
    if (canvas.bounded())
        canvas.paragraph(tr("“Why this verdict?” in the Traces workspace opens the %1 lesson on "
                            "these files.")
                             .arg(QString::fromLatin1(kVerdictLesson)),
                         TextRole::Label, true);
}

} // namespace wb
