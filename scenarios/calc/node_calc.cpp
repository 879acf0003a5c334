// `warpboard calc gpu-util | rdma-path`: the nccl-topology lesson's models as JSON. gpu-util lays
// out a fast and a slow data-parallel rank meeting in an all-reduce and reads NVML's GPU-Util and
// the SM activity off the kernels; rdma-path walks GPUDirect RDMA, PXN and the host-memory bounce
// through an 8-GPU server and says what each costs with all GPUs sending.
#include "calc/calc_arguments.h"
#include "calc/gpu_calc_models.h"
#include "node/collective_wait_timeline.h"
#include "node/gpu_util_sampler.h"
#include "node/node_diagram.h"
#include "node/rdma_path.h"

#include <stdexcept>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json gpuUtil(const Params& p) {
    const GpuSpec& gpu = gpuOf(p);
    CollectiveWaitConfig c;
    c.iterations = integerOf(p, "iterations");
    c.computeS = p.number("compute-ms") * 1e-3;
    c.kernelS = std::min(c.kernelS, c.computeS);
    c.slowdownS = p.number("slowdown-ms") * 1e-3;
    c.transferS = p.number("transfer-ms") * 1e-3;
    c.smCount = static_cast<int>(gpu.value("sm_count"));
    c.ncclSms = integerOf(p, "nccl-sms");
    const double periodS = p.number("sample-ms") * 1e-3;
    try {
        const CollectiveWaitTimeline w = collectiveWaitTimeline(c);
        const UtilisationSample fast = utilisationOver(w.fast.kernels(), 0, w.endS);
        const UtilisationSample slow = utilisationOver(w.slow.kernels(), 0, w.endS);
        Json samples = Json::array();
        for (const UtilisationSample& s : sampleUtilisation(w.fast.kernels(), periodS, w.endS))
            samples.push_back({{"start_s", s.startS},
                               {"gpu_util_percent", s.gpuUtilPercent},
                               {"sm_activity_percent", s.smActivityPercent}});
        Json j;
        j["model"] = "gpu-util";
        j["gpu"] = gpu.id;
        j["duration_s"] = w.endS;
        j["waiting_s"] = w.waitingS;
        j["fast_rank"] = {{"gpu_util_percent", fast.gpuUtilPercent},
                          {"sm_activity_percent", fast.smActivityPercent}};
        j["slow_rank"] = {{"gpu_util_percent", slow.gpuUtilPercent},
                          {"sm_activity_percent", slow.smActivityPercent}};
        j["fast_rank_samples"] = samples;
        j["assumes"] = "compute kernels fill the GPU; NCCL's kernel holds nccl-sms SMs from the "
                       "call until the slow rank arrives plus the transfer";
        j["source"] = kNvmlGpuUtilDefinition;
        return j;
    } catch (const std::invalid_argument& e) {
        throw CalcError(e.what());
    }
}

Json pathJson(const RdmaPath& path, const SustainedRate& rate, const NodeDiagram& d) {
    Json parts = Json::array();
    for (int part : path.parts)
        parts.push_back(d.frame().parts[static_cast<std::size_t>(part)].label);
    return {{"path", parts},
            {"copies", path.copies},
            {"pcie_hops", path.pcieHops},
            {"host_memory_bytes_per_byte", path.hostMemoryBytesPerByte},
            {"crosses_cpu_link", path.crossesCpuLink},
            {"per_gpu_gbs_all_sending", rate.perGpuGBs},
            {"bottleneck", rate.bottleneck}};
}

Json rdmaPath(const Params& p) {
    const NodeDiagram d(1, gpuOf(p));
    const NicPlacement placement = parseNicPlacement(p.text("nic"));
    const int gpu = integerOf(p, "gpu-index");
    const auto gdr = serverPaths(d, true, placement);
    const auto bounce = serverPaths(d, false, placement);
    Json j;
    j["model"] = "rdma-path";
    j["gpu"] = p.text("gpu");
    j["nic_placement"] = nicPlacementName(placement);
    j["gpudirect"] = pathJson(gdr[static_cast<std::size_t>(gpu)], sustainedRate(d, gdr), d);
    j["bounce"] = pathJson(bounce[static_cast<std::size_t>(gpu)], sustainedRate(d, bounce), d);
    // PXN (NCCL 2.12): NVLink to the GPU on the NIC's switch, then GPUDirect from there.
    const auto pxn = serverPxnPaths(d, placement);
    j["pxn"] = pathJson(pxn[static_cast<std::size_t>(gpu)], sustainedRate(d, pxn), d);
    j["assumes"] = "DGX/HGX-style server: 2 GPUs + 2 NICs per PCIe switch, one x16 uplink per "
                   "switch, 2 sockets; all 8 GPUs send at once";
    j["source"] = "NVLink: Hopper Tuning Guide §1.4.3; PCIe and NIC: H100/A100 datasheets, per "
                  "direction derived (PCIe: 32 GT/s × 16 × 128/130 ÷ 8; NIC: 400 Gb/s ÷ 8)";
    return j;
}

} // namespace

void appendNodeCalcModels(std::vector<CalcModel>& v) {
    v.push_back(
        {"gpu-util",
         "NVML GPU-Util vs SM activity for a rank waiting in an all-reduce (nccl-topology)",
         {gpuArgument(), ParamSpec::real("compute-ms", "Compute per iteration", "ms", 1, 1e5, 120),
          ParamSpec::real("slowdown-ms", "Slow rank's extra compute", "ms", 0, 1e5, 250),
          ParamSpec::real("transfer-ms", "All-reduce once both arrive", "ms", 0.01, 1e5, 2),
          ParamSpec::integer("nccl-sms", "SMs NCCL holds", "", 1, 1000, 16),
          ParamSpec::real("sample-ms", "NVML sample period", "ms", 1, 1e4, 167),
          ParamSpec::integer("iterations", "Iterations", "", 1, 1000, 6)},
         gpuUtil});
    v.push_back(
        {"rdma-path",
         "GPUDirect RDMA vs a bounce through host memory inside an 8-GPU server (nccl-topology)",
         {gpuArgument(),
          ParamSpec::choice("nic", "NIC placement", {"same-switch", "other-socket"}, "same-switch"),
          ParamSpec::integer("gpu-index", "GPU in the server", "", 0, 7, 0)},
         rdmaPath});
}

} // namespace wb
