#include "lint/panel_lint.h"

#include "analysis/trace_analysis.h"
#include "analysis/trace_compare.h"
#include "engine/sentence.h"
#include "lint/paint_recorder.h"
#include "traces/analysis_panel.h"
#include "traces/compare_panel.h"
#include "triage/kineto_trace_generator.h"

#include <QPainter>
#include <functional>

namespace wb {

namespace {

using PanelDrawing = std::function<void(QPainter&, const QRectF&)>;

void plLint(const std::string& name, const std::string& set, const std::vector<QSize>& sizes,
            const PanelDrawing& draw, std::vector<SlideFinding>& out) {
    for (const QSize& size : sizes) {
        PaintRecorder recorder(size);
        {
            QPainter painter(&recorder);
            draw(painter, QRectF(QPointF(0, 0), size));
        }
        for (const LintFinding& f :
             lintLayout(recorder.record(), QRectF(QPointF(0, 0), size), lintFloorPx(size, false)))
            out.push_back({"panel:" + name, 1, set, size, f});
    }
}

std::vector<std::shared_ptr<const ChromeTraceResult>> plTraces(TriageCase c, int ranks) {
    TraceGeneratorConfig config;
    config.triageCase = c;
    config.ranks = ranks;
    config.stragglerRank = ranks - 1;
    return generateImportedTraces(config);
}

} // namespace

std::vector<SlideFinding> lintPanels(const std::vector<QSize>& sizes) {
    std::vector<SlideFinding> out;
    const auto healthy = plTraces(TriageCase::Healthy, 8);
    for (const int ranks : {8, 128}) {
        const auto traces = plTraces(TriageCase::Straggler, ranks);
        std::vector<RankInput> inputs;
        for (std::size_t i = 0; i < traces.size(); ++i)
            inputs.push_back({.store = &traces[i]->store, .rank = static_cast<long>(i)});
        const auto analysis =
            std::make_shared<const TraceAnalysis>(analyseTraces(inputs, AnalysisRange{}, 0));
        const std::string set = fill("%1 ranks", {std::to_string(ranks)});
        QWidget parent;
        for (AnalysisPanel* panel : makeAnalysisPanels(&parent)) {
            panel->setAnalysis(analysis);
            plLint(
                panel->panelId().toStdString(), set, sizes,
                [panel](QPainter& p, const QRectF& b) { panel->render(p, b); }, out);
            panel->setAnalysis(nullptr); // the line shown before anything is open
            plLint(
                panel->panelId().toStdString(), "nothing open", sizes,
                [panel](QPainter& p, const QRectF& b) { panel->render(p, b); }, out);
        }
        std::vector<CompareInput> before, after;
        for (const auto& t : healthy)
            before.push_back({t->path, &t->store});
        for (const auto& t : traces)
            after.push_back({t->path, &t->store});
        ComparePanel compare;
        compare.setComparison(
            std::make_shared<const TraceComparison>(compareTraces(before, after)));
        plLint(
            compare.panelId().toStdString(), "healthy 8 ranks vs " + set, sizes,
            [&compare](QPainter& p, const QRectF& b) { compare.render(p, b); }, out);
    }
    return out;
}

} // namespace wb
