// `warpboard calc pipeline | step | collective`: the parallelism models (pipeline bubble,
// transformer step on a cluster, one collective on a topology) as JSON.
#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "collectives/collective_cost.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "parallel/pipeline_schedule.h"
#include "parallel/transformer_step.h"
#include "roofline/roofline_model.h"

#include <stdexcept>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json pipeline(const Params& p) {
    const int stages = integerOf(p, "stages");
    const int micro = integerOf(p, "microbatches");
    const int v = integerOf(p, "interleave");
    const PipelineBubble b = rejecting([&] { return pipelineBubble(stages, micro, v); });
    Json j;
    j["model"] = "pipeline";
    j["stages"] = stages;
    j["microbatches"] = micro;
    j["interleave"] = v;
    j["bubble_fraction"] = b.ofIdeal;
    j["bubble_fraction_of_total"] = b.ofTotal;
    j["formula"] = "bubble time / ideal compute time = (P-1)/(V*M); of the total time: "
                   "(P-1)/(V*M + P-1), GPipe's (P-1)/(M+P-1) when V = 1";
    j["source"] = "Narayanan et al., SC'21 (Megatron-LM) section 2.2; Huang et al. (GPipe)";
    return j;
}

Json strategyJson(const StepEstimate& e, const ParallelLayout& l, const ClusterTopology& t,
                  Strategy s) {
    Json j;
    double bytes = 0, time = 0;
    Json ops = Json::array();
    for (const Traffic& tr : e.traffic) {
        if (tr.strategy != s)
            continue;
        bytes += tr.bytesPerStep();
        time += tr.timePerStep();
        Json op;
        op["op"] = tr.sendRecv ? std::string("sendrecv")
                               : collectiveNames()[static_cast<std::size_t>(tr.op)];
        op["what"] = tr.what;
        op["message_bytes"] = tr.bytes;
        op["count_per_step"] = tr.count;
        op["frequency"] = tr.frequency;
        ops.push_back(op);
    }
    const GroupSpan span = spanOf(t, {0, l.size(s), l.stride(s)});
    j["size"] = l.size(s);
    j["bytes_per_step"] = bytes;
    j["link"] = linkName(span.bottleneck);
    j["time_s"] = time;
    j["operations"] = ops;
    return j;
}

Json step(const Params& p) {
    TransformerConfig m = transformerOf(p);
    m.globalBatch = integerOf(p, "global-batch");
    m.vocab = integerOf(p, "vocab");
    ParallelLayout l;
    l.tp = integerOf(p, "tp");
    l.pp = integerOf(p, "pp");
    l.dp = integerOf(p, "dp");
    l.zero = integerOf(p, "zero");
    l.interleave = integerOf(p, "interleave");
    l.order = rejecting([&] { return parseRankOrder(p.text("rank-order")); });
    const ClusterTopology t = clusterOf(p, l.gpus(), "TP×PP×DP = ");
    const GpuSpec& gpu = gpuOf(p);
    const double peak = peakTflops(gpu, Precision::BF16).value_or(0.0) * 1e12;
    const double eff = p.number("compute-efficiency");
    const StepEstimate e = rejecting([&] { return estimateStep(m, l, t, peak, eff); });

    Json j;
    j["model"] = "step";
    j["gpus"] = l.gpus();
    j["nodes"] = t.nodes;
    j["rank_order"] = rankOrderName(l.order);
    j["flops_per_step"] = e.flops6nd;
    j["flops_per_step_megatron"] = e.flopsMegatron;
    j["microbatches"] = e.microbatches;
    j["bubble_fraction"] = e.bubbleOfIdeal;
    j["tp"] = strategyJson(e, l, t, Strategy::TP);
    j["pp"] = strategyJson(e, l, t, Strategy::PP);
    j["dp"] = strategyJson(e, l, t, Strategy::DP);
    j["compute_s"] = e.computeS;
    j["bubble_s"] = e.bubbleS;
    j["step_time_s"] = e.stepS;
    j["step_time_overlapped_s"] = e.stepOverlappedS;
    j["mfu"] = e.mfu;
    j["mfu_overlapped"] = e.mfuOverlapped;
    j["activation_bytes_per_gpu"] = e.activationBytesPerGpu;
    j["model_state_bytes_per_gpu"] = e.modelStateBytesPerGpu;
    j["buffer_bytes_per_gpu"] = e.bufferBytesPerGpu;
    j["memory_bytes_per_gpu"] = e.memoryBytesPerGpu;
    // A layout whose share does not fit one GPU cannot run: its times are what it would take.
    const double hbm = gpu.value("memory_gb") * 1e9;
    j["hbm_bytes"] = hbm;
    j["fits_in_hbm"] = e.fitsIn(hbm);
    if (!e.fitsIn(hbm))
        j["warning"] = fill("does not fit: %1 per GPU (model states %2, activations %3, buffers "
                            "%4) exceed the %5 of %6; the times are what it would take if it ran",
                            {formatBytes(e.memoryBytesPerGpu), formatBytes(e.modelStateBytesPerGpu),
                             formatBytes(e.activationBytesPerGpu), formatBytes(e.bufferBytesPerGpu),
                             formatBytes(hbm), gpu.name});
    j["peak_tflops"] = peak / 1e12;
    j["assumes"] = "kernels reach compute-efficiency × dense BF16 peak; TP and PP "
                   "communication on the critical path; DP may hide under the backward pass "
                   "(step_time_overlapped_s); flat rings on the slowest link a group crosses; "
                   "memory: bf16-mixed Adam, TP + SP activations without recomputation, buffers "
                   "as calc memory-fit assumes";
    j["sources"] = "6ND: Kaplan et al. 2020; Megatron FLOPs, TP/PP traffic and bubble: "
                   "Narayanan et al. SC'21; ZeRO volumes: Rajbhandari et al. SC'20; "
                   "activations: Korthikanti et al. 2022; MFU: Chowdhery et al. (PaLM); PP bytes "
                   "b*s*h/t with Megatron's scatter/gather (Narayanan et al. SC'21 section 4.1)";
    return j;
}

