// `warpboard calc checkpoint | goodput | blast-radius | hang | stragglers`: the reliability models
// (failures-checkpoint to silent-hang) as JSON.
#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "engine/sentence.h"
#include "reliability/checkpoint_interval.h"
#include "reliability/cluster_failure_model.h"
#include "reliability/collective_hang.h"
#include "reliability/failure_simulator.h"
#include "reliability/llama3_interruptions.h"
#include "reliability/straggler_detection.h"

#include <cmath>
#include <stdexcept>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// Every number we print must be finite: a NaN in JSON output is a bug, not an answer.
double finite(double v, const char* what) {
    if (!std::isfinite(v))
        throw CalcError(fill("%1 is not a finite number for these arguments", {what}));
    return v;
}

const char* youngDalySource = "Young, CACM 17(9):530-531, 1974 (doi:10.1145/361147.361115); "
                              "Daly, FGCS 22(3):303-312, 2006 (doi:10.1016/j.future.2004.11.016)";

Json checkpoint(const Params& p) {
    const double m = p.number("mtbf-hours") * 60.0;
    const double d = p.number("checkpoint-minutes");
    const double r = p.number("restart-minutes");
    const double young = rejecting([&] { return youngInterval(d, m); });
    const double daly = rejecting([&] { return dalyInterval(d, m); });
    Json j;
    j["model"] = "checkpoint";
    j["mtbf_minutes"] = m;
    j["checkpoint_minutes"] = d;
    j["restart_minutes"] = r;
    j["young_minutes"] = finite(young, "young_minutes");
    j["daly_minutes"] = finite(daly, "daly_minutes");
    j["daly_branch"] = d >= 2.0 * m ? "tau = M (checkpoint time >= 2 MTBF)"
                                    : "sqrt(2DM)[1 + sqrt(D/2M)/3 + (D/2M)/9] - D";
    j["waste_fraction_at_young"] =
        finite(rejecting([&] { return expectedWaste(young, d, m, r); }), "waste");
    j["waste_fraction_at_young_first_order"] =
        finite(rejecting([&] { return firstOrderWaste(young, d, m, r); }), "waste");
    j["waste_fraction_at_daly"] =
        finite(rejecting([&] { return expectedWaste(daly, d, m, r); }), "waste");
    // The same waste at Young's τ split into its parts, which add up to it exactly.
    const WasteShares parts = rejecting([&] { return wasteShares(young, d, m, r); });
    j["waste_at_young"] = {{"checkpoint", finite(parts.checkpoint, "checkpoint share")},
                           {"rework", finite(parts.rework, "rework share")},
                           {"restart", finite(parts.restart, "restart share")},
                           {"total", finite(parts.total(), "waste")}};
    j["formula"] = "young = sqrt(2DM); waste = 1 - tau / (M e^(R/M) (e^((tau+D)/M) - 1)) "
                   "(Daly's full model, Poisson failures), split into checkpoint D/T, rework (nM - "
                   "tau - D)/T and "
                   "restart nM(e^(R/M) - 1)/T with n = e^((tau+D)/M) - 1, T = nMe^(R/M); first "
                   "order: D/tau + (tau+D)/2M + R/M";
    j["source"] = youngDalySource;
    return j;
}

Json goodput(const Params& p) {
    JobConfig c;
    const int gpus = static_cast<int>(p.integer("gpus"));
    const double gpuMtbfH = p.number("gpu-mtbf-hours");
    c.sources = {{"GPU", gpuMtbfH, gpus}};
    c.checkpointS = p.number("checkpoint-minutes") * 60.0;
    c.intervalS = p.number("interval-minutes") * 60.0;
    c.restartS = p.number("restart-minutes") * 60.0;
    c.durationS = p.number("days") * 86400.0;
    const int trials = static_cast<int>(p.integer("trials"));
    const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
    const GoodputStats s = rejecting([&] { return simulateGoodput(c, trials, seed); });
    const double mtbfMin = c.mtbfS() / 60.0;
    const double dMin = c.checkpointS / 60.0;
    Json j;
    j["model"] = "goodput";
    j["gpus"] = gpus;
    j["job_mtbf_hours"] = finite(mtbfMin / 60.0, "job MTBF");
    j["trials"] = trials;
    j["seed"] = p.integer("seed");
    j["goodput"] = s.mean;
    j["goodput_p5"] = s.p5;
    j["goodput_p95"] = s.p95;
    j["failures_mean"] = s.failuresMean;
    j["goodput_analytic"] =
        1.0 - rejecting([&] {
            return expectedWaste(c.intervalS / 60.0, dMin, mtbfMin, c.restartS / 60.0);
        });
    if (dMin > 0) {
        j["young_minutes"] = finite(youngInterval(dMin, mtbfMin), "young_minutes");
        j["daly_minutes"] = finite(dalyInterval(dMin, mtbfMin), "daly_minutes");
    }
    j["assumes"] = "GPU failures only, each GPU independent and exponential with the given mean; "
                   "every failure stops the synchronous job, loses the work since the last "
                   "checkpoint and costs a restart (which can itself fail); the job's next "
                   "failure is sampled directly with rate GPUs / GPU MTBF";
    j["source"] = fill("Daly's full model for goodput_analytic; %1; per-GPU MTBF for comparison: "
                       "Llama 3 (arXiv:2407.21783) GPU faults ≈ 79,000 GPU-hours (derived: 16,384 "
                       "GPUs × 54 × 24 h ÷ 268 GPU-category interruptions, §3.3.4 and Table 5)",
                       {youngDalySource});
    return j;
}

