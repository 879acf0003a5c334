// `warpboard calc memory | memory-fit | activations | schedule | claims`: the planning models
// (ZeRO model states, the layouts a budget forces, Korthikanti activations, the cluster scheduler
// simulation, the claims check) as JSON.
#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "parallel/memory_budget.h"
#include "planning/claims_check.h"
#include "planning/cluster_scheduler.h"
#include "roofline/roofline_model.h"

#include <stdexcept>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// Decimal GB, as the ZeRO paper counts (7.5B × 16 B = 120 GB).
double gb(double bytes) {
    return bytes / 1e9;
}

Json memory(const Params& p) {
    const double params = p.number("params");
    const int gpus = integerOf(p, "gpus"), tp = integerOf(p, "tp"), pp = integerOf(p, "pp");
    const int zero = integerOf(p, "zero");
    if (gpus % (tp * pp) != 0)
        throw CalcError(fill("%1 GPUs do not divide by TP × PP = %2",
                             {std::to_string(gpus), std::to_string(tp * pp)}));
    const int dp = gpus / (tp * pp);
    const Optimizer o = rejecting([&] { return parseOptimizer(p.text("optimizer")); });
    const TrainingPrecision pr =
        rejecting([&] { return parseTrainingPrecision(p.text("precision")); });
    const StateBytesPerParam k = stateBytesPerParam(o, pr);
    const double psi = params / (static_cast<double>(tp) * pp);
    const ModelStates s = rejecting([&] { return modelStatesPerGpu(psi, zero, dp, k); });
    Json j;
    j["model"] = "memory";
    j["params"] = params;
    j["gpus"] = gpus;
    j["tp"] = tp;
    j["pp"] = pp;
    j["dp"] = dp;
    j["zero"] = zero;
    j["optimizer"] = optimizerName(o);
    j["precision"] = trainingPrecisionName(pr);
    j["bytes_per_param"] = {
        {"weights", k.weights}, {"gradients", k.gradients}, {"optimizer", k.optimizer}};
    j["weights_gb"] = gb(s.weights);
    j["gradients_gb"] = gb(s.gradients);
    j["optimizer_gb"] = gb(s.optimizer);
    j["total_gb"] = gb(s.total());
    if (p.isSet("gpu")) {
        const double hbm = gpuOf(p).value("memory_gb") * 1e9;
        j["gpu"] = gpuOf(p).id;
        j["hbm_gb"] = gb(hbm);
        j["model_states_fit"] = s.total() <= hbm;
    }
    j["formula"] = "per GPU, psi = N/(TP*PP): ZeRO-0 (w+g+K)*psi; ZeRO-1 (w+g)*psi + K*psi/DP; "
                   "ZeRO-2 w*psi + (g+K)*psi/DP; ZeRO-3 (w+g+K)*psi/DP; decimal GB";
    j["note"] = "model states only; activations: calc activations";
    j["source"] = "Rajbhandari et al., ZeRO, SC'20, section 3.1 (2+2+12 bytes for "
                  "mixed-precision Adam) and Figure 1 / Table 1";
    return j;
}

