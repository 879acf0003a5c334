// Model benchmarks: B3's best-layout search over a 4,096-GPU cluster (target under 100 ms);
// B5's fabric simulation, one animation frame (kFabricFrameS of fabric time) per iteration
// (target under 4 ms).
#include "fabric/fabric_sim.h"
#include "parallel/layout_search.h"

#include <benchmark/benchmark.h>

namespace {

void BM_LayoutSearch_4096Gpus(benchmark::State& state) {
    wb::TransformerConfig m; // a dense 70B-class model
    m.params = 70e9;
    m.layers = 80;
    m.hidden = 8192;
    m.heads = 64;
    m.seq = 4096;
    m.microBatch = 1;
    m.globalBatch = 2048;
    wb::ClusterTopology t;
    t.nodes = 512;
    int evaluated = 0;
    for (auto _ : state) {
        const wb::LayoutSearch s = wb::searchLayouts(m, t, 989e12, 0.5);
        evaluated = s.evaluated;
        benchmark::DoNotOptimize(s.ranked.data());
    }
    state.counters["layouts"] = evaluated;
}

// One frame of the RoCE incast with everything on (PFC, ECN marking, DCQCN, go-back-N under
// injected loss); the argument is the number of senders (8 is the scenario's default).
void BM_FabricFrame(benchmark::State& state) {
    wb::FabricConfig c;
    c.senders = static_cast<int>(state.range(0));
    c.dropRate = 1e-3;
    wb::FabricSim sim(c);
    sim.step(200e-6); // past the start-up transient
    for (auto _ : state) {
        const wb::FabricStepStats& s = sim.step(wb::kFabricFrameS);
        benchmark::DoNotOptimize(s.counters.sent);
    }
    state.counters["slots_per_frame"] = wb::kFabricFrameS / sim.slotS();
}

} // namespace

BENCHMARK(BM_LayoutSearch_4096Gpus)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FabricFrame)->Arg(8)->Arg(64)->Arg(1024)->Unit(benchmark::kMicrosecond);