Json collective(const Params& p) {
    const Collective op = *parseCollective(p.text("op"));
    const int ranks = integerOf(p, "ranks");
    const double bytes = p.number("bytes");
    const ClusterTopology t = rejecting([&] { return parseTopology(p.text("topology")); });
    if (ranks > t.gpus())
        throw CalcError(fill("%1 ranks do not fit in %2 GPUs (nodes × gpus_per_node)",
                             {std::to_string(ranks), std::to_string(t.gpus())}));
    const ClusterCollectiveCost c = rejecting([&] {
        return clusterCollective(t, op, {0, ranks, 1}, bytes);
    });
    Json j;
    j["model"] = "collective";
    j["op"] = p.text("op");
    j["ranks"] = ranks;
    j["bytes"] = bytes;
    j["nodes_spanned"] = c.span.nodes;
    j["time_s"] = c.cost.timeS;
    j["algbw_gbs"] = c.cost.algbwBytesPerS / 1e9;
    j["busbw_gbs"] = c.cost.busbwBytesPerS / 1e9;
    j["bytes_sent_per_rank"] = c.cost.bytesSentPerRank;
    j["bottleneck_link"] = linkName(c.span.bottleneck);
    j["source"] = "alpha-beta ring model (Thakur, Rabenseifner & Gropp 2005); busbw factors: "
                  "nccl-tests doc/PERFORMANCE.md";
    return j;
}

} // namespace

void appendParallelCalcModels(std::vector<CalcModel>& v) {
    v.push_back({"pipeline",
                 "pipeline bubble of GPipe/1F1B and the interleaved schedule",
                 {whole("stages", "Pipeline stages P", 1, 4096, 4),
                  whole("microbatches", "Micro-batches M", 1, 1e6, 8),
                  ParamSpec::integer("interleave", "Model chunks per device V", "", 1, 64, 1)},
                 pipeline});
    auto gpu = ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm",
                                 "hardware catalogue id (dense BF16 peak)");
    v.push_back(
        {"step",
         "one training step of a dense transformer under TP×PP×DP: FLOPs, bytes and time per "
         "strategy, step time and MFU",
         {required(ParamSpec::real("params", "Parameters N", "", 1e6, 1e14, 7e9, true)),
          whole("layers", "Layers L", 1, 1000, 32), whole("hidden", "Hidden size h", 1, 1e6, 4096),
          whole("heads", "Attention heads a", 1, 10000, 32),
          whole("seq", "Sequence length s", 1, 1e7, 4096),
          whole("micro-batch", "Micro-batch b", 1, 1e5, 1),
          whole("global-batch", "Global batch G", 1, 1e8, 1024),
          whole("tp", "Tensor parallel t", 1, 1024, 1),
          whole("pp", "Pipeline parallel p", 1, 1024, 1), whole("dp", "Data parallel d", 1, 1e6, 1),
          ParamSpec::integer("zero", "ZeRO stage", "", 0, 3, 0),
          ParamSpec::integer("interleave", "Model chunks per device V", "", 1, 64, 1),
          ParamSpec::integer("vocab", "Vocabulary V (0: leave out)", "", 0, 1e7, 0), gpu,
          ParamSpec::integer("gpus-per-node", "GPUs per node", "", 1, 1024, 8),
          ParamSpec::real("nvlink-gbs", "NVLink per GPU, one direction", "GB/s", 1e-3, 1e5, 450),
          ParamSpec::real("network-gbs", "Network per GPU, one direction", "GB/s", 1e-3, 1e5, 50),
          ParamSpec::real("compute-efficiency", "Fraction of peak the kernels reach", "", 0.01, 1,
                          0.5),
          ParamSpec::text("rank-order", "Rank order, fastest first", "tp-pp-dp")},
         step});
    v.push_back(
        {"collective",
         "one collective over a group of GPUs on a nodes × GPUs topology",
         {required(ParamSpec::choice("op", "Collective", collectiveNames(), "allreduce")),
          whole("ranks", "Ranks N", 2, 1 << 24, 16),
          required(ParamSpec::real("bytes", "Message size K", "B", 1, 1e15, 1e9, true)),
          required(ParamSpec::text("topology", "Topology", "nodes=2,gpus_per_node=8",
                                   "nodes=R,gpus_per_node=8[,nvlink_gbs=X,network_gbs=Y,...]"))},
         collective});
}

} // namespace wb