// The cheapest layouts (estimated step time) whose whole budget (states, activations,
// buffers) fits HBM.
Json memoryFit(const Params& p) {
    MemoryModel m;
    m.shape = transformerOf(p);
    m.shape.globalBatch = integerOf(p, "global-batch");
    m.optimizer = rejecting([&] { return parseOptimizer(p.text("optimizer")); });
    m.precision = rejecting([&] { return parseTrainingPrecision(p.text("precision")); });
    m.bufferBytes = p.number("buffers-gb") * 1e9;
    const int gpus = integerOf(p, "gpus");
    const double hbm = gpuOf(p).value("memory_gb") * 1e9;
    LayoutCostBasis basis;
    basis.cluster.gpusPerNode = integerOf(p, "gpus-per-node");
    basis.cluster.nvlinkGBs = p.number("nvlink-gbs");
    basis.cluster.networkGBs = p.number("network-gbs");
    basis.efficiency = p.number("compute-efficiency");
    const Precision math = trainingMathPrecision(m.precision);
    basis.peakFlops = peakTflops(gpuOf(p), math).value_or(0.0) * 1e12;
    if (basis.peakFlops <= 0)
        throw CalcError(
            fill("the catalogue has no dense %1 peak for %2", {precisionName(math), gpuOf(p).id}));
    const auto fits = rejecting([&] { return layoutsThatFit(m, gpus, hbm, basis); });
    Json j;
    j["model"] = "memory-fit";
    j["gpu"] = gpuOf(p).id;
    j["hbm_gb"] = gb(hbm);
    j["gpus"] = gpus;
    j["layouts_fitting"] = fits.size();
    j["forced"] = fits.empty() ? Json() : Json(layoutName(fits.front().layout));
    Json list = Json::array();
    for (std::size_t i = 0; i < fits.size() && i < static_cast<std::size_t>(integerOf(p, "top"));
         ++i) {
        const MemoryLayout& l = fits[i].layout;
        const MemoryBudget& b = fits[i].budget;
        const LayoutCost& c = fits[i].cost;
        list.push_back({{"layout", layoutName(l)},
                        {"tp", l.tp},
                        {"pp", l.pp},
                        {"dp", l.dp},
                        {"zero", l.zero},
                        {"sp", l.sequenceParallel},
                        {"recompute", recomputeName(l.recompute)},
                        {"weights_gb", gb(b.states.weights)},
                        {"gradients_gb", gb(b.states.gradients)},
                        {"optimizer_gb", gb(b.states.optimizer)},
                        {"activations_gb", gb(b.activations)},
                        {"buffers_gb", gb(b.buffers)},
                        {"total_gb", gb(b.total())},
                        {"step_s", c.stepS()},
                        {"compute_s", c.computeS()},
                        {"recompute_s", c.recomputeS},
                        {"tp_s", c.tpS()},
                        {"pp_s", c.ppS()},
                        {"dp_exposed_s", c.dpExposedS()},
                        {"overhead", c.overhead()}});
    }
    j["layouts"] = list;
    j["order"] = "cheapest first: estimated step time (compute at compute-efficiency x dense "
                 "peak, recomputed forwards, TP all-reduces, PP bubble and sends, DP not hidden "
                 "under the backward pass); ties: lower ZeRO stage, less recomputation, no SP, "
                 "smaller TP, smaller PP";
    j["assumes"] = "buffers (--buffers-gb) and compute-efficiency are assumptions; activations "
                   "of the first 1F1B stage (L layers); embeddings not counted separately; "
                   "layouts whose DP does not divide the global batch into micro-batches are "
                   "left out";
    j["source"] = "ZeRO section 3.1 (model states) and section 7 (communication); Korthikanti "
                  "et al. Table 2, Eq. 5 (activations) and section 5 (recomputation); "
                  "Narayanan et al. 2021 section 3.2 (TP traffic), 2.2 (bubble); HBM and peak "
                  "from the hardware catalogue";
    return j;
}

Json activations(const Params& p) {
    ActivationShape a;
    a.seq = p.number("seq");
    a.microBatch = p.number("micro-batch");
    a.hidden = p.number("hidden");
    a.heads = p.number("heads");
    a.tp = integerOf(p, "tp");
    a.sequenceParallel = p.text("sp") == "true";
    a.recompute = rejecting([&] { return parseRecompute(p.text("recompute")); });
    const int layers = integerOf(p, "layers");
    if (integerOf(p, "heads") % a.tp != 0)
        throw CalcError(fill("%1 attention heads do not divide by TP %2",
                             {std::to_string(integerOf(p, "heads")), std::to_string(a.tp)}));
    const double perLayer = rejecting([&] { return activationBytesPerLayer(a); });
    const double total = rejecting([&] { return activationBytesFirstStage(a, layers); });
    const char* formula = a.recompute == Recompute::Full ? "2sbh"
                          : a.recompute == Recompute::Selective
                              ? (a.sequenceParallel ? "sbh*34/t" : "sbh*(10 + 24/t)")
                          : a.sequenceParallel ? "sbh*(34/t + 5as/(ht))"
                          : a.tp > 1           ? "sbh*(10 + 24/t + 5as/(ht))"
                                               : "sbh*(34 + 5as/h)";
    Json j;
    j["model"] = "activations";
    j["tp"] = a.tp;
    j["sp"] = a.sequenceParallel;
    j["recompute"] = recomputeName(a.recompute);
    j["layers"] = layers;
    j["bytes_per_layer"] = perLayer;
    j["total_bytes"] = total;
    j["total_gb"] = gb(total);
    j["formula"] = formula;
    j["note"] = "16-bit activations, 1-byte dropout masks; total = L layers' worth, what the "
                "first 1F1B pipeline stage holds whatever the PP size (Eq. 5)";
    j["source"] = "Korthikanti et al., arXiv:2205.05198, Table 2 and Eq. 5";
    return j;
}

