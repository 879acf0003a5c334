// Frame render cost of each view at 1920x1080 offscreen, the per-tick cost of playback
// (new frames + render), and wall time from process start to the first painted frame.
#include "engine/registry.h"
#include "frame_stage.h"
#include "scenario_session.h"
#include "slide_widget.h"
#include "theme.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <benchmark/benchmark.h>

using namespace wb;

namespace {
const QSize kSize(1920, 1080);

// The frames of one step of a scenario, at moment t.
Frames framesOf(const char* scenario, int step, double t, const char* param = nullptr,
                const char* value = nullptr) {
    const Scenario& s = *findScenario(scenario);
    ScenarioSession session(s, s.defaultParams());
    if (param)
        session.setParam(param, value);
    return session.frames(step, t);
}

void renderFrames(benchmark::State& state, const Frames& frames) {
    FrameStage stage;
    stage.setAttribute(Qt::WA_DontShowOnScreen);
    stage.setTheme(Theme::light());
    stage.resize(kSize);
    stage.show();
    stage.setFrames(frames);
    QImage image(kSize, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        QPainter p(&image);
        stage.render(&p);
        benchmark::DoNotOptimize(image.bits());
    }
}

void BM_RingView(benchmark::State& state) {
    Frames f = framesOf("ring-allreduce", 1, 0.5, "ranks", "16");
    f.items.resize(1); // the ring alone
    renderFrames(state, f);
}
void BM_ChartView_Roofline(benchmark::State& state) {
    Frames f = framesOf("roofline", 2, 1.0);
    f.items.resize(1);
    renderFrames(state, f);
}
void BM_ChartView_AlphaBeta(benchmark::State& state) {
    Frames f = framesOf("ring-allreduce", 5, 1.0);
    f.items.resize(1);
    renderFrames(state, f);
}
void BM_FactsView(benchmark::State& state) {
    Frames f = framesOf("roofline", 6, 1.0);
    f.items.erase(f.items.begin());
    renderFrames(state, f);
}
void BM_Stage_RingStep(benchmark::State& state) {
    renderFrames(state, framesOf("ring-allreduce", 1, 0.5, "ranks", "16"));
}

// One playback tick: compute the step's frames at a new t, hand them to the stage, paint.
void BM_PlaybackTick(benchmark::State& state, const char* scenario, int step) {
    const Scenario& s = *findScenario(scenario);
    ScenarioSession session(s, s.defaultParams());
    SlideWidget slide;
    slide.setAttribute(Qt::WA_DontShowOnScreen);
    slide.resize(kSize);
    slide.show();
    slide.setText(session.slideText(step));
    QImage image(kSize, QImage::Format_ARGB32_Premultiplied);
    double t = 0.0;
    for (auto _ : state) {
        t += 1.0 / 240.0;
        if (t > 1.0)
            t = 0.0;
        slide.setFrames(session.frames(step, t));
        QPainter p(&image);
        slide.render(&p);
        benchmark::DoNotOptimize(image.bits());
    }
}

// Process start to first painted frame, measured from outside the process.
void BM_StartupToFirstFrame(benchmark::State& state) {
    for (auto _ : state) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(env);
        QElapsedTimer timer;
        timer.start();
        p.start(WARPBOARD_BIN, {"--first-frame-benchmark", "--scenario", "ring-allreduce"});
        QByteArray out;
        while (!out.contains("first-frame-ms") && p.waitForReadyRead(10000))
            out += p.readAllStandardOutput();
        state.SetIterationTime(static_cast<double>(timer.nsecsElapsed()) / 1e9);
        p.waitForFinished(10000);
        if (!out.contains("first-frame-ms"))
            state.SkipWithError("warpboard did not report a first frame");
    }
}
} // namespace

BENCHMARK(BM_RingView)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChartView_Roofline)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChartView_AlphaBeta)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FactsView)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Stage_RingStep)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, ring_reduce_scatter, "ring-allreduce", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, alpha_beta_chart, "ring-allreduce", 5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, roofline_batch_sweep, "roofline", 5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StartupToFirstFrame)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
