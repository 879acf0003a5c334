// ClusterMapView::paint at 1920x1080 with all 16,384 GPUs of the C2 blast-radius cluster, as
// playback draws it: an unchanged frame (the cached cell image is blitted) and a frame that
// changes every tick (the cells are rewritten), plus building the frame itself from the model
// (fail() and the per-GPU states), which the step does whenever t moves.
#include "drawing/theme.h"
#include "reliability/blast_radius_scenario.h"
#include "topology/cluster_map_view.h"

#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>

using namespace wb;

namespace {

const ClusterFailureModel& model() {
    static const ClusterFailureModel m(ClusterSpec{}, parseLayoutSizes("tp=8,pp=16,dp=128"));
    return m;
}

int node37() {
    return model().id(ComponentKind::Node, 37);
}

void paintMap(benchmark::State& state, bool changing) {
    ClusterMapView view;
    view.setTheme(Theme::light());
    const ClusterMapFrame a = clusterMapFrame(model(), {node37()}, 2, "blast radius");
    const ClusterMapFrame b = clusterMapFrame(model(), {node37()}, 3, "blast radius");
    view.setFrame(a);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    const QRectF bounds(image.rect());
    int tick = 0;
    for (auto _ : state) {
        if (changing)
            view.setFrame((tick++ % 2) != 0 ? b : a);
        QPainter p(&image);
        view.paint(p, bounds);
        p.end();
        benchmark::DoNotOptimize(image.bits());
    }
    state.counters["gpus"] = static_cast<double>(a.gpus.size());
}

void BM_ClusterMap_16384Gpus_Unchanged(benchmark::State& state) {
    paintMap(state, false);
}
void BM_ClusterMap_16384Gpus_NewFrameEachTick(benchmark::State& state) {
    paintMap(state, true);
}
void BM_ClusterMap_BuildFrame(benchmark::State& state) {
    const int id = node37();
    for (auto _ : state) {
        ClusterMapFrame f = clusterMapFrame(model(), {id}, 3, "blast radius");
        benchmark::DoNotOptimize(f.gpus.data());
    }
}

} // namespace

BENCHMARK(BM_ClusterMap_16384Gpus_Unchanged)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ClusterMap_16384Gpus_NewFrameEachTick)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ClusterMap_BuildFrame)->Unit(benchmark::kMillisecond);
