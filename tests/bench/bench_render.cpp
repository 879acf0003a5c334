// Frame render cost of each view at 1920x1080 offscreen, the per-tick cost of playback
// (new frames + render), and wall time from process start to the first painted frame.
#include "drawing/theme.h"
#include "engine/registry.h"
#include "kineto_generator.h"
#include "platform.h"
#include "scenario_session.h"
#include "slide_widget.h"
#include "stage/frame_stage.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <algorithm>
#include <benchmark/benchmark.h>
#ifdef WB_HAVE_SIMDJSON
#include <simdjson.h>
#endif

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
    clearVectorUpperState(); // as the app does before each tick (see platform.h)
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
// The GPU-mechanics views, each with a hand-built frame (no scenario involved).
WarpFrame benchWarp() {
    WarpFrame f;
    f.title = "if (threadIdx.x % 2) v = v * 3; else v = v + 1;";
    f.program = {"v = threadIdx.x", "p = v % 2",       "@p bra ELSE",  "v = v * 3",
                 "bra JOIN",        "ELSE: v = v + 1", "JOIN: store v"};
    f.pc = 3;
    f.lanes.resize(32);
    for (std::size_t i = 0; i < 32; ++i) {
        f.lanes[i].active = i % 2 == 1;
        f.lanes[i].value = static_cast<std::int64_t>(i * 3);
    }
    f.stack = {
        {0xffffffffU, 6, -1, "after if"}, {0x55555555U, 5, 6, "else"}, {0xaaaaaaaaU, 3, 6, "then"}};
    f.issued = 4;
    f.activeLaneSlots = 96;
    f.efficiency = 0.75;
    f.diverged = true;
    return f;
}
void BM_WarpLanesView(benchmark::State& state) {
    renderFrames(state, Frames{{benchWarp()}});
}

// 132 SMs with 8 resident blocks each (1056 chips) and busy schedulers.
void BM_SmGridView_132(benchmark::State& state) {
    SmGridFrame f;
    f.title = "4000 blocks of 256 threads on 132 SMs";
    f.smCount = 132;
    f.maxBlocksPerSm = 8;
    f.warpsPerBlock = 8;
    f.wave = 2;
    f.waves = 4;
    f.blocksTotal = 4000;
    f.blocksDone = 1056;
    f.tailUtilization = 0.79;
    f.sms.resize(132);
    int block = 1056;
    for (SmState& sm : f.sms) {
        for (int i = 0; i < 8; ++i) {
            sm.blocks.push_back(block++);
        }
        sm.subPartitionWarps = {16, 16, 16, 16};
        sm.tip = "SM";
    }
    renderFrames(state, Frames{{f}});
}

MemoryAccessFrame benchAccess(bool shared, std::uint64_t stride) {
    MemoryAccessFrame f;
    f.title = shared ? "tile[threadIdx.x][0]" : "store out[x * n + y]";
    f.instruction = shared ? "ld.shared.f32" : "st.global.f32";
    f.space = shared ? MemoryAccessFrame::Space::Shared : MemoryAccessFrame::Space::Global;
    f.lanes.resize(32);
    std::vector<int> perBank(32, 0);
    for (std::uint64_t i = 0; i < 32; ++i) {
        LaneAccess& l = f.lanes[i];
        l.address = i * stride;
        l.word = l.address / 4;
        l.bank = static_cast<int>(l.word % 32);
        f.sectors.push_back(l.address / 32);
        if (shared) {
            f.bankHits.push_back({l.bank, l.word / 32, {static_cast<int>(i)}});
            ++perBank[static_cast<std::size_t>(l.bank)];
        }
    }
    std::sort(f.sectors.begin(), f.sectors.end());
    f.sectors.erase(std::unique(f.sectors.begin(), f.sectors.end()), f.sectors.end());
    for (const auto s : f.sectors) {
        if (f.lines.empty() || f.lines.back() != s / 4) {
            f.lines.push_back(s / 4);
        }
    }
    for (LaneAccess& l : f.lanes) {
        l.sector =
            static_cast<int>(std::lower_bound(f.sectors.begin(), f.sectors.end(), l.address / 32) -
                             f.sectors.begin());
    }
    f.sectorsPerRequest = static_cast<double>(f.sectors.size());
    f.wavefronts = *std::max_element(perBank.begin(), perBank.end());
    f.highlightLane = 5;
    return f;
}
void BM_MemoryAccessView_GlobalStrided(benchmark::State& state) {
    renderFrames(state, Frames{{benchAccess(false, 4096)}});
}
void BM_MemoryAccessView_Shared32Way(benchmark::State& state) {
    renderFrames(state, Frames{{benchAccess(true, 128)}});
}

