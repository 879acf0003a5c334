// Model benchmarks: B3's best-layout search over a 4,096-GPU cluster (target under 100 ms);
// B6's MoE router, one frame of simulation = one training step of the gate over 512 tokens ×
// 64 experts (target under 4 ms, so the view can step it every frame).
#include "moe/moe_routing_sim.h"
#include "parallel/layout_search.h"

#include <benchmark/benchmark.h>
#include <memory>

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

void BM_MoeRouterStep_512Tokens_64Experts(benchmark::State& state) {
    wb::MoeRoutingConfig c;
    c.tokens = 512;
    c.experts = 64;
    c.topK = 2;
    c.dim = 32;
    c.balancing = static_cast<wb::Balancing>(state.range(0));
    auto sim = std::make_unique<wb::MoeRoutingSim>(c);
    for (auto _ : state) {
        // A fresh router now and then keeps the history (one record per step) bounded.
        if (sim->stepsDone() == 2000) {
            state.PauseTiming();
            sim = std::make_unique<wb::MoeRoutingSim>(c);
            state.ResumeTiming();
        }
        benchmark::DoNotOptimize(sim->step().maxLoadFraction);
    }
    state.SetLabel(wb::balancingName(c.balancing));
}

} // namespace

BENCHMARK(BM_LayoutSearch_4096Gpus)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MoeRouterStep_512Tokens_64Experts)
    ->Arg(static_cast<int>(wb::Balancing::None))
    ->Arg(static_cast<int>(wb::Balancing::AuxLoss))
    ->Arg(static_cast<int>(wb::Balancing::Bias))
    ->Unit(benchmark::kMillisecond);
