#include "triage/kineto_trace_generator.h"

#include "collectives/collective_cost.h"
#include "engine/seeded_random.h"
#include "engine/sentence.h"
#include "import/byte_source.h"
#include "import/importers.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace wb {

namespace {

// Kernel names as the PyTorch profiler records them on an H100 (cuBLAS, FlashAttention,
// ATen); the triage never reads them, only NCCL's names matter.
constexpr const char* kLayerNorm = "void at::native::(anonymous namespace)::vectorized_layer_norm_"
                                   "kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, "
                                   "c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, "
                                   "c10::BFloat16*)";
constexpr const char* kLayerNormBwd =
    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::"
    "BFloat16, float>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, "
    "c10::BFloat16 const*, c10::BFloat16*, int)";
constexpr const char* kGemmSmall = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x64x64_"
                                   "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas";
constexpr const char* kGemmMid = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_"
                                 "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas";
constexpr const char* kGemmBig = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_"
                                 "warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas";
constexpr const char* kGemmWgrad = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize256x128x64_"
                                   "warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas";
constexpr const char* kFlashFwd =
    "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
    "cutlass::bfloat16_t>, false, true, false, false, true, true, false>(Flash_fwd_params)";
constexpr const char* kFlashBwd =
    "void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, "
    "128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t>, true, false, false, false, false, "
    "false>(Flash_bwd_params)";
constexpr const char* kGelu = "void at::native::vectorized_elementwise_kernel<4, at::native::"
                              "GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
                              "{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, "
                              "at::detail::Array<char*, 2> >(int, at::detail::Array<char*, 2>)";
constexpr const char* kGeluBwd = "void at::native::vectorized_elementwise_kernel<4, at::native::"
                                 "GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::"
                                 "GeluType)::{lambda(c10::BFloat16, c10::BFloat16)#1}, "
                                 "at::detail::Array<char*, 3> >(int, at::detail::Array<char*, 3>)";
constexpr const char* kAdd = "void at::native::vectorized_elementwise_kernel<4, at::native::"
                             "CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3> >(int, "
                             "at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, "
                             "3>)";
constexpr const char* kAdam = "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<"
                              "at::native::(anonymous namespace)::TensorListMetadata<4>, at::"
                              "native::(anonymous namespace)::FusedAdamMathFunctor<c10::BFloat16, "
                              "4, (at::native::ADAM_MODE)1, false>, double*, double, double, "
                              "double, double, double, double, bool, double*, double*>";
constexpr const char* kAllReduce =
    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

struct KernelSpec {
    const char* name;
    double baseUs;
    int grid;
};

// One transformer layer: forward ≈ 1.4 ms, backward ≈ 2.9 ms (twice the GEMMs).
const std::array<KernelSpec, 9> kForward = {{{kLayerNorm, 35, 1024},
                                             {kGemmMid, 190, 528},
                                             {kFlashFwd, 240, 512},
                                             {kGemmSmall, 95, 264},
                                             {kLayerNorm, 35, 1024},
                                             {kGemmBig, 380, 1056},
                                             {kGelu, 45, 4096},
                                             {kGemmBig, 380, 1056},
                                             {kAdd, 20, 4096}}};
const std::array<KernelSpec, 12> kBackward = {{{kAdd, 20, 4096},
                                               {kGemmBig, 380, 1056},
                                               {kGemmWgrad, 380, 1056},
                                               {kGeluBwd, 50, 4096},
                                               {kGemmBig, 380, 1056},
                                               {kGemmWgrad, 380, 1056},
                                               {kLayerNormBwd, 60, 1024},
                                               {kGemmSmall, 95, 264},
                                               {kGemmWgrad, 95, 264},
                                               {kFlashBwd, 600, 512},
                                               {kGemmMid, 380, 528},
                                               {kLayerNormBwd, 60, 1024}}};

constexpr std::int64_t kComputeStream = 7;
constexpr std::int64_t kCommStream = 13;
constexpr std::int64_t kBaseNs = 1'700'000'000'000'000'000LL; // a 2023 epoch time, like Kineto

// 1 ± spread, uniformly: a kernel's or a rank's wobble around its nominal speed.
double around(SeededRandom& rng, double spread) {
    return 1.0 + spread * (2.0 * rng.uniform() - 1.0);
}

std::int64_t ns(double us) {
    return static_cast<std::int64_t>(us * 1000.0 + 0.5);
}

void appendMicros(std::string& out, std::int64_t valueNs) {
    if (valueNs < 0) {
        out += '-';
        valueNs = -valueNs;
    }
    out += std::to_string(valueNs / 1000);
    const std::int64_t frac = valueNs % 1000;
    if (frac != 0) {
        std::string digits = std::to_string(frac);
        out += '.';
        out.append(3 - digits.size(), '0');
        out += digits;
    }
}

struct Kernel {
    const char* name;
    std::int64_t startNs;
    std::int64_t durNs;
    std::int64_t stream;
    int grid;
};

struct StepMark {
    int number;
    std::int64_t startNs;
    std::int64_t endNs;
};

struct RankTimeline {
    std::vector<Kernel> kernels;
    std::vector<StepMark> steps;
    std::int64_t clockNs = 0;    // where the compute stream is free
    std::int64_t commFreeNs = 0; // where the NCCL stream is free
    double computeFactor = 1.0;  // systematic speed of this GPU
    double jitter = 0.0;         // each kernel's spread around it
    std::int64_t skewNs = 0;     // this host's clock offset
    std::vector<std::int64_t> bucketReadyNs;
};

// Runs `specs` back to back on the compute stream from rank.clockNs.
void runKernels(RankTimeline& rank, SeededRandom& rng, const KernelSpec* specs, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const KernelSpec& k = specs[i];
        rank.clockNs += ns(2.0 + 4.0 * rng.uniform()); // launch gap
        const std::int64_t dur = ns(k.baseUs * rank.computeFactor * around(rng, rank.jitter));
        rank.kernels.push_back({k.name, rank.clockNs, dur, kComputeStream, k.grid});
        rank.clockNs += dur;
    }
}