void BM_LadderView(benchmark::State& state) {
    LadderFrame f;
    f.title = "H100 SXM memory hierarchy";
    f.levels = {
        {"Registers", "256 KB / SM", 1.0, 0.57, 0.0, "CUDA guide", "", false, "", ""},
        {"Shared / L1", "256 KB / SM", 30.0, 17.1, 33000.0, "microbenchmarks", "", false, "", ""},
        {"L2", "50 MB", 260.0, 148.0, 12000.0, "microbenchmarks", "", true, "", ""},
        {"HBM3", "80 GB", 480.0, 273.0, 3350.0, "datasheet", "", false, "", ""}};
    f.bytesInFlightNeeded = 40e3;
    f.bytesInFlightProvided = 12e3;
    f.gaugeLabel = "Little's law for L2";
    f.gaugeSource = "latency x bandwidth";
    renderFrames(state, Frames{{f}});
}

// 4 schedulers x 4000 cycles, runs of a few cycles: more cycles than pixels.
void BM_IssueTimelineView_4000(benchmark::State& state) {
    IssueTimelineFrame f;
    f.title = "8 warps per scheduler";
    f.cycles = 4000;
    f.shownUpTo = 4000;
    f.warpsPerScheduler = 8;
    f.issued.assign(4, std::vector<int>(4000, -1));
    for (std::size_t s = 0; s < 4; ++s) {
        for (std::size_t c = 0; c < 4000; ++c) {
            const std::size_t run = c / 3;
            f.issued[s][c] = run % 5 == 4 ? -1 : static_cast<int>(s * 8 + run % 8);
        }
    }
    f.utilization = 0.8;
    f.caption = "8 warps hide the latency";
    renderFrames(state, Frames{{f}});
}

void BM_Stage_RingStep(benchmark::State& state) {
    renderFrames(state, framesOf("ring-allreduce", 1, 0.5, "ranks", "16"));
}

// The roce-vs-infiniband incast (RoCE with PFC, 8 senders, mid-run) as one FabricView filling the
// stage.
void BM_FabricView_PfcIncast(benchmark::State& state) {
    const Frames frames = framesOf("roce-vs-infiniband", 1, 0.5);
    renderFrames(state, Frames{{frames.items.front()}});
}

// nccl-topology: two servers' parts, links and NCCL's rings with their packets, alone on the stage;
// and the whole step (the view plus the per-channel bandwidth panel), frames computed once.
void BM_NodeTopologyView_Rings(benchmark::State& state) {
    Frames f = framesOf("nccl-topology", 1, 0.5);
    f.items.resize(1);
    renderFrames(state, f);
}
void BM_Stage_NodeRingsStep(benchmark::State& state) {
    renderFrames(state, framesOf("nccl-topology", 1, 0.5));
}
// The frames alone: what the model computes per tick for that step.
void BM_NodeRingsFrames(benchmark::State& state) {
    const Scenario& s = *findScenario("nccl-topology");
    ScenarioSession session(s, s.defaultParams());
    double t = 0.0;
    for (auto _ : state) {
        t = t >= 1.0 ? 0.0 : t + 1.0 / 240.0;
        benchmark::DoNotOptimize(session.frames(1, t).items.size());
    }
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
    clearVectorUpperState(); // ScenarioSession::frames clears it again each tick
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
BENCHMARK(BM_WarpLanesView)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SmGridView_132)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoryAccessView_GlobalStrided)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoryAccessView_Shared32Way)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LadderView)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IssueTimelineView_4000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Stage_RingStep)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FabricView_PfcIncast)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NodeTopologyView_Rings)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Stage_NodeRingsStep)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NodeRingsFrames)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, ring_reduce_scatter, "ring-allreduce", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, alpha_beta_chart, "ring-allreduce", 5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, roofline_batch_sweep, "roofline", 5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, fabric_pfc_incast, "roce-vs-infiniband", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, node_rings_packets, "nccl-topology", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, node_gpu_util_timeline, "nccl-topology", 5)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PlaybackTick, moe_collapse_training, "moe-routing", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StartupToFirstFrame)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);

