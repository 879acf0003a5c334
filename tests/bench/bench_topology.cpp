// TopologyView::paint at 1920x1080 for a 16-node x 8-GPU cluster (4 leaves, 2 spines) with 512
// flows, as one animation tick draws it: every link coloured, every GPU filled, the packets of
// all flows (capped at TopologyView::kMaxPackets). The phase advances each iteration so the
// packets move as they do during playback.
#include "drawing/theme.h"
#include "topology/topology_view.h"

#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>
#include <string>

using namespace wb;

namespace {

TopologyFrame benchCluster(int flows, double rate) {
    TopologyFrame f;
    f.title = "Cluster · 16 nodes × 8 GPUs · TP 8, PP 4, DP 4";
    for (int l = 0; l < 4; ++l)
        f.leaves.push_back({"leaf " + std::to_string(l), 0.25 * l, "leaf"});
    for (int n = 0; n < 16; ++n) {
        TopologyNode node{"node " + std::to_string(n), n / 4, {}, "node"};
        for (int g = 0; g < 8; ++g)
            node.gpus.push_back(
                {std::to_string(g), g % 3, 0.1 * g, (n * 8 + g) % 11 / 10.0, "gpu"});
        f.nodes.push_back(node);
    }
    f.spines = 2;
    f.hiddenNodes = 112;
    f.flowClasses = {"TP", "PP", "DP"};
    for (int i = 0; i < flows; ++i) {
        const int from = i % 16, g = (i / 16) % 8, kind = i % 3;
        const int to =
            kind == 0 ? from : (kind == 1 ? (from + 4) % 16 : (from / 4) * 4 + (from + 1) % 4);
        f.flows.push_back({from, g, to, kind == 0 ? (g + 1) % 8 : g, kind, rate, "flow"});
    }
    f.caption = "512 flows";
    return f;
}

void paintTopology(benchmark::State& state, double rate) {
    TopologyView view;
    view.setTheme(Theme::light());
    TopologyFrame frame = benchCluster(512, rate);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    const QRectF bounds(image.rect());
    int tick = 0;
    for (auto _ : state) {
        frame.phaseS = (tick++) / 60.0;
        view.setFrame(frame);
        QPainter p(&image);
        view.paint(p, bounds);
        p.end();
        benchmark::DoNotOptimize(image.bits());
    }
    state.counters["packets"] =
        static_cast<double>(TopologyView::packets(frame, view.layoutFor(bounds)).size());
}

// A few packets per route (the scenario's ordinary rates) and saturated routes (the cap).
void BM_Topology_16Nodes_512Flows(benchmark::State& state) {
    paintTopology(state, 4.0);
}
void BM_Topology_16Nodes_512Flows_Saturated(benchmark::State& state) {
    paintTopology(state, 1e6);
}
// No packets: what the links, boxes and text cost alone.
void BM_Topology_16Nodes_NoPackets(benchmark::State& state) {
    paintTopology(state, 0.0);
}

} // namespace

BENCHMARK(BM_Topology_16Nodes_512Flows)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Topology_16Nodes_512Flows_Saturated)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Topology_16Nodes_NoPackets)->Unit(benchmark::kMillisecond);