Json blastRadius(const Params& p) {
    ClusterSpec spec;
    spec.gpus = static_cast<int>(p.integer("gpus"));
    ParallelLayout layout = rejecting([&] { return parseLayoutSizes(p.text("layout")); });
    const bool aligned = p.text("aligned") == "true";
    layout.order = aligned ? std::vector<Strategy>{Strategy::TP, Strategy::PP, Strategy::DP}
                           : std::vector<Strategy>{Strategy::DP, Strategy::PP, Strategy::TP};
    const ClusterFailureModel model = rejecting([&] { return ClusterFailureModel(spec, layout); });
    const ComponentKind kind = parseComponentKind(p.text("fail"));
    const int index = static_cast<int>(p.integer("index"));
    const int id = rejecting([&] { return model.id(kind, index); });
    const BlastRadius b = model.fail(id);
    Json j;
    j["model"] = "blast-radius";
    j["gpus"] = spec.gpus;
    j["layout"] = {{"tp", layout.tp}, {"pp", layout.pp}, {"dp", layout.dp}};
    j["rank_order"] = rankOrderName(layout.order);
    j["aligned"] = aligned;
    j["failed"] = model.components()[static_cast<std::size_t>(id)].name;
    j["components_down"] = b.down.size();
    j["gpus_lost"] = b.lostGpus.size();
    j["groups_broken"] = {{"tp", b.groups.tp}, {"pp", b.groups.pp}, {"dp", b.groups.dp}};
    j["replicas_broken"] = b.replicasBroken;
    j["job_stops"] = b.jobStops;
    j["restart_blocked"] = b.restartBlocked;
    j["explanation"] = b.explanation;
    Json spofs = Json::array();
    for (const SpofSummary& s : model.singlePointsOfFailure())
        spofs.push_back({{"kind", componentKindName(s.kind)},
                         {"count", s.total},
                         {"single_points_of_failure", s.spofs},
                         {"why", s.why}});
    j["single_points_of_failure"] = spofs;
    SparePolicy policy;
    policy.spareGpus = static_cast<int>(p.integer("spares"));
    policy.repairH = p.number("repair");
    policy.restartH = p.number("restart") / 60.0;
    const LossRanking ranking = rejecting([&] { return model.expectedLosses(policy); });
    Json losses = Json::array();
    for (const KindLoss& l : ranking.kinds)
        losses.push_back({{"kind", componentKindName(l.kind)},
                          {"failures_per_day", l.failuresPerDay},
                          {"blast_gpus", l.blastGpus},
                          {"stops_job", l.stopsJob},
                          {"spares_cover", l.sparesCover},
                          {"gpu_hours_lost_per_day_no_spares", l.lossNoSpares},
                          {"gpu_hours_lost_per_day_with_spares", l.lossSpares},
                          {"rate_published", l.rate.published},
                          {"rate_source", l.rate.source}});
    j["expected_losses"] = {{"kinds", losses},
                            {"availability_no_spares", ranking.availabilityNoSpares},
                            {"availability_with_spares", ranking.availabilitySpares}};
    j["cluster"] = {
        {"gpus_per_node", spec.gpusPerNode}, {"nodes_per_rack", spec.nodesPerRack},
        {"racks_per_pod", spec.racksPerPod}, {"spines_per_pod", spec.spinesPerPod},
        {"racks_per_pdu", spec.racksPerPdu}, {"racks_per_cooling_zone", spec.racksPerCoolingZone}};
    j["assumes"] = "aligned: rank order tp-pp-dp on GPUs in order (TP inside a node, a model "
                   "replica on consecutive nodes and racks); misaligned: dp-pp-tp; a synchronous "
                   "job stops on any lost GPU or on storage; expected losses: a stop idles the "
                   "whole job until a restart on spares (when its GPUs fit in them) or the "
                   "repair, as an alternating renewal process; spine counts, PDUs, cooling "
                   "zones, repair and restart times and the rates Table 5 does not give are "
                   "assumed";
    j["source"] = "cluster shape from Llama 3's RoCE cluster (arXiv:2407.21783 section 3.3.1: "
                  "8-GPU servers, 16 GPUs per ToR rack, pods of 192 racks = 3,072 GPUs, a 1:7 "
                  "oversubscribed aggregation layer between pods); GPU, host and network "
                  "failure rates from its Table 5 (54 days on 16,384 GPUs)";
    return j;
}

