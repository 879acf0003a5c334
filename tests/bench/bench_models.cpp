// Model benchmarks: B3's best-layout search over a 4,096-GPU cluster (target under 100 ms).
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

} // namespace

BENCHMARK(BM_LayoutSearch_4096Gpus)->Unit(benchmark::kMillisecond);
