// Model benchmarks: B3's best-layout search over a 4,096-GPU cluster (target under 100 ms);
// C5's scheduler simulation of 10,000 jobs under each policy (target under 1 s).
#include "parallel/layout_search.h"
#include "planning/cluster_scheduler.h"

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

// The trace is generated once outside the timing: what is measured is the simulation.
void BM_Scheduler_10000Jobs(benchmark::State& state) {
    wb::JobTraceConfig t;
    t.jobs = 10000;
    t.clusterGpus = 512;
    t.seed = 1;
    const std::vector<wb::Job> trace = wb::generateJobTrace(t);
    wb::SchedulerConfig c;
    c.cluster.nodes = 64;
    c.cluster.nodesPerLeaf = 4;
    c.policy = static_cast<wb::SchedulePolicy>(state.range(0));
    std::size_t events = 0;
    for (auto _ : state) {
        const wb::ScheduleResult r = wb::simulateCluster(trace, c);
        events = r.events.size();
        benchmark::DoNotOptimize(r.utilization);
    }
    state.SetLabel(wb::schedulePolicyName(c.policy));
    state.counters["events"] = static_cast<double>(events);
}

} // namespace

BENCHMARK(BM_LayoutSearch_4096Gpus)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scheduler_10000Jobs)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