Json hang(const Params& p) {
    HangConfig c;
    c.ranks = static_cast<int>(p.integer("ranks"));
    c.collectives = static_cast<int>(p.integer("collectives"));
    c.fault = parseHangFault(p.text("fault"));
    c.culprit = static_cast<int>(p.integer("culprit"));
    c.faultAt = static_cast<int>(p.integer("at"));
    const HangSimulation sim =
        rejecting([&] { return simulateHang(c, static_cast<std::uint64_t>(p.integer("seed"))); });
    const HangTriage t = triageHang(sim.ranks);
    Json j;
    j["model"] = "hang";
    j["fault"] = hangFaultName(c.fault);
    j["hung"] = sim.hung;
    j["stuck_seq"] = sim.stuckSeq;
    j["culprits"] = t.culprits;
    Json steps = Json::array();
    for (const TriageStep& s : t.steps)
        steps.push_back({{"title", s.title},
                         {"explanation", s.explanation},
                         {"suspects_left", s.suspects.size()}});
    j["triage"] = steps;
    Json ranks = Json::array();
    for (const RankFlightRecord& r : sim.ranks) {
        Json o;
        o["rank"] = r.rank;
        o["alive"] = r.alive;
        if (const FlightEntry* e = r.last()) {
            o["last_seq"] = e->seq;
            o["op"] = e->call.op;
            o["bytes"] = e->call.bytes;
            o["state"] = callStateName(e->state);
        } else {
            o["last_seq"] = -1;
            o["state"] = callStateName(CallState::NotIssued);
        }
        o["gpu_util"] = r.gpuUtil;
        o["sm_activity"] = r.smActivity;
        ranks.push_back(o);
    }
    j["ranks"] = ranks;
    j["source"] =
        "matching by call order as NCCL does (NCCL User Guide, Communicators); flight-recorder "
        "fields after the PyTorch Flight Recorder tutorial (collective sequence number, op, "
        "sizes, state); GPU-Util definition: NVML API Reference, nvmlUtilization_t";
    return j;
}

Json stragglers(const Params& p) {
    StepTimeConfig c;
    c.ranks = static_cast<int>(p.integer("ranks"));
    c.steps = static_cast<int>(p.integer("steps"));
    c.stepS = p.number("step-seconds");
    c.jitter = p.number("jitter");
    c.stragglers = rejecting([&] { return parseStragglers(p.text("stragglers")); });
    const auto times = rejecting(
        [&] { return generateStepTimes(c, static_cast<std::uint64_t>(p.integer("seed"))); });
    const StragglerReport r = rejecting([&] { return detectStragglers(times, p.number("k")); });
    Json j;
    j["model"] = "stragglers";
    j["ranks"] = c.ranks;
    j["median_s"] = r.medianS;
    j["mad_s"] = r.madS;
    j["threshold_s"] = r.thresholdS;
    j["stragglers"] = r.stragglers;
    Json injected = Json::array();
    for (const InjectedStraggler& s : c.stragglers)
        injected.push_back(s.rank);
    j["injected"] = injected;
    Json medians = Json::array();
    for (const RankStepStats& s : r.ranks)
        medians.push_back(s.medianS);
    j["rank_median_s"] = medians;
    j["rule"] = "rank median > max(m + k * 1.4826 * MAD, 1.02 m), m and MAD over the ranks' "
                "median step times";
    j["source"] = "modified z-score: Iglewicz & Hoaglin, How to Detect and Handle Outliers "
                  "(ASQC, 1993)";
    return j;
}

