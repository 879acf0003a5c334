// Model benchmarks: the fabric-mapping lesson's best-layout search over a 4,096-GPU cluster (target
// under 100 ms); the failures-checkpoint lesson's goodput Monte Carlo at Llama 3 scale (16,384 GPUs
// × 54 days × 1,000 trials, target under 1 s on one core); the blast-radius lesson's blast radius
// per click and its single-point-of-failure scan. the roce-vs-infiniband lesson's fabric
// simulation, one animation frame (kFabricFrameS of fabric time) per iteration (target under 4 ms).
// the scheduler lesson's scheduler simulation of 10,000 jobs under each policy (target under 1 s).
// the moe-routing lesson's MoE router, one frame of simulation = one training step of the gate over
// 512 tokens × 64 experts (target under 4 ms, so the view can step it every frame).
#include "fabric/fabric_sim.h"
#include "moe/moe_routing_sim.h"
#include "parallel/layout_search.h"
#include "planning/cluster_scheduler.h"
#include "platform.h"
#include "reliability/cluster_failure_model.h"
#include "reliability/failure_simulator.h"
#include "reliability/llama3_interruptions.h"

#include <benchmark/benchmark.h>
#include <memory>

namespace {

void BM_LayoutSearch_4096Gpus(benchmark::State& state) {
    wb::clearVectorUpperState(); // the render benchmarks before may leave it set
    wb::TransformerConfig m;     // a dense 70B-class model
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

// 16,384 GPUs with Llama 3's per-GPU MTBF for GPU faults (≈ 79,000 h, FACTS.md §4.5), 54 days.
wb::JobConfig llamaScaleJob() {
    return wb::llama3ScaleGpuJob(30 * 60.0, 2 * 60.0, 10 * 60.0);
}

// Checkpoint every 30 min (near Young's 34 min at M ≈ 4.8 h, δ = 2 min): ~270 failures and
// ~2,400 checkpoints per trial; the simulator skips whole failure-free cycles at once.
void BM_Goodput_16kGpus_54Days_1000Trials(benchmark::State& state) {
    wb::clearVectorUpperState(); // the render benchmarks before may leave it set
    const wb::JobConfig c = llamaScaleJob();
    wb::GoodputStats s;
    for (auto _ : state) {
        s = wb::simulateGoodput(c, 1000, 1);
        // The whole struct, through memory: DoNotOptimize on a lone double can clobber it.
        benchmark::DoNotOptimize(s);
    }
    state.counters["goodput"] = s.mean;
    state.counters["failures_per_trial"] = s.failuresMean;
}

// One 54-day run with its full segment timeline (what the failures-checkpoint view draws).
void BM_GoodputTimeline_16kGpus_54Days(benchmark::State& state) {
    wb::clearVectorUpperState(); // the render benchmarks before may leave it set
    const wb::JobConfig c = llamaScaleJob();
    std::size_t segments = 0;
    for (auto _ : state) {
        const wb::JobRun r = wb::simulateJob(c, 1);
        segments = r.segments.size();
        benchmark::DoNotOptimize(r.segments.data());
    }
    state.counters["segments"] = static_cast<double>(segments);
}

wb::ParallelLayout llamaLayout() {
    wb::ParallelLayout l;
    l.tp = 8;
    l.pp = 16;
    l.dp = 128;
    return l;
}

void BM_BlastRadius_FailCoolingZone(benchmark::State& state) {
    wb::clearVectorUpperState(); // the render benchmarks before may leave it set
    const wb::ClusterFailureModel model(wb::ClusterSpec{}, llamaLayout());
    const int id = model.id(wb::ComponentKind::Cooling, 3);
    for (auto _ : state) {
        const wb::BlastRadius b = model.fail(id);
        benchmark::DoNotOptimize(b.lostGpus.data());
    }
}

void BM_BlastRadius_BuildAndScanSpofs(benchmark::State& state) {
    wb::clearVectorUpperState(); // the render benchmarks before may leave it set
    for (auto _ : state) {
        const wb::ClusterFailureModel model(wb::ClusterSpec{}, llamaLayout());
        const auto spofs = model.singlePointsOfFailure();
        benchmark::DoNotOptimize(spofs.data());
    }
}

// One frame of the RoCE incast with everything on (PFC, ECN marking, DCQCN, go-back-N under
// injected loss); the argument is the number of senders (8 is the scenario's default).
void BM_FabricFrame(benchmark::State& state) {
    wb::clearVectorUpperState(); // the render benchmarks before may leave it set
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
// The trace is generated once outside the timing: what is measured is the simulation.
void BM_Scheduler_10000Jobs(benchmark::State& state) {
    wb::clearVectorUpperState(); // the render benchmarks before may leave it set
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
void BM_MoeRouterStep_512Tokens_64Experts(benchmark::State& state) {
    wb::clearVectorUpperState(); // the render benchmarks before may leave it set
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
BENCHMARK(BM_Goodput_16kGpus_54Days_1000Trials)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GoodputTimeline_16kGpus_54Days)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BlastRadius_FailCoolingZone)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BlastRadius_BuildAndScanSpofs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FabricFrame)->Arg(8)->Arg(64)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Scheduler_10000Jobs)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MoeRouterStep_512Tokens_64Experts)
    ->Arg(static_cast<int>(wb::Balancing::None))
    ->Arg(static_cast<int>(wb::Balancing::AuxLoss))
    ->Arg(static_cast<int>(wb::Balancing::Bias))
    ->Unit(benchmark::kMillisecond);