std::string traceText(const TraceGeneratorConfig& c, int r, const RankTimeline& rank) {
    const int device = r % 8;
    const std::string gpuPid = std::to_string(device);
    const std::string cpuPid = std::to_string(4000 + r);
    std::string out;
    out.reserve(rank.kernels.size() * 330 + 1024);
    out += "{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ";
    out += std::to_string(r);
    out += ", \"world_size\": ";
    out += std::to_string(c.ranks);
    out += "},\n  \"traceName\": \"warpboard generated (modeled, not measured): case ";
    out += triageCaseName(c.triageCase);
    out += ", seed ";
    out += std::to_string(c.seed);
    out += "\",\n  \"traceEvents\": [\n";
    auto meta = [&](const char* what, const std::string& pid, const std::string& tid,
                    const std::string& name) {
        out += "  {\"ph\": \"M\", \"name\": \"";
        out += what;
        out += "\", \"pid\": ";
        out += pid;
        out += ", \"tid\": ";
        out += tid;
        out += ", \"args\": {\"name\": \"";
        out += name;
        out += "\"}},\n";
    };
    meta("process_name", gpuPid, "0", fill("GPU %1", {std::to_string(device)}));
    meta("thread_name", gpuPid, std::to_string(kComputeStream),
         fill("stream %1", {std::to_string(kComputeStream)}));
    meta("thread_name", gpuPid, std::to_string(kCommStream),
         fill("stream %1", {std::to_string(kCommStream)}));
    meta("process_name", cpuPid, "0", "python3");
    meta("thread_name", cpuPid, cpuPid, fill("thread %1 (python3)", {cpuPid}));
    for (const StepMark& s : rank.steps) {
        out += "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#";
        out += std::to_string(s.number);
        out += "\", \"pid\": ";
        out += cpuPid;
        out += ", \"tid\": ";
        out += cpuPid;
        out += ", \"ts\": ";
        appendMicros(out, s.startNs + rank.skewNs);
        out += ", \"dur\": ";
        appendMicros(out, s.endNs - s.startNs);
        out += ", \"args\": {\"External id\": ";
        out += std::to_string(s.number);
        out += "}},\n";
    }
    std::int64_t correlation = 1000;
    for (std::size_t i = 0; i < rank.kernels.size(); ++i) {
        const Kernel& k = rank.kernels[i];
        out += "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"";
        out += k.name;
        out += "\", \"pid\": ";
        out += gpuPid;
        out += ", \"tid\": ";
        out += std::to_string(k.stream);
        out += ", \"ts\": ";
        appendMicros(out, k.startNs + rank.skewNs);
        out += ", \"dur\": ";
        appendMicros(out, k.durNs);
        out += ", \"args\": {\"queued\": 0, \"device\": ";
        out += std::to_string(device);
        out += ", \"context\": 1, \"stream\": ";
        out += std::to_string(k.stream);
        out += ", \"correlation\": ";
        out += std::to_string(correlation++);
        out += ", \"grid\": [";
        out += std::to_string(k.grid);
        out += ", 1, 1], \"block\": [";
        out += k.stream == kCommStream ? "640" : "256";
        out += ", 1, 1]}}";
        out += i + 1 < rank.kernels.size() ? ",\n" : "\n";
    }
    out += "  ]\n}\n";
    return out;
}

} // namespace