ParamSpec need(ParamSpec s) {
    return required(std::move(s));
}

} // namespace

void appendReliabilityCalcModels(std::vector<CalcModel>& v) {
    v.push_back({"checkpoint",
                 "optimum checkpoint interval (Young, Daly) and the waste at Young's interval",
                 {need(ParamSpec::real("mtbf-hours", "Job MTBF M", "h", 1e-6, 1e9, 3.09, true)),
                  need(ParamSpec::real("checkpoint-minutes", "Checkpoint write time D", "min", 1e-6,
                                       1e7, 1, true)),
                  ParamSpec::real("restart-minutes", "Restart time R", "min", 0, 1e7, 0)},
                 checkpoint});
    v.push_back(
        {"goodput",
         "Monte Carlo goodput of a synchronous job with GPU failures, checkpoints and restarts",
         {need(ParamSpec::integer("gpus", "GPUs N", "", 1, 1e7, 16384, true)),
          need(ParamSpec::real("gpu-mtbf-hours", "MTBF of one GPU", "h", 1e-3, 1e12,
                               llama3GpuMtbfHours(), true)),
          need(ParamSpec::real("checkpoint-minutes", "Checkpoint write time D", "min", 0, 1e6, 1)),
          need(ParamSpec::real("interval-minutes", "Checkpoint interval T", "min", 1e-3, 1e7, 20,
                               true)),
          ParamSpec::real("restart-minutes", "Restart time R", "min", 0, 1e6, 10),
          ParamSpec::real("days", "Wall time simulated", "days", 1e-3, 3650, 54),
          ParamSpec::integer("trials", "Trials K", "", 1, 1e6, 100, true),
          ParamSpec::integer("seed", "Seed", "", 0, 9e15, 1)},
         goodput});
    v.push_back(
        {"blast-radius",
         "fail one component of a 16,384-GPU cluster: GPUs lost, TP/PP/DP groups broken, job state",
         {ParamSpec::integer("gpus", "GPUs", "", 8, 1 << 22, 16384, true),
          need(ParamSpec::choice("fail", "Component", componentKindNames(), "node")),
          ParamSpec::integer("index", "Which one (0-based)", "", 0, 1 << 22, 0),
          ParamSpec::text("layout", "Layout", "tp=8,pp=16,dp=128", "tp=N,pp=N,dp=N"),
          ParamSpec::choice("aligned", "Aligned with failure domains", {"true", "false"}, "true",
                            "true: tp-pp-dp rank order; false: dp-pp-tp"),
          ParamSpec::integer("spares", "Hot spare GPUs (assumed)", "GPUs", 0, 1 << 22, 32),
          ParamSpec::real("repair", "Repair time (assumed)", "h", 0.01, 1000, 8),
          ParamSpec::real("restart", "Restart on spares (assumed)", "min", 0.1, 10000, 20)},
         blastRadius});
    v.push_back(
        {"hang",
         "silent hang: per-rank flight-recorder state and the triage that finds the culprit",
         {ParamSpec::integer("ranks", "Ranks", "", 3, 65536, 16),
          ParamSpec::integer("collectives", "Collectives per rank", "", 2, 100000, 24),
          ParamSpec::choice("fault", "Fault", hangFaultNames(), "dead-rank"),
          ParamSpec::integer("culprit", "Culprit rank", "", 0, 65535, 5),
          ParamSpec::integer("at", "Culprit's call where it goes wrong", "", 0, 99999, 10),
          ParamSpec::integer("seed", "Seed", "", 0, 9e15, 1)},
         hang});
    v.push_back({"stragglers",
                 "seeded per-rank step times with injected stragglers, found by median + k·MAD",
                 {ParamSpec::integer("ranks", "Ranks", "", 1, 1 << 16, 64),
                  ParamSpec::integer("steps", "Steps per rank", "", 1, 100000, 50),
                  ParamSpec::real("step-seconds", "Healthy step time", "s", 1e-6, 1e6, 1),
                  ParamSpec::real("jitter", "Relative step-time noise", "", 0, 0.5, 0.02),
                  ParamSpec::text("stragglers", "Injected stragglers", "", "rank:slowdown,..."),
                  ParamSpec::real("k", "Cut-off k", "", 0.1, 100, 3.5),
                  ParamSpec::integer("seed", "Seed", "", 0, 9e15, 1)},
                 stragglers});
}

} // namespace wb