Json schedule(const Params& p) {
    const int gpus = integerOf(p, "gpus");
    if (gpus % 8 != 0)
        throw CalcError(fill("--gpus %1 must be whole nodes of 8 GPUs", {std::to_string(gpus)}));
    SchedulerConfig c;
    c.cluster.nodes = gpus / 8;
    c.cluster.gpusPerNode = 8;
    c.cluster.nodesPerLeaf = integerOf(p, "nodes-per-leaf");
    c.policy = rejecting([&] { return parseSchedulePolicy(p.text("policy")); });
    c.spreadSlowdown = p.number("spread-slowdown");
    JobTraceConfig t;
    t.jobs = integerOf(p, "jobs");
    t.clusterGpus = gpus;
    t.seed = static_cast<std::uint64_t>(p.integer("seed"));
    t.load = p.number("load");
    t.teams = static_cast<int>(c.teamQuota.size());
    const ScheduleResult r = rejecting([&] { return simulateCluster(generateJobTrace(t), c); });
    Json j;
    j["model"] = "schedule";
    j["policy"] = schedulePolicyName(r.policy);
    j["gpus"] = gpus;
    j["jobs"] = t.jobs;
    j["seed"] = t.seed;
    j["horizon_h"] = r.horizonH;
    j["utilization"] = r.utilization;
    j["useful_utilization"] = r.usefulUtilization;
    j["fragmentation"] = r.fragmentation;
    j["fgd_fragmentation"] = r.fgdFragmentation;
    j["slowdown_loss"] = r.slowdownLoss;
    j["spread_starts"] = r.spreadStarts;
    j["mean_wait_h"] = r.meanWaitH;
    j["jobs_done"] = r.jobsDone;
    j["jobs_running"] = r.jobsRunning;
    j["jobs_waiting"] = r.jobsWaiting;
    j["preemptions"] = r.preemptions;
    j["events"] = r.events.size();
    j["assumes"] =
        fill("measured up to the last arrival; seeded illustrative trace (sizes 1-64 "
             "GPUs, 0.1-24 h, offered load --load); a job spread over more nodes than "
             "it needs runs %1x slower (--spread-slowdown), across extra leaves %2x "
             "more; backfill trusts the durations; team quotas 40/30/20/10 %",
             {formatSignificant(c.spreadSlowdown, 3), formatSignificant(c.crossLeafSlowdown, 3)});
    j["fragmentation_means"] = "time-averaged share of GPUs free but unusable at full speed by "
                               "any waiting job";
    j["fgd_fragmentation_means"] =
        "time-averaged share of GPUs free but unusable by the trace's job-size mix, each size "
        "weighted by how often it arrives (the fragmentation FGD defines)";
    j["slowdown_loss_means"] = "allocated GPU-hours wasted by spread placements' slowdown, ÷ "
                               "capacity";
    j["source"] = "fragmentation: Weng et al., FGD, USENIX ATC'23 (up to 49 % fewer unallocated "
                  "GPUs than baseline packers); gang scheduling and locality: Jeon et al., "
                  "USENIX ATC'19";
    return j;
}