const std::vector<TriageCase>& allTriageCases() {
    static const std::vector<TriageCase> cases = {TriageCase::Healthy, TriageCase::Straggler,
                                                  TriageCase::Fabric, TriageCase::BrokenOverlap};
    return cases;
}

std::string triageCaseName(TriageCase c) {
    switch (c) {
    case TriageCase::Healthy:
        return "healthy";
    case TriageCase::Straggler:
        return "straggler";
    case TriageCase::Fabric:
        return "fabric";
    case TriageCase::BrokenOverlap:
        return "overlap";
    }
    return "healthy";
}

std::string triageCaseTitle(TriageCase c) {
    switch (c) {
    case TriageCase::Healthy:
        return "Healthy";
    case TriageCase::Straggler:
        return "Straggler";
    case TriageCase::Fabric:
        return "Slow fabric";
    case TriageCase::BrokenOverlap:
        return "Broken overlap";
    }
    return "Healthy";
}

std::vector<std::string> generateKinetoTraces(const TraceGeneratorConfig& c) {
    if (c.ranks < 1 || c.steps < 1 || c.layers < 1 || c.layersPerBucket < 1)
        throw std::invalid_argument("trace generator: ranks, steps and layers must be ≥ 1");
    const auto caseIndex = static_cast<unsigned>(c.triageCase);
    SeededRandom rng(c.seed * std::uint64_t{0x9E3779B97F4A7C15} + caseIndex + 1u);
    const int n = c.ranks;
    std::vector<RankTimeline> ranks(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) {
        RankTimeline& rank = ranks[static_cast<std::size_t>(r)];
        rank.computeFactor = around(rng, c.rankSpeedSpread);
        rank.jitter = c.kernelJitter;
        if (c.triageCase == TriageCase::Straggler && r == c.stragglerRank)
            rank.computeFactor *= c.stragglerSlowdown;
        rank.skewNs = kBaseNs + ns(c.clockSkewUs * (2.0 * rng.uniform() - 1.0));
        rank.clockNs = ns(200.0 + 50.0 * rng.uniform());
    }
    // Transfer time of one bucket on a healthy ring (α-β model), scaled on a slow fabric.
    const AlphaBeta ab{10e-6, c.busBandwidthBytesPerS};
    const double transferS =
        n >= 2 ? collectiveCost(Collective::AllReduce, n, c.bucketBytes, ab).timeS : 0.0;
    const double fabric = c.triageCase == TriageCase::Fabric ? c.fabricSlowdown : 1.0;
    const int buckets = (c.layers + c.layersPerBucket - 1) / c.layersPerBucket;

    for (int step = 0; step < c.steps; ++step) {
        std::vector<std::int64_t> stepStart(static_cast<std::size_t>(n));
        for (int r = 0; r < n; ++r) {
            RankTimeline& rank = ranks[static_cast<std::size_t>(r)];
            stepStart[static_cast<std::size_t>(r)] = rank.clockNs;
            for (int l = 0; l < c.layers; ++l)
                runKernels(rank, rng, kForward.data(), kForward.size());
            rank.bucketReadyNs.clear();
            for (int l = 0; l < c.layers; ++l) {
                runKernels(rank, rng, kBackward.data(), kBackward.size());
                if ((l + 1) % c.layersPerBucket == 0 || l + 1 == c.layers)
                    rank.bucketReadyNs.push_back(rank.clockNs);
            }
        }
        // Bucketed all-reduces: each rank enters when its bucket is ready (broken overlap:
        // after its whole backward pass) and its NCCL stream is free; all leave together.
        if (n >= 2) {
            for (int b = 0; b < buckets; ++b) {
                std::vector<std::int64_t> enter(static_cast<std::size_t>(n));
                std::int64_t last = 0;
                for (int r = 0; r < n; ++r) {
                    RankTimeline& rank = ranks[static_cast<std::size_t>(r)];
                    const std::int64_t ready =
                        c.triageCase == TriageCase::BrokenOverlap
                            ? rank.clockNs
                            : rank.bucketReadyNs[static_cast<std::size_t>(b)];
                    const std::int64_t e =
                        std::max(ready + ns(8.0 + 6.0 * rng.uniform()), rank.commFreeNs);
                    enter[static_cast<std::size_t>(r)] = e;
                    last = std::max(last, e);
                }
                const std::int64_t end = last + ns(transferS * 1e6 * fabric * around(rng, 0.04));
                for (int r = 0; r < n; ++r) {
                    RankTimeline& rank = ranks[static_cast<std::size_t>(r)];
                    const std::int64_t e = enter[static_cast<std::size_t>(r)];
                    rank.kernels.push_back({.name = kAllReduce,
                                            .startNs = e,
                                            .durNs = end - e,
                                            .stream = kCommStream,
                                            .grid = 8});
                    rank.commFreeNs = end;
                }
            }
        }
        // Optimizer once every gradient is reduced, then the host prepares the next batch.
        for (int r = 0; r < n; ++r) {
            RankTimeline& rank = ranks[static_cast<std::size_t>(r)];
            rank.clockNs = std::max(rank.clockNs, rank.commFreeNs);
            const KernelSpec adam[] = {{kAdam, 700, 1320}, {kAdam, 650, 1320}};
            runKernels(rank, rng, adam, 2);
            rank.steps.push_back({.number = 100 + step,
                                  .startNs = stepStart[static_cast<std::size_t>(r)] - ns(40.0),
                                  .endNs = rank.clockNs + ns(30.0)});
            // Data loading: the GPU idles.
            rank.clockNs += ns(c.hostGapMinUs + (c.hostGapMaxUs - c.hostGapMinUs) * rng.uniform());
        }
    }
    std::vector<std::string> texts;
    texts.reserve(ranks.size());
    for (int r = 0; r < n; ++r) {
        RankTimeline& rank = ranks[static_cast<std::size_t>(r)];
        std::stable_sort(rank.kernels.begin(), rank.kernels.end(),
                         [](const Kernel& a, const Kernel& b) { return a.startNs < b.startNs; });
        texts.push_back(traceText(c, r, rank));
    }
    return texts;
}

std::shared_ptr<const ChromeTraceResult> importKinetoText(std::string text,
                                                          const std::string& name) {
    auto source = ByteSource::fromMemory(std::move(text), name);
    auto parsed = chromeTraceImporter().parse(*source, {});
    if (auto* err = std::get_if<ImportError>(&parsed))
        throw std::runtime_error(
            fill("generated trace rejected by the importer: %1", {err->describe()}));
    auto& result = std::get<std::unique_ptr<ImportResult>>(parsed);
    auto* trace = dynamic_cast<ChromeTraceResult*>(result.get());
    if (!trace)
        throw std::runtime_error("generated trace did not import as a Kineto trace");
    result.release();
    return std::shared_ptr<const ChromeTraceResult>(trace);
}

std::vector<std::shared_ptr<const ChromeTraceResult>>
generateImportedTraces(const TraceGeneratorConfig& c) {
    std::vector<std::shared_ptr<const ChromeTraceResult>> out;
    int r = 0;
    for (auto& text : generateKinetoTraces(c))
        out.push_back(importKinetoText(
            std::move(text),
            fill("generated-%1-rank%2.json", {triageCaseName(c.triageCase), std::to_string(r++)})));
    return out;
}

} // namespace wb
