// `warpboard calc moe`: expert capacity, dropped tokens for a skewed routing, and the
// expert-parallel all-to-all volume and time (FACTS.md §8).
#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "engine/sentence.h"
#include "moe/expert_parallel_traffic.h"
#include "moe/skewed_routing.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

// Up to this many tokens × k assignments are laid out one by one, in a seeded arrival order,
// to find the tokens that lose every expert; above it the drops are counted per expert only.
constexpr double kMaxLaidOut = 1e7;

Json moe(const Params& p) {
    const long long tokens = p.integer("tokens");
    const int experts = integerOf(p, "experts");
    const int k = integerOf(p, "top-k");
    const double c = p.number("capacity-factor");
    const double skew = p.number("skew");
    const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
    if (k > experts) {
        throw CalcError(
            fill("--top-k %1 is more than the %2 experts: a token picks k distinct experts",
                 {std::to_string(k), std::to_string(experts)}));
    }
    ExpertParallelSetup ep;
    // --ep 0: as many GPUs of one 8-GPU node as split the experts evenly.
    ep.gpus = integerOf(p, "ep") > 0 ? integerOf(p, "ep") : std::gcd(experts, 8);
    ep.hidden = integerOf(p, "hidden");
    ep.bytesPerValue = p.number("bytes-per-value");
    if (experts % ep.gpus != 0) {
        throw CalcError(fill("--ep %1 GPUs must divide the %2 experts (E/N experts per GPU)",
                             {std::to_string(ep.gpus), std::to_string(experts)}));
    }
    ep.topology = clusterOf(p, ep.gpus, "--ep ");
    ExpertDispatch d;
    ExpertParallelTraffic a2a;
    try {
        const bool layOut = static_cast<double>(tokens) * k <= kMaxLaidOut;
        d = layOut ? dispatchSkewed(tokens, experts, k, c, skew, seed)
                   : dispatchCounts(tokens, experts, k, c, skew);
        a2a = expertParallelAllToAll(d.routed, k, ep);
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
    const double assignments = static_cast<double>(tokens) * k;
    const long long hottest = *std::max_element(d.routed.begin(), d.routed.end());

    Json j;
    j["model"] = "moe";
    j["tokens"] = tokens;
    j["experts"] = experts;
    j["top_k"] = k;
    j["capacity_factor"] = c;
    j["skew"] = skew;
    j["seed"] = seed;
    j["capacity_per_expert"] = d.capacity;
    j["expert_loads"] = d.routed;
    j["max_load_fraction"] = static_cast<double>(hottest) / assignments;
    j["dropped_tokens"] = d.droppedAssignments;
    j["drop_fraction"] = static_cast<double>(d.droppedAssignments) / assignments;
    // null above 1e7 assignments, where tokens are not laid out one by one.
    if (d.tokensFullyDropped >= 0)
        j["tokens_fully_dropped"] = d.tokensFullyDropped;
    else
        j["tokens_fully_dropped"] = nullptr;
    j["hidden"] = ep.hidden;
    j["bytes_per_value"] = ep.bytesPerValue;
    j["ep_gpus"] = ep.gpus;
    j["alltoall_bytes"] = a2a.totalBytes;
    j["alltoall_dispatch_bytes"] = a2a.dispatchBytes;
    j["alltoall_combine_bytes"] = a2a.combineBytes;
    j["alltoall_max_sent_per_gpu"] =
        *std::max_element(a2a.sentPerGpu.begin(), a2a.sentPerGpu.end());
    j["alltoall_max_received_per_gpu"] =
        *std::max_element(a2a.receivedPerGpu.begin(), a2a.receivedPerGpu.end());
    j["alltoall_time_s"] = a2a.timeS;
    j["alltoall_latency_s"] = a2a.latencyS;
    j["alltoall_bandwidth_s"] = a2a.bandwidthS;
    j["alltoall_regime"] = a2a.bandwidthS >= a2a.latencyS ? "bandwidth" : "latency";
    j["alltoall_link"] = linkName(a2a.bottleneck);
    j["formula"] = "capacity = ceil(k*T/E * C); dropped_tokens = sum over experts of "
                   "max(0, load - capacity) token-expert assignments (tokens arriving after "
                   "the expert is full); alltoall_bytes = 2 (dispatch + combine) * T*k*h*b * "
                   "(N-1)/N";
    j["assumes"] = "skew Z: expert i gets a share of the k*T assignments proportional to "
                   "(i+1)^-Z, at most T each (Z = 0 uniform); tokens spread evenly over the N "
                   "EP GPUs with the batch's routing; experts 0..E/N-1 on GPU 0 and so on; "
                   "every routed assignment is sent (dropless dispatch); the busiest GPU sets "
                   "the all-to-all time";
    j["source"] = "capacity: Switch Transformer (Fedus, Zoph & Shazeer, arXiv:2101.03961) "
                  "Eq. 3; all-to-all expert parallelism: GShard (Lepikhin et al., "
                  "arXiv:2006.16668)";
    return j;
}

} // namespace

void appendMoeCalcModels(std::vector<CalcModel>& v) {
    v.push_back(
        {"moe",
         "mixture of experts: capacity per expert, dropped tokens for a skewed routing, "
         "expert-parallel all-to-all bytes and time",
         {whole("tokens", "Tokens T", 1, 1e12, 4096), whole("experts", "Experts E", 1, 4096, 8),
          whole("top-k", "Experts per token k", 1, 4096, 2),
          required(ParamSpec::real("capacity-factor", "Capacity factor C", "", 1e-3, 1e3, 1.25)),
          ParamSpec::real("skew", "Zipf exponent of the routing (0 = uniform)", "", 0, 16, 0),
          ParamSpec::integer("seed", "Seed of the token arrival order", "", 0, 1e15, 1),
          ParamSpec::integer("hidden", "Hidden size h", "", 1, 1e6, 4096),
          ParamSpec::real("bytes-per-value", "Bytes per value b", "B", 0.125, 16, 2),
          ParamSpec::integer("ep", "Expert-parallel GPUs N (0: gcd(E, 8))", "", 0, 65536, 0),
          ParamSpec::integer("gpus-per-node", "GPUs per node", "", 1, 1024, 8),
          ParamSpec::real("nvlink-gbs", "NVLink per GPU, one direction", "GB/s", 1e-3, 1e5, 450),
          ParamSpec::real("network-gbs", "Network per GPU, one direction", "GB/s", 1e-3, 1e5, 50)},
         moe});
}

} // namespace wb
