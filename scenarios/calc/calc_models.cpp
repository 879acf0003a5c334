#include "calc/calc_models.h"

#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "catalogue/hardware_catalogue.h"
#include "collectives/collective_cost.h"
#include "engine/sentence.h"
#include "roofline/roofline_model.h"

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json ringAllReduce(const Params& p) {
    const int ranks = static_cast<int>(p.integer("ranks"));
    const double bytes = p.number("bytes");
    const auto algorithm = *parseAllReduceAlgorithm(p.text("algorithm"));
    const AlphaBeta ab{p.number("alpha-us") * 1e-6, p.number("bandwidth-gbs") * 1e9};
    const AllReduceCost c = allReduceCost(algorithm, ranks, bytes, ab);
    Json j;
    j["model"] = "ring-allreduce";
    j["algorithm"] = algorithmName(algorithm);
    j["ranks"] = ranks;
    j["bytes"] = bytes;
    j["alpha_us"] = p.number("alpha-us");
    j["bandwidth_gbs"] = p.number("bandwidth-gbs");
    j["bytes_sent_per_rank"] = c.bytesSentPerRank;
    j["steps"] = c.steps;
    j["latency_s"] = c.latencyS;
    j["bandwidth_s"] = c.bandwidthS;
    j["time_s"] = c.timeS;
    j["algbw_gbs"] = c.algbwBytesPerS / 1e9;
    j["busbw_gbs"] = c.busbwBytesPerS / 1e9;
    j["busbw_factor"] = c.busbwFactor;
    j["source"] = "alpha-beta model (Thakur, Rabenseifner & Gropp 2005); busbw: nccl-tests "
                  "doc/PERFORMANCE.md";
    return j;
}

Json busbw(const Params& p) {
    const auto collective = *parseCollective(p.text("collective"));
    const int ranks = static_cast<int>(p.integer("ranks"));
    Json j;
    j["model"] = "busbw";
    j["collective"] = p.text("collective");
    j["ranks"] = ranks;
    j["factor"] = busbwFactor(collective, ranks);
    j["source"] = "nccl-tests doc/PERFORMANCE.md";
    return j;
}

Json rooflineCalc(const Params& p) {
    const GpuSpec& gpu = gpuOf(p);
    const Precision precision = *parsePrecision(p.text("precision"));
    const auto peak = peakTflops(gpu, precision);
    if (!peak)
        throw CalcError(
            fill("%1 has no %2 tensor support; allowed precisions for it: fp32|tf32|bf16|fp16",
                 {gpu.id, precisionName(precision)}));
    const double bw = bandwidthTBs(gpu);
    Json j;
    j["model"] = "roofline";
    j["gpu"] = gpu.id;
    j["precision"] = precisionName(precision);
    j["peak_tflops"] = *peak;
    j["bandwidth_tbs"] = bw;
    j["ridge_flop_per_byte"] = ridgeFlopPerByte(*peak, bw);
    if (p.isSet("intensity")) {
        const RooflinePoint pt = roofline(*peak, bw, p.number("intensity"));
        j["intensity_flop_per_byte"] = pt.intensity;
        j["attainable_tflops"] = pt.attainableTflops;
        j["bound"] = pt.memoryBound ? "memory" : "compute";
    }
    const auto& cat = HardwareCatalogue::builtin();
    j["source"] = cat.citation(gpu, peakField(precision));
    return j;
}

Json decode(const Params& p) {
    const GpuSpec& gpu = gpuOf(p);
    const DecodeEstimate d =
        decodeEstimate(gpu, p.number("params"), p.number("batch"), p.number("weight-bytes"));
    Json j;
    j["model"] = "decode";
    j["gpu"] = gpu.id;
    j["params"] = p.number("params");
    j["batch"] = p.integer("batch");
    j["weight_bytes"] = p.number("weight-bytes");
    j["intensity_flop_per_byte"] = d.intensity;
    j["ridge_flop_per_byte"] = d.point.ridge;
    j["attainable_tflops"] = d.point.attainableTflops;
    j["bound"] = d.point.memoryBound ? "memory" : "compute";
    j["step_time_s"] = d.stepTimeS;
    j["max_tokens_per_s"] = d.maxTokensPerS;
    j["assumes"] = "weights read once per step; KV cache and activations ignored; dense BF16 peak";
    return j;
}

} // namespace

const std::vector<CalcModel>& calcModels() {
    static const std::vector<CalcModel> models = [] {
        std::vector<CalcModel> v;
        v.push_back(
            {"ring-allreduce",
             "α-β cost of all-reducing K bytes over N ranks (ring, tree, double binary tree)",
             {required(ParamSpec::integer("ranks", "Ranks", "", 2, 1024, 8)),
              required(ParamSpec::real("bytes", "Message size K", "B", 1, 1e13, 1e9, true)),
              required(ParamSpec::real("alpha-us", "Latency α", "µs", 0, 1e6, 5)),
              required(ParamSpec::real("bandwidth-gbs", "Link bandwidth B", "GB/s", 1e-3, 1e6, 50)),
              ParamSpec::choice("algorithm", "Algorithm", allReduceAlgorithmNames(), "ring")},
             ringAllReduce});
        v.push_back({"busbw",
                     "nccl-tests bus-bandwidth factor of a collective",
                     {required(ParamSpec::choice("collective", "Collective", collectiveNames(),
                                                 "allreduce")),
                      required(ParamSpec::integer("ranks", "Ranks", "", 1, 1 << 20, 8))},
                     busbw});
        v.push_back(
            {"roofline",
             "peak, bandwidth, ridge point and attainable FLOP/s of a GPU",
             {gpuArgument(),
              required(ParamSpec::choice("precision", "Precision", precisionNames(), "bf16")),
              ParamSpec::real("intensity", "Arithmetic intensity", "FLOP/B", 1e-6, 1e9, 1, true)},
             rooflineCalc});
        v.push_back(
            {"decode",
             "LLM decode step on the roofline: intensity, bound and tokens/s at batch B",
             {gpuArgument(),
              required(ParamSpec::real("params", "Parameters P", "", 1e6, 1e14, 70e9, true)),
              required(ParamSpec::integer("batch", "Batch B", "sequences", 1, 1e6, 1, true)),
              ParamSpec::real("weight-bytes", "Bytes per weight", "B", 0.125, 8, 2)},
             decode});
        appendOccupancyCalcModels(v);
        appendAccessCalcModels(v);
        appendParallelCalcModels(v);
        appendReliabilityCalcModels(v);
        appendFabricCalcModels(v);
        appendNodeCalcModels(v);
        appendPlanningCalcModels(v);
        appendMoeCalcModels(v);
        return v;
    }();
    return models;
}

const CalcModel* findCalcModel(std::string_view id) {
    for (const auto& m : calcModels())
        if (m.id == id)
            return &m;
    return nullptr;
}

} // namespace wb
