// The Traces workspace's "every panel ready ≤ 1 s after the import" figure for 64 ranks:
// analyseTraces over 64 generated rank traces (the slowdown lesson's straggler job, parsed by
// the real importer), each analysis panel rendered at 1920×1080, and the two together.
// --benchmark_filter=TracePanels
#include "analysis/trace_analysis.h"
#include "traces/analysis_panel.h"
#include "triage/kineto_trace_generator.h"

#include <QImage>
#include <QPainter>
#include <QWidget>
#include <benchmark/benchmark.h>
#include <memory>

using namespace wb;

namespace {

constexpr int kPanelBenchRanks = 64;

// The traces, generated and imported once for every benchmark here.
const std::vector<std::shared_ptr<const ChromeTraceResult>>& panelBenchTraces() {
    static const auto traces = [] {
        TraceGeneratorConfig config;
        config.triageCase = TriageCase::Straggler;
        config.ranks = kPanelBenchRanks;
        config.stragglerRank = 17;
        return generateImportedTraces(config);
    }();
    return traces;
}

std::vector<RankInput> panelBenchInputs() {
    std::vector<RankInput> inputs;
    const auto& traces = panelBenchTraces();
    for (std::size_t i = 0; i < traces.size(); ++i)
        inputs.push_back({.store = &traces[i]->store, .rank = static_cast<long>(i)});
    return inputs;
}

void panelBenchRenderAll(const std::vector<AnalysisPanel*>& panels, QImage& image) {
    for (AnalysisPanel* panel : panels) {
        QPainter p(&image);
        panel->render(p, QRectF(QPointF(0, 0), image.size()));
    }
}

void BM_TracePanels_Analyse64(benchmark::State& state) {
    const auto inputs = panelBenchInputs();
    for (auto _ : state)
        benchmark::DoNotOptimize(analyseTraces(inputs, AnalysisRange{}, 0));
}

void BM_TracePanels_RenderAll64(benchmark::State& state) {
    const auto analysis = std::make_shared<const TraceAnalysis>(
        analyseTraces(panelBenchInputs(), AnalysisRange{}, 0));
    QWidget parent;
    const auto panels = makeAnalysisPanels(&parent);
    for (AnalysisPanel* panel : panels)
        panel->setAnalysis(analysis);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state)
        panelBenchRenderAll(panels, image);
}

// Import finished → every panel drawn: the workspace's figure.
void BM_TracePanels_Ready64(benchmark::State& state) {
    const auto inputs = panelBenchInputs();
    QWidget parent;
    const auto panels = makeAnalysisPanels(&parent);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        const auto analysis =
            std::make_shared<const TraceAnalysis>(analyseTraces(inputs, AnalysisRange{}, 0));
        for (AnalysisPanel* panel : panels)
            panel->setAnalysis(analysis);
        panelBenchRenderAll(panels, image);
    }
}

} // namespace

BENCHMARK(BM_TracePanels_Analyse64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TracePanels_RenderAll64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TracePanels_Ready64)->Unit(benchmark::kMillisecond);