// Full import of a generated Kineto trace (events stored, ready to draw) against Python's
// json.load of the same file, each as a whole process, with its peak memory. The file size
// is WB_IMPORT_BENCH_MB (default 200); set it to 0 to skip.
namespace {
struct ChildRun {
    double seconds = 0;
    double peakMiB = 0;
    bool ok = false;
};

// Runs `args` under a tiny Python wrapper that reports the child's own peak RSS.
ChildRun runMeasured(const QStringList& args) {
    QProcess p;
    QStringList wrapper{"-c", "import resource,subprocess,sys,time\n"
                              "t=time.perf_counter();r=subprocess.run(sys.argv[1:],"
                              "stdout=subprocess.DEVNULL).returncode\n"
                              "print(r, time.perf_counter()-t,"
                              "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024)"};
    p.start("python3", wrapper + args);
    if (!p.waitForFinished(600000))
        return {};
    const auto parts = QString::fromUtf8(p.readAllStandardOutput()).split(' ');
    if (parts.size() < 3)
        return {};
    return {parts[1].toDouble(), parts[2].toDouble(), parts[0].toInt() == 0};
}

QString importBenchFile() {
    static const QString path = [] {
        const double mb = qEnvironmentVariableIsSet("WB_IMPORT_BENCH_MB")
                              ? qEnvironmentVariable("WB_IMPORT_BENCH_MB").toDouble()
                              : 200.0;
        if (mb <= 0)
            return QString();
        const QString file = QDir::temp().filePath("warpboard-bench-kineto.json");
        wb::bench::writeKinetoTrace(file.toStdString(), mb);
        return file;
    }();
    return path;
}

void reportChild(benchmark::State& state, const QStringList& args) {
    const QString file = importBenchFile();
    if (file.isEmpty()) {
        state.SkipWithError("WB_IMPORT_BENCH_MB=0");
        return;
    }
    ChildRun run;
    for (auto _ : state) {
        run = runMeasured(args + QStringList{file});
        state.SetIterationTime(run.seconds);
    }
    if (!run.ok)
        state.SkipWithError("the command failed");
    const double fileMiB = static_cast<double>(QFileInfo(file).size()) / (1024.0 * 1024.0);
    state.counters["file_MiB"] = fileMiB;
    state.counters["peak_MiB"] = run.peakMiB;
    state.counters["peak_x_file"] = run.peakMiB / fileMiB;
}

void BM_ImportKineto_Warpboard(benchmark::State& state) {
    reportChild(state, {WARPBOARD_BIN, "import", "--summary", "--json"});
}
void BM_ImportKineto_PythonJsonLoad(benchmark::State& state) {
    reportChild(state, {"python3", "-c", "import json,sys; json.load(open(sys.argv[1]))"});
}
} // namespace

#ifdef WB_HAVE_SIMDJSON
// A bare simdjson on-demand pass over the same file that visits every event's ts and stores
// nothing: the speed of light for parsing this JSON (it holds the whole file in memory).
void BM_ImportKineto_SimdjsonBarePass(benchmark::State& state) {
    const QString file = importBenchFile();
    if (file.isEmpty()) {
        state.SkipWithError("WB_IMPORT_BENCH_MB=0");
        return;
    }
    for (auto _ : state) {
        simdjson::ondemand::parser parser;
        auto json = simdjson::padded_string::load(file.toStdString());
        if (json.error()) {
            state.SkipWithError("simdjson could not load the file");
            return;
        }
        simdjson::ondemand::document doc = parser.iterate(json.value());
        long events = 0;
        double last = 0;
        for (auto event : doc["traceEvents"].get_array()) {
            double ts = 0;
            if (!event["ts"].get_double().get(ts))
                last = ts;
            ++events;
        }
        benchmark::DoNotOptimize(last);
        state.counters["events"] = static_cast<double>(events);
    }
}
BENCHMARK(BM_ImportKineto_SimdjsonBarePass)->Iterations(1)->Unit(benchmark::kMillisecond);
#endif

BENCHMARK(BM_ImportKineto_Warpboard)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImportKineto_PythonJsonLoad)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    QApplication app(argc, argv);
    wb::clearVectorUpperState();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
