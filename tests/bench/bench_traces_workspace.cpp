// The Traces workspace's timeline with 64 ranks open: TimelineView::paint at 1920x1080 over
// 64 generated Kineto ranks (the straggler case, 10 ProfilerSteps of 24 layers each, imported
// through the real importer and laned as the workspace lanes them: "rank N", the straggler
// emphasised), whole trace and while panning (a new window every frame, so every row is
// re-sliced). Budget: 8 ms a frame. And the analysis every panel waits for (budget: 1 s).
#include "analysis/trace_analysis.h"
#include "drawing/theme.h"
#include "timeline/timeline_view.h"
#include "traces/trace_set.h"
#include "triage/kineto_trace_generator.h"

#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>

using namespace wb;

namespace {

const TraceSet& workspaceSet64() {
    static const TraceSet set = [] {
        TraceGeneratorConfig config;
        config.triageCase = TriageCase::Straggler;
        config.ranks = 64;
        config.stragglerRank = 17;
        config.steps = 10;
        config.layers = 24;
        const auto traces = generateImportedTraces(config);
        return TraceSet::fromBatch({traces.begin(), traces.end()});
    }();
    return set;
}

const TimelineFrame& workspaceFrame64() {
    static const TimelineFrame frame = [] {
        TimelineFrame f;
        f.title = "Your traces: 64 ranks";
        f.lanes = workspaceSet64().lanes(17L);
        return f;
    }();
    return frame;
}

void paintWorkspaceTimeline(benchmark::State& state, bool pan) {
    const QSize size(1920, 1080);
    TimelineView view;
    view.setTheme(Theme::light());
    view.setTypeScale(TypeScale::forSlide(size.height()));
    view.setFrame(workspaceFrame64());
    view.resize(size);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    const QRectF bounds(image.rect());
    const std::int64_t start = view.axis().limitStartNs();
    const std::int64_t whole = view.axis().limitEndNs() - start;
    std::int64_t frame = 0;
    for (auto _ : state) {
        if (pan) {
            const std::int64_t shift = (frame++ % 2) * (whole / 400 + 1);
            view.setWindow(start + shift, start + whole - 1 + shift);
        }
        QPainter p(&image);
        view.paint(p, bounds);
        p.end();
        benchmark::DoNotOptimize(image.bits());
    }
    std::uint64_t events = 0;
    for (const TimelineLane& lane : workspaceFrame64().lanes)
        events += lane.store->events().size();
    state.counters["ranks"] = static_cast<double>(workspaceFrame64().lanes.size());
    state.counters["events"] = static_cast<double>(events);
    state.counters["rects"] = view.lastRects();
}

void BM_TracesWorkspace_64Ranks_Timeline(benchmark::State& state) {
    paintWorkspaceTimeline(state, false);
}
void BM_TracesWorkspace_64Ranks_TimelinePan(benchmark::State& state) {
    paintWorkspaceTimeline(state, true);
}

// What the panels wait for after an import: the whole trace's analysis (AnalysisJob's work).
void BM_TracesWorkspace_64Ranks_Analysis(benchmark::State& state) {
    const TraceSet& set = workspaceSet64();
    for (auto _ : state) {
        const TraceAnalysis a = analyseTraces(set.rankInputs(), AnalysisRange{}, set.worldSize());
        benchmark::DoNotOptimize(a.triage.verdict.data());
    }
}

} // namespace

BENCHMARK(BM_TracesWorkspace_64Ranks_Timeline)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TracesWorkspace_64Ranks_TimelinePan)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TracesWorkspace_64Ranks_Analysis)->Unit(benchmark::kMillisecond);