Json claims(const Params& p) {
    Claims c;
    c.gpus = integerOf(p, "gpus");
    c.params = p.number("params");
    c.tokens = p.number("tokens");
    c.days = p.number("days");
    if (p.isSet("mfu"))
        c.mfu = rejecting([&] { return parseClaimedMfu(p.text("mfu")); });
    if (p.isSet("flops"))
        c.statedFlops = p.number("flops");
    if (p.isSet("checkpoint-gb"))
        c.checkpointBytes = p.number("checkpoint-gb") * 1e9;
    if (p.isSet("checkpoint-s"))
        c.checkpointSeconds = p.number("checkpoint-s");
    if (p.isSet("failures"))
        c.failures = p.number("failures");
    const GpuSpec& spec = gpuOf(p);
    ClaimsGpu g;
    g.name = spec.name;
    g.peakFlops = peakTflops(spec, Precision::BF16).value_or(0.0) * 1e12;
    g.hbmBytes = spec.value("memory_gb") * 1e9;
    const ClaimsVerdict v = rejecting([&] { return checkClaims(c, g); });
    Json j;
    j["model"] = "claims";
    j["gpu"] = spec.id;
    j["peak_tflops"] = g.peakFlops / 1e12;
    j["training_flops"] = v.trainingFlops;
    j["implied_mfu"] = v.impliedMfu;
    if (c.mfu) {
        j["claimed_mfu"] = *c.mfu;
        j["days_at_claimed_mfu"] = v.daysAtClaimedMfu;
        j["tokens_per_gpu_s_at_claimed_mfu"] = v.tokensPerGpuSecondAtMfu;
    }
    if (c.statedFlops)
        j["stated_flops_over_6nd"] = v.statedFlopsRatio;
    j["gpu_days"] = v.gpuDays;
    j["tokens_per_gpu_s"] = v.tokensPerGpuSecond;
    j["model_state_gb_per_gpu"] = gb(v.modelStateBytesPerGpu);
    j["expected_failures"] = v.expectedFailures;
    if (v.checkpointBandwidth > 0)
        j["checkpoint_gbs"] = v.checkpointBandwidth / 1e9;
    j["consistent"] = v.consistent;
    j["issues"] = v.issues;
    j["probes"] = v.probes;
    j["sources"] = "6ND: Kaplan et al. 2020; MFU: Chowdhery et al. (PaLM); best MFU 56.3 %: "
                   "Korthikanti et al. Table 5; failures, storage: Llama 3 (arXiv:2407.21783) "
                   "section 3.3; model states: ZeRO section 3.1";
    return j;
}

ParamSpec real(const char* name, const char* label, const char* unit, double min, double max,
               double def) {
    return required(ParamSpec::real(name, label, unit, min, max, def, true));
}

// --layers --hidden --heads --seq: the transformer's shape, shared by memory-fit and
// activations.
std::vector<ParamSpec> shapeArguments() {
    return {whole("layers", "Layers L", 1, 1e4, 32), whole("hidden", "Hidden size h", 1, 1e6, 4096),
            whole("heads", "Attention heads a", 1, 1e5, 32),
            whole("seq", "Sequence length s", 1, 1e7, 2048)};
}

std::vector<ParamSpec> joined(std::vector<ParamSpec> a, const std::vector<ParamSpec>& b,
                              const std::vector<ParamSpec>& c) {
    a.insert(a.end(), b.begin(), b.end());
    a.insert(a.end(), c.begin(), c.end());
    return a;
}

ParamSpec optimizerArgument() {
    return ParamSpec::choice("optimizer", "Optimizer", {"adam", "sgd"}, "adam");
}

ParamSpec precisionArgument() {
    return ParamSpec::choice("precision", "Precision", {"bf16-mixed", "fp32"}, "bf16-mixed");
}

ParamSpec optionalGpu(const char* help) {
    return ParamSpec::choice("gpu", "GPU", HardwareCatalogue::builtin().ids(), "h100-sxm", help);
}

} // namespace

