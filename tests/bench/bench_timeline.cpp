// TimelineView::paint at 1920x1080 over 1,000,000 events (8 lanes x 2 GPU streams, built
// deterministically): the whole trace, a ~1 ms window, and a pan step that moves the window
// every iteration so the slice cache misses and every row is re-sliced and re-merged.
#include "drawing/theme.h"
#include "timeline/timeline_view.h"

#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>
#include <memory>
#include <string>

using namespace wb;

namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000'000'000; // a Kineto-sized clock
constexpr int kLanes = 8;
constexpr int kStreams = 2;
constexpr int kPerStream = 1'000'000 / (kLanes * kStreams); // 62'500

// One rank: stream 7 computes (kernels with a memcpy now and then), stream 13 communicates;
// durations and gaps from a fixed LCG, ~1.6 µs apart on average: ~100 ms per stream.
std::shared_ptr<const TraceStore> benchLane(int lane) {
    auto s = std::make_shared<TraceStore>();
    const std::string pid = std::to_string(lane);
    std::uint64_t rng = std::uint64_t{0x9e3779b97f4a7c15} * static_cast<std::uint64_t>(lane + 1);
    const auto next = [&rng](std::uint64_t mod) {
        rng = rng * std::uint64_t{6364136223846793005} + std::uint64_t{1442695040888963407};
        return static_cast<std::int64_t>((rng >> 33) % mod);
    };
    const std::uint32_t names[] = {
        s->strings().intern("sm90_gemm_bf16"), s->strings().intern("flash_fwd_kernel"),
        s->strings().intern("elementwise_kernel"), s->strings().intern("Memcpy DtoD")};
    const std::uint32_t nccl = s->strings().intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
    const std::uint32_t category = s->strings().intern("kernel");
    s->processAt(s->process(pid)).name = "GPU " + pid;
    for (int stream = 0; stream < kStreams; ++stream) {
        const std::uint32_t track = s->track(pid, stream == 0 ? "stream 7" : "stream 13");
        std::int64_t t = kT0 + next(1000);
        for (int i = 0; i < kPerStream; ++i) {
            StoredEvent e;
            e.startNs = t;
            e.durNs = 200 + next(2000);
            e.track = track;
            e.category = category;
            if (stream == 1) {
                e.kind = EventKind::CommKernel;
                e.name = nccl;
            } else {
                const auto pick = static_cast<std::size_t>(next(4));
                e.kind = pick == 3 ? EventKind::Memcpy : EventKind::Kernel;
                e.name = names[pick];
            }
            s->addEvent(e);
            s->noteTime(e.startNs, e.endNs());
            t = e.endNs() + 100 + next(200);
        }
    }
    s->finish();
    return s;
}

const TimelineFrame& benchFrame() {
    static const TimelineFrame frame = [] {
        TimelineFrame f;
        f.title = "1,000,000 kernels";
        for (int lane = 0; lane < kLanes; ++lane)
            f.lanes.push_back({benchLane(lane), "rank " + std::to_string(lane), lane == 3});
        f.gpuOnly = true;
        return f;
    }();
    return frame;
}

const QSize kSize(1920, 1080);

void paintTimeline(benchmark::State& state, std::int64_t spanNs, bool pan) {
    const TimelineFrame& frame = benchFrame();
    TimelineView view;
    view.setTheme(Theme::light());
    view.setFrame(frame);
    view.resize(kSize);
    const std::int64_t start = view.axis().limitStartNs();
    const std::int64_t whole = view.axis().limitEndNs() - start;
    if (spanNs > 0) {
        // In the middle of the trace.
        view.setWindow(start + whole / 2, start + whole / 2 + spanNs);
    }
    QImage image(kSize, QImage::Format_ARGB32_Premultiplied);
    const QRectF bounds(image.rect());
    std::int64_t step = 0;
    for (auto _ : state) {
        if (pan) {
            // A new window each frame (alternating a few pixels left and right): the cache
            // never hits. The whole trace cannot pan, so zoomed-out pans shrink it by 1 ns.
            const std::int64_t shift = (step++ % 2) * (view.axis().spanNs() / 400 + 1);
            if (spanNs > 0)
                view.setWindow(start + whole / 2 + shift, start + whole / 2 + shift + spanNs);
            else
                view.setWindow(start + shift, start + whole - 1 + shift);
        }
        QPainter p(&image);
        view.paint(p, bounds);
        p.end();
        benchmark::DoNotOptimize(image.bits());
    }
    state.counters["rects"] = view.lastRects();
    state.counters["events"] = static_cast<double>(view.lastEvents());
}

void BM_Timeline_ZoomedOut(benchmark::State& state) {
    paintTimeline(state, 0, false);
}
void BM_Timeline_ZoomedIn_1ms(benchmark::State& state) {
    paintTimeline(state, 1'000'000, false);
}
void BM_Timeline_Pan_ZoomedOut(benchmark::State& state) {
    paintTimeline(state, 0, true);
}
void BM_Timeline_Pan_ZoomedIn_1ms(benchmark::State& state) {
    paintTimeline(state, 1'000'000, true);
}

} // namespace

BENCHMARK(BM_Timeline_ZoomedOut)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Timeline_ZoomedIn_1ms)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Timeline_Pan_ZoomedOut)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Timeline_Pan_ZoomedIn_1ms)->Unit(benchmark::kMillisecond);