void appendPlanningCalcModels(std::vector<CalcModel>& v) {
    v.push_back(
        {"memory",
         "model states per GPU (weights, gradients, optimizer) under ZeRO 0-3, TP and PP",
         {real("params", "Parameters N", "", 1e6, 1e14, 7.5e9), whole("gpus", "GPUs", 1, 1e7, 64),
          whole("zero", "ZeRO stage", 0, 3, 0),
          ParamSpec::integer("tp", "Tensor parallel t", "", 1, 1024, 1),
          ParamSpec::integer("pp", "Pipeline parallel p", "", 1, 1024, 1), optimizerArgument(),
          precisionArgument(), optionalGpu("compare with this GPU's HBM")},
         memory});
    v.push_back(
        {"memory-fit",
         "the cheapest layouts (estimated step time) whose per-GPU budget (model states, "
         "activations, buffers) fits the GPU's HBM: what a model size forces",
         joined({real("params", "Parameters N", "", 1e6, 1e14, 7.5e9),
                 whole("gpus", "GPUs", 1, 1e6, 64)},
                shapeArguments(),
                {ParamSpec::integer("micro-batch", "Micro-batch b", "", 1, 1e5, 1), gpuArgument(),
                 optimizerArgument(), precisionArgument(),
                 ParamSpec::real("buffers-gb", "Buffers per GPU (assumed)", "GB", 0, 1000, 2),
                 ParamSpec::integer("gpus-per-node", "GPUs per node (TP stays inside)", "", 1, 1024,
                                    8),
                 ParamSpec::integer("global-batch", "Global batch G", "sequences", 1, 1e8, 1024),
                 ParamSpec::real("nvlink-gbs", "NVLink per GPU, one direction", "GB/s", 1e-3, 1e5,
                                 450),
                 ParamSpec::real("network-gbs", "Network per GPU, one direction", "GB/s", 1e-3, 1e5,
                                 50),
                 ParamSpec::real("compute-efficiency", "Fraction of peak the kernels reach", "",
                                 0.01, 1, 0.5),
                 ParamSpec::integer("top", "Layouts listed", "", 1, 1000, 10)}),
         memoryFit});
    v.push_back({"activations",
                 "activation bytes per layer and for L layers (TP, SP, recomputation)",
                 joined(shapeArguments(), {whole("micro-batch", "Micro-batch b", 1, 1e5, 1)},
                        {ParamSpec::integer("tp", "Tensor parallel t", "", 1, 1024, 1),
                         ParamSpec::choice("sp", "Sequence parallel", {"false", "true"}, "false"),
                         ParamSpec::choice("recompute", "Activation recomputation",
                                           {"none", "selective", "full"}, "none")}),
                 activations});
    v.push_back({"schedule",
                 "a cluster scheduler simulation on a seeded job trace: utilization, "
                 "fragmentation, queueing delay",
                 {required(ParamSpec::choice("policy", "Policy", schedulePolicyNames(), "fifo")),
                  whole("jobs", "Jobs", 10, 1e5, 1000), whole("gpus", "GPUs", 8, 65536, 512),
                  ParamSpec::integer("seed", "Trace seed", "", 0, 2147483647, 1),
                  ParamSpec::real("load", "Offered load", "", 0.05, 5, 0.9),
                  ParamSpec::integer("nodes-per-leaf", "Nodes per leaf switch", "", 1, 1024, 4),
                  ParamSpec::real("spread-slowdown", "Slowdown of a spread job (assumed)", "×", 1,
                                  10, 1.25)},
                 schedule});
    v.push_back(
        {"claims",
         "a training-run claims sheet checked against 6ND, MFU, memory, failure rates "
         "and storage bandwidth",
         {whole("gpus", "GPUs", 1, 1e7, 1024), real("params", "Parameters N", "", 1e6, 1e15, 7e9),
          real("tokens", "Tokens D", "", 1e6, 1e16, 1e12),
          real("days", "Days (wall clock)", "d", 1e-3, 1e5, 30),
          ParamSpec::text("mfu", "Claimed MFU: a fraction in (0, 1] or a percentage, 0.41 or 41%",
                          "0.4"),
          ParamSpec::real("flops", "Stated training FLOPs", "FLOP", 1, 1e30, 1e24, true),
          optionalGpu("the GPU (dense BF16 peak, HBM)"),
          ParamSpec::real("checkpoint-gb", "Checkpoint size", "GB", 1e-6, 1e9, 100, true),
          ParamSpec::real("checkpoint-s", "Checkpoint write time", "s", 1e-6, 1e7, 60, true),
          ParamSpec::real("failures", "Interruptions seen", "", 0, 1e6, 0)},
         claims});
}

} // namespace wb
