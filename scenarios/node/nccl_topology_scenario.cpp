#include "node/nccl_topology_scenario.h"

#include "catalogue/hardware_catalogue.h"
#include "collectives/collective_cost.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "imported/comm_graph_builder.h"
#include "imported/ncu_kernels.h"
#include "node/collective_wait_timeline.h"
#include "node/gpu_util_sampler.h"
#include "node/nccl_channels.h"
#include "node/nccl_log_topology.h"
#include "node/node_diagram.h"
#include "node/node_routes.h"
#include "node/rdma_path.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace wb {

namespace {

const char* kNvml = "NVML utilization.gpu: share of the sample period in which one or more "
                    "kernels was executing (NVML API reference)";
const char* kLayout = "server layout assumed DGX/HGX-style: 2 GPUs + 2 NICs per PCIe switch, "
                      "2 sockets";
// Packets per second of animation on the fastest link class; slower classes scale down.
constexpr double kPacketsAtFastest = 14.0;
constexpr double kPacketsPerRing = 5.0;
constexpr int kIterations = 6;
constexpr double kKernelS = 4e-3;
constexpr double kLaunchGapS = 40e-6;
constexpr int kSweepPoints = 25;
// Per-step latency for the tree-vs-ring crossover: an assumption, not a published figure.
constexpr double kAssumedAlphaS = 5e-6;

struct SweepPoint {
    double slowdownS = 0;
    UtilisationSample fast; // over the whole run
};

struct NcclTopologyModel {
    const GpuSpec* gpu = nullptr;
    int hosts = 2;
    int channels = 4;
    double messageBytes = 256e6;
    NicPlacement placement = NicPlacement::SameSwitch;
    NodeDiagram server{1, *HardwareCatalogue::builtin().find("h100-sxm")};
    NodeDiagram cluster{1, *HardwareCatalogue::builtin().find("h100-sxm")};
    std::vector<ModeledRing> rings;
    std::vector<RdmaPath> gdr, bounce;
    SustainedRate gdrRate, bounceRate;
    double ringBusGBs = 0;
    AllReduceCost ring, tree;
    CollectiveWaitTimeline wait;
    std::vector<UtilisationSample> fastSamples, slowSamples;
    double sampleS = 1.0 / 6.0;
    std::vector<SweepPoint> sweep;
    double sweepMaxS = 0;
};

const HardwareCatalogue& cat() {
    return HardwareCatalogue::builtin();
}

// ---- Step 1: what is in a server ----------------------------------------------------------

NodeTopologyFrame serverFrame(const NcclTopologyModel& m, double phaseS) {
    const NodeDiagram& d = m.server;
    NodeTopologyFrame f = d.frame();
    const NodeBandwidths& bw = d.bandwidths();
    f.title = fill("One server: 8 × %1, NVSwitch, 4 PCIe switches, 8 NICs", {m.gpu->name});
    NodeRoute nvlink;
    nvlink.parts = hopParts(d, 0, 1, HopTransport::NvLink);
    nvlink.colorIndex = 0;
    nvlink.packetsPerS = kPacketsAtFastest;
    nvlink.tip = fill("GPU 0 → GPU 1 over NVLink through the NVSwitch: %1 per direction",
                      {formatSi(bw.nvlinkGBs * 1e9, "B/s")});
    // GPU 0 → GPU 2 without NVLink: up through PCIe switch 0, across CPU 0's root complex, down
    // switch 1 (NCCL calls this distance PHB).
    NodeRoute pcie;
    pcie.parts = {d.gpuPart(0, 0), d.switchPart(0, 0), d.cpuPart(0, 0), d.switchPart(0, 1),
                  d.gpuPart(0, 2)};
    pcie.colorIndex = 1;
    pcie.packetsPerS = kPacketsAtFastest * bw.pcieGBs / bw.nvlinkGBs;
    pcie.tip = fill("GPU 0 → GPU 2 over PCIe through CPU 0: at most %1 per direction, sharing "
                    "the switches' uplinks",
                    {formatSi(bw.pcieGBs * 1e9, "B/s")});
    f.routes = {nvlink, pcie};
    f.routeClasses = {"NVLink: GPU 0 → GPU 1", "PCIe: GPU 0 → GPU 2"};
    f.phaseS = phaseS;
    f.caption =
        fill("Packets per second ∝ bandwidth: NVLink %1 vs PCIe %2 per direction; %3",
             {formatSi(bw.nvlinkGBs * 1e9, "B/s"), formatSi(bw.pcieGBs * 1e9, "B/s"), kLayout});
    return f;
}

FactsFrame linkFacts(const NcclTopologyModel& m) {
    const NodeBandwidths& bw = m.server.bandwidths();
    const GpuSpec& g = *m.gpu;
    FactsFrame f;
    f.title = fill("Link classes, per direction (%1)", {g.name});
    f.rows.push_back({.label = "NVLink per GPU",
                      .value = formatSi(bw.nvlinkGBs * 1e9, "B/s"),
                      .source = fill("half of %1 GB/s bidirectional · %2",
                                     {formatSignificant(g.value("nvlink_bidirectional_gbs"), 4),
                                      cat().citation(g, "nvlink_bidirectional_gbs")}),
                      .emphasis = true});
    f.rows.push_back({"PCIe x16", formatSi(bw.pcieGBs * 1e9, "B/s"),
                      cat().citation(g, "pcie_per_direction_gbs")});
    f.rows.push_back({"NIC", formatSi(bw.nicGBs * 1e9, "B/s"),
                      fill("%1 Gb/s ÷ 8 · %2", {formatSignificant(g.value("nic_gbps"), 3),
                                                cat().citation(g, "nic_gbps")})});
    f.rows.push_back({"NVLink ÷ PCIe",
                      fill("%1×", {formatSignificant(bw.nvlinkGBs / bw.pcieGBs, 3)}),
                      "why NCCL keeps intra-server traffic on NVLink"});
    f.rows.push_back({"NVLink ÷ NIC", fill("%1×", {formatSignificant(bw.nvlinkGBs / bw.nicGBs, 3)}),
                      "why tensor parallelism stays inside a server"});
    f.rows.push_back({"Per PCIe switch", "2 GPUs + 2 NICs", kLayout});
    return f;
}

// ---- Steps 2–3: rings and trees ------------------------------------------------------------

NodeTopologyFrame ringsFrame(const NcclTopologyModel& m, double phaseS) {
    NodeTopologyFrame f = m.cluster.frame();
    const int drawn = std::min<int>(static_cast<int>(m.rings.size()), kMaxDrawnChannels);
    for (int c = 0; c < drawn; ++c) {
        const ModeledRing& ring = m.rings[static_cast<std::size_t>(c)];
        NodeRoute r;
        r.parts = chainParts(m.cluster, ring.order, true);
        r.colorIndex = c;
        r.packetsPerS = kPacketsPerRing;
        const int entry = ring.order.front() % NodeDiagram::kGpusPerHost;
        const int exit = ring.order[NodeDiagram::kGpusPerHost - 1] % NodeDiagram::kGpusPerHost;
        r.tip = fill(m.hosts > 1 ? "channel %1 ring: enters each server at GPU %2, leaves from "
                                   "GPU %3 through NIC %3"
                                 : "channel %1 ring: enters each server at GPU %2, leaves from "
                                   "GPU %3",
                     {std::to_string(c), std::to_string(entry), std::to_string(exit)});
        f.routes.push_back(r);
        f.routeClasses.push_back(fill("ring, channel %1", {std::to_string(c)}));
    }
    f.title =
        fill("NCCL rings: %1 channels over %2 GPUs",
             {std::to_string(m.channels), std::to_string(m.hosts * NodeDiagram::kGpusPerHost)});
    f.phaseS = phaseS;
    f.caption = fill("modeled ring orders; %1 of %2 channels drawn. Each channel enters a server "
                     "at a different GPU, so the channels use different NICs",
                     {std::to_string(drawn), std::to_string(m.channels)});
    return f;
}

FactsFrame ringFacts(const NcclTopologyModel& m) {
    const NodeBandwidths& bw = m.cluster.bandwidths();
    const int n = m.hosts * NodeDiagram::kGpusPerHost;
    FactsFrame f;
    f.title = fill("Ring all-reduce of %1 over %2 GPUs",
                   {formatBytes(m.messageBytes), std::to_string(n)});
    const int nicsUsed = m.hosts > 1 ? std::min(m.channels, NodeDiagram::kGpusPerHost) : 0;
    f.rows.push_back({"Channels", std::to_string(m.channels),
                      "each a ring over every GPU; the buffer is split across channels"});
    f.rows.push_back({"NICs used per server", std::to_string(nicsUsed),
                      m.hosts > 1 ? "one per channel, up to 8" : "one server: no network"});
    f.rows.push_back(
        {.label = "Ring bus bandwidth",
         .value = formatSi(m.ringBusGBs * 1e9, "B/s"),
         .source = m.hosts > 1 ? fill("min(NVLink %1, %2 × NIC %3)",
                                      {formatSi(bw.nvlinkGBs * 1e9, "B/s"),
                                       std::to_string(nicsUsed), formatSi(bw.nicGBs * 1e9, "B/s")})
                               : std::string("NVLink per GPU"),
         .emphasis = true});
    f.rows.push_back({"Ring time (bandwidth term)", formatSi(m.ring.bandwidthS, "s"),
                      "2(N−1)/N · K / B (nccl-tests doc/PERFORMANCE.md)"});
    f.rows.push_back({"Bytes sent per GPU", formatBytes(m.ring.bytesSentPerRank),
                      "2(N−1)/N · K (ring all-reduce, Thakur et al. 2005)"});
    return f;
}

NodeRoute treeRoute(std::vector<int> parts, int tree, std::string tip) {
    NodeRoute r;
    r.parts = std::move(parts);
    r.colorIndex = tree;
    r.dashed = tree == 1;
    r.packetsPerS = 3;
    r.tip = std::move(tip);
    return r;
}

NodeTopologyFrame treesFrame(const NcclTopologyModel& m, double phaseS) {
    NodeTopologyFrame f = m.cluster.frame();
    for (int tree = 0; tree < 2; ++tree) {
        // Each server's chain as one route, each server-to-server edge as another.
        for (int h = 0; h < m.hosts; ++h) {
            std::vector<int> chain;
            for (int k = 0; k < NodeDiagram::kGpusPerHost; ++k)
                chain.push_back(h * NodeDiagram::kGpusPerHost + k);
            f.routes.push_back(treeRoute(chainParts(m.cluster, chain, false), tree,
                                         fill("tree %1: the chain inside server %2",
                                              {std::to_string(tree), std::to_string(h)})));
        }
        for (const ModeledTreeEdge& e : modeledTree(m.hosts, NodeDiagram::kGpusPerHost, tree))
            if (e.crossesHosts)
                f.routes.push_back(treeRoute(
                    hopParts(m.cluster, e.parent, e.child, HopTransport::NetworkGpuDirect), tree,
                    fill("tree %1: server %2 → server %3",
                         {std::to_string(tree),
                          std::to_string(e.parent / NodeDiagram::kGpusPerHost),
                          std::to_string(e.child / NodeDiagram::kGpusPerHost)})));
    }
    f.routeClasses = {"tree 0", "tree 1 (mirrored)"};
    f.title =
        fill("NCCL's double binary tree across %1", {formatCount(m.hosts, "server", "servers")});
    f.phaseS = phaseS;
    f.caption = "A chain inside each server, binary trees between servers; a server inner in "
                "one tree is a leaf in the other (Jeaugey, NCCL 2.4 blog, 2019)";
    return f;
}

FactsFrame treeFacts(const NcclTopologyModel& m) {
    const int n = m.hosts * NodeDiagram::kGpusPerHost;
    FactsFrame f;
    f.title = fill("Trees vs rings, %1 GPUs", {std::to_string(n)});
    f.rows.push_back(
        {"Ring latency steps", std::to_string(m.ring.steps), "2(N−1) (Thakur et al. 2005)"});
    f.rows.push_back({.label = "Tree latency steps",
                      .value = std::to_string(m.tree.steps),
                      .source = "about 2·log₂(p); NCCL 2.4 blog: logarithmic",
                      .emphasis = true});
    f.rows.push_back({"Tree depth across servers",
                      std::to_string(m.hosts > 1 ? ceilLog2(m.hosts) : 0),
                      "⌈log₂ servers⌉ hops between servers"});
    const auto cross =
        crossoverBytes(AllReduceAlgorithm::Ring, AllReduceAlgorithm::DoubleBinaryTree,
                       std::max(2, n), {kAssumedAlphaS, m.ringBusGBs * 1e9});
    f.rows.push_back({"Tree wins below", cross ? formatBytes(*cross) : std::string("never"),
                      fill("α = %1 per step (assumed), B = ring bus bandwidth",
                           {formatSi(kAssumedAlphaS, "s")})});
    return f;
}

// ---- Steps 4–5: GPUDirect RDMA vs the bounce ----------------------------------------------

NodeTopologyFrame pathFrame(const NcclTopologyModel& m, bool gpuDirect, double phaseS) {
    const std::vector<RdmaPath>& paths = gpuDirect ? m.gdr : m.bounce;
    const SustainedRate& rate = gpuDirect ? m.gdrRate : m.bounceRate;
    NodeTopologyFrame f = m.server.frame();
    const double pps = kPacketsAtFastest * rate.perGpuGBs / m.server.bandwidths().nvlinkGBs * 2.0;
    for (std::size_t g = 0; g < paths.size(); ++g) {
        NodeRoute r;
        r.parts = paths[g].parts;
        r.colorIndex = g == 0 ? 0 : 1;
        r.packetsPerS = pps;
        if (g == 0)
            r.marks = paths[g].marks;
        r.tip = fill("GPU %1 → NIC %2: %3, %4 PCIe hops, %5 with all 8 sending",
                     {std::to_string(paths[g].gpu), std::to_string(paths[g].nic), paths[g].name,
                      std::to_string(paths[g].pcieHops), formatSi(rate.perGpuGBs * 1e9, "B/s")});
        f.routes.push_back(r);
    }
    // GPU 0's path on top of the others.
    std::rotate(f.routes.begin(), f.routes.begin() + 1, f.routes.end());
    f.parts[static_cast<std::size_t>(m.server.gpuPart(0, 0))].emphasis = true;
    f.routeClasses = {"GPU 0's path", "the other GPUs' paths"};
    f.title = gpuDirect ? "GPUDirect RDMA: the NIC reads GPU memory"
                        : "Without GPUDirect: a bounce through host memory";
    f.phaseS = phaseS;
    f.caption = fill(gpuDirect ? "Marked: the one DMA. NIC %1; bottleneck %2"
                               : "Marked: the copy (1), the DMA (2). NIC %1; bottleneck %2",
                     {nicPlacementName(m.placement), rate.bottleneck});
    return f;
}

FactsFrame pathFacts(const NcclTopologyModel& m, bool aboutGpuDirect) {
    const RdmaPath& a = m.gdr.front();
    const RdmaPath& b = m.bounce.front();
    FactsFrame f;
    f.title = fill("GPU 0 → NIC %1: GPUDirect · bounce", {std::to_string(a.nic)});
    const auto both = [](const std::string& x, const std::string& y) {
        return fill("%1 · %2", {x, y});
    };
    const auto yes = [](bool v) { return std::string(v ? "yes" : "no"); };
    f.rows.push_back({"Copies into a memory",
                      both(std::to_string(a.copies), std::to_string(b.copies)),
                      "the bounce writes the payload into a pinned host buffer first"});
    f.rows.push_back({"PCIe x16 hops", both(std::to_string(a.pcieHops), std::to_string(b.pcieHops)),
                      "counted on the drawn path"});
    f.rows.push_back({"Host DRAM traffic per byte",
                      both(fill("%1 B", {formatSignificant(a.hostMemoryBytesPerByte, 2)}),
                           fill("%1 B", {formatSignificant(b.hostMemoryBytesPerByte, 2)})),
                      "written once, read once by the NIC"});
    f.rows.push_back({"Crosses the CPU link", both(yes(a.crossesCpuLink), yes(b.crossesCpuLink)),
                      "NCCL_NET_GDR_LEVEL sets how far apart NIC and GPU may be for GPUDirect"});
    f.rows.push_back(
        {.label = "Per GPU, all 8 sending",
         .value = both(formatSi(m.gdrRate.perGpuGBs * 1e9, "B/s"),
                       formatSi(m.bounceRate.perGpuGBs * 1e9, "B/s")),
         .source = fill("min(NIC, PCIe x16 ÷ paths sharing it): %1",
                        {aboutGpuDirect ? m.gdrRate.bottleneck : m.bounceRate.bottleneck}),
         .emphasis = true});
    f.rows.push_back({fill("Time to send %1", {formatBytes(m.messageBytes)}),
                      both(formatSi(m.messageBytes / (m.gdrRate.perGpuGBs * 1e9), "s"),
                           formatSi(m.messageBytes / (m.bounceRate.perGpuGBs * 1e9), "s")),
                      "bandwidth term only, per GPU"});
    return f;
}

// ---- Steps 6–7: the GPU-Util trap ------------------------------------------------------------

ScheduleFrame waitSchedule(const NcclTopologyModel& m, double t) {
    ScheduleFrame f;
    f.title = "Two ranks per iteration: compute, then the all-reduce";
    f.categories = {"compute kernels", "NCCL kernel, waiting", "NCCL kernel, moving data"};
    f.endS = m.wait.endS;
    f.cursorS = t >= 1.0 ? -1.0 : t * m.wait.endS;
    f.axisUnit = "ms";
    f.axisUnitS = 1e-3;
    for (const RankTimeline* r : {&m.wait.fast, &m.wait.slow}) {
        ScheduleRow row;
        row.label = r->label;
        for (const RankSpan& s : r->spans) {
            const int category =
                s.kind == SpanKind::Compute ? 0 : (s.kind == SpanKind::Waiting ? 1 : 2);
            row.bars.push_back(
                {.startS = s.startS,
                 .endS = s.endS,
                 .kind = ScheduleKind::Compute,
                 .label = "",
                 .shade = 0,
                 .tip = fill("%1, iteration %2: %3 on %4 of the SMs",
                             {f.categories[static_cast<std::size_t>(category)],
                              std::to_string(s.iteration), formatSi(s.endS - s.startS, "s"),
                              formatShare(r->smFraction(s.kind))}),
                 .category = category});
        }
        f.rows.push_back(row);
    }
    f.caption =
        fill("rank 0 spins in NCCL for %1 of %2; NCCL holds %3 of %4 SMs (one block per "
             "channel)",
             {formatSi(m.wait.waitingS, "s"), formatSi(m.wait.endS, "s"),
              std::to_string(m.wait.config.ncclSms), std::to_string(m.wait.config.smCount)});
    return f;
}

ChartFrame samplesChart(const NcclTopologyModel& m) {
    ChartFrame c;
    c.title = fill("nvidia-smi vs the SMs, per %1 sample", {formatSi(m.sampleS, "s")});
    c.x = {.title = "time (s)", .min = 0, .max = m.wait.endS};
    c.y = {.title = "percent", .min = 0, .max = 105};
    const auto steps = [](const std::vector<UtilisationSample>& s, bool util) {
        std::vector<ChartPoint> p;
        for (const UtilisationSample& x : s) {
            const double v = util ? x.gpuUtilPercent : x.smActivityPercent;
            p.push_back({x.startS, v});
            p.push_back({x.endS, v});
        }
        return p;
    };
    // Per rank: GPU-Util solid, SM activity dashed, in the rank's colour.
    for (const int rank : {0, 1})
        for (const bool util : {true, false})
            c.series.push_back(
                {.name = fill(util ? "%1: GPU-Util" : "%1: SM active", {std::to_string(rank)}),
                 .points = steps(rank == 0 ? m.fastSamples : m.slowSamples, util),
                 .style = util ? ChartSeries::Style::Line : ChartSeries::Style::Dashed,
                 .colorIndex = rank});
    c.footnote = fill("%1; SM activity: mean share of SMs with work", {kNvml});
    return c;
}

ChartFrame sweepChart(const NcclTopologyModel& m) {
    ChartFrame c;
    c.title = "Rank 0 over the run as the other rank slows down";
    c.x = {.title = "slow rank's extra compute per iteration (ms)",
           .min = 0,
           .max = m.sweepMaxS * 1e3};
    c.y = {.title = "percent", .min = 0, .max = 105};
    ChartSeries util{.name = "GPU-Util (NVML)",
                     .points = {},
                     .style = ChartSeries::Style::Line,
                     .colorIndex = 0};
    ChartSeries sm{
        .name = "SM activity", .points = {}, .style = ChartSeries::Style::Dashed, .colorIndex = 1};
    for (const SweepPoint& p : m.sweep) {
        util.points.push_back({p.slowdownS * 1e3, p.fast.gpuUtilPercent});
        sm.points.push_back({p.slowdownS * 1e3, p.fast.smActivityPercent});
    }
    c.series = {util, sm};
    const UtilisationSample now = utilisationOver(m.wait.fast.kernels(), 0, m.wait.endS);
    const double x = (m.wait.config.slowdownS) * 1e3;
    c.markers.push_back({.at = {x, now.gpuUtilPercent},
                         .label = fill("GPU-Util %1", {formatPercent(now.gpuUtilPercent)}),
                         .tooltip = kNvml,
                         .colorIndex = 0,
                         .estimate = false,
                         .emphasis = true});
    c.markers.push_back({.at = {x, now.smActivityPercent},
                         .label = fill("SM activity %1", {formatPercent(now.smActivityPercent)}),
                         .tooltip = "time-average share of SMs busy on rank 0",
                         .colorIndex = 1,
                         .estimate = false,
                         .emphasis = false});
    c.footnote = "Modeled: compute kernels fill the GPU; NCCL's kernel holds one SM per channel";
    return c;
}

FactsFrame utilFacts(const NcclTopologyModel& m) {
    const UtilisationSample fast = utilisationOver(m.wait.fast.kernels(), 0, m.wait.endS);
    const UtilisationSample slow = utilisationOver(m.wait.slow.kernels(), 0, m.wait.endS);
    FactsFrame f;
    f.title = "Over the whole run";
    f.rows.push_back({.label = "rank 0 GPU-Util",
                      .value = formatPercent(fast.gpuUtilPercent),
                      .source = kNvml,
                      .emphasis = true});
    f.rows.push_back({"rank 0 SM activity", formatPercent(fast.smActivityPercent),
                      "time-average share of SMs with work"});
    f.rows.push_back({"rank 1 GPU-Util", formatPercent(slow.gpuUtilPercent), kNvml});
    f.rows.push_back({"rank 1 SM activity", formatPercent(slow.smActivityPercent),
                      "the slow rank computes: its SMs really are busy"});
    f.rows.push_back({"rank 0 waiting", formatShare(m.wait.waitingS / m.wait.endS),
                      "spinning in the all-reduce for the slow rank"});
    f.rows.push_back({"Look at instead", "SM activity, MFU",
                      "DCGM's SM-activity counter; MFU: PaLM §4.1, useful FLOPs ÷ peak"});
    return f;
}

std::shared_ptr<const NcclTopologyModel> buildModel(const Params& p) {
    auto m = std::make_shared<NcclTopologyModel>();
    m->gpu = cat().find(p.text("gpu"));
    m->hosts = static_cast<int>(p.integer("servers"));
    m->channels = static_cast<int>(p.integer("channels"));
    m->messageBytes = p.number("message") * 1e6;
    m->placement = parseNicPlacement(p.text("nic"));
    m->server = NodeDiagram(1, *m->gpu);
    m->cluster = NodeDiagram(m->hosts, *m->gpu);
    m->rings = modeledRings(m->hosts, NodeDiagram::kGpusPerHost, m->channels);
    m->gdr = serverPaths(m->server, true, m->placement);
    m->bounce = serverPaths(m->server, false, m->placement);
    m->gdrRate = sustainedRate(m->server, m->gdr);
    m->bounceRate = sustainedRate(m->server, m->bounce);
    const NodeBandwidths& bw = m->cluster.bandwidths();
    m->ringBusGBs = ringBusBandwidthGBs(bw.nvlinkGBs, bw.nicGBs, NodeDiagram::kGpusPerHost,
                                        m->hosts, m->channels);
    const int n = m->hosts * NodeDiagram::kGpusPerHost;
    m->ring =
        allReduceCost(AllReduceAlgorithm::Ring, n, m->messageBytes, {0.0, m->ringBusGBs * 1e9});
    m->tree = allReduceCost(AllReduceAlgorithm::DoubleBinaryTree, n, m->messageBytes,
                            {0.0, m->ringBusGBs * 1e9});

    CollectiveWaitConfig w;
    w.iterations = kIterations;
    w.computeS = static_cast<double>(p.integer("compute")) * 1e-3;
    w.kernelS = std::min(kKernelS, w.computeS);
    w.launchGapS = kLaunchGapS;
    w.slowdownS = static_cast<double>(p.integer("slowdown")) * 1e-3;
    // Once both ranks are in, the all-reduce takes what the ring model says for the message.
    w.transferS = std::max(1e-4, m->ring.bandwidthS);
    w.ncclSms = std::min(m->channels, static_cast<int>(m->gpu->value("sm_count")));
    w.smCount = static_cast<int>(m->gpu->value("sm_count"));
    m->wait = collectiveWaitTimeline(w);
    m->sampleS = static_cast<double>(p.integer("sample")) * 1e-3;
    m->fastSamples = sampleUtilisation(m->wait.fast.kernels(), m->sampleS, m->wait.endS);
    m->slowSamples = sampleUtilisation(m->wait.slow.kernels(), m->sampleS, m->wait.endS);
    m->sweepMaxS = std::max(2.0 * w.computeS, 1.5 * w.slowdownS);
    for (int i = 0; i < kSweepPoints; ++i) {
        CollectiveWaitConfig v = w;
        v.slowdownS = m->sweepMaxS * i / (kSweepPoints - 1);
        const CollectiveWaitTimeline tl = collectiveWaitTimeline(v);
        m->sweep.push_back({v.slowdownS, utilisationOver(tl.fast.kernels(), 0, tl.endS)});
    }
    return m;
}

} // namespace

std::string NcclTopologyScenario::question() const {
    return "Draw an 8-GPU server. How does NCCL move an all-reduce through it and out to the "
           "other servers, what does GPUDirect RDMA save, and why can nvidia-smi show 100 % on "
           "a GPU that is doing almost nothing?";
}

std::string NcclTopologyScenario::answer() const {
    return R"(**Inside a server NCCL rides NVLink; between servers it rides one NIC per channel; GPU-Util only says a kernel was resident.**
- An HGX/DGX H100 server: 8 GPUs on NVSwitch (NVLink **450 GB/s per direction** per GPU, Hopper Tuning Guide §1.4.3), PCIe switches pairing GPUs with **400 Gb/s = 50 GB/s** NICs, PCIe Gen5 x16 at **≈63 GB/s** per direction. NVLink is ~7× PCIe and ~9× a NIC.
- NCCL builds several **channels**, each a ring over all GPUs (and a double binary tree). Over NVSwitch every GPU order is equal, so what matters is where each ring leaves the server: different channels use different NICs, so 8 channels can fill 8 NICs. Ring all-reduce sends 2(N−1)/N·K per GPU (Thakur, Rabenseifner & Gropp 2005); trees cut the latency steps to ~2·log₂N for small messages.
- **GPUDirect RDMA**: the NIC DMA-reads GPU memory through the PCIe switch they share; host memory is untouched. Without it the GPU first writes into a pinned host buffer and the NIC reads it back: an extra copy, 2 bytes of DRAM traffic per byte, and the switch's single uplink to the CPU now carries both GPUs' traffic both ways — here the per-GPU rate falls from the NIC's 50 GB/s to ~31.5 GB/s. NCCL_NET_GDR_LEVEL decides how far apart NIC and GPU may be for GPUDirect.
- **GPU-Util** (NVML) is the "percent of time over the past sample period during which one or more kernels was executing" (NVML API reference, nvmlUtilization_t), sampled every 1/6 s to 1 s. A rank waiting in an all-reduce has NCCL's kernel resident, spinning on a flag on one SM per channel, so it reads **~100 %** while SM activity is a few percent. Watch SM activity (DCGM) and MFU instead, and find the slow rank.)";
}

std::vector<SourceRef> NcclTopologyScenario::sources() const {
    return {
        {"NVML API reference, nvmlUtilization_t", "https://docs.nvidia.com/deploy/nvml-api/"},
        {"NCCL environment variables (NCCL_P2P_LEVEL, NCCL_NET_GDR_LEVEL)",
         "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html"},
        {"NVIDIA GPUDirect RDMA documentation", "https://docs.nvidia.com/cuda/gpudirect-rdma/"},
        {"Jeaugey, Massively Scale Your Deep Learning Training with NCCL 2.4 (2019)",
         "https://developer.nvidia.com/blog/massively-scale-deep-learning-training-nccl-2-4/"},
        {"NVIDIA H100 Tensor Core GPU Architecture / Hopper Tuning Guide (NVLink)",
         "https://docs.nvidia.com/cuda/hopper-tuning-guide/"},
    };
}

std::vector<ParamSpec> NcclTopologyScenario::parameters() const {
    return {
        ParamSpec::choice("gpu", "GPU", cat().ids(), "h100-sxm",
                          "NVLink, PCIe, NIC and SM count from the hardware catalogue"),
        ParamSpec::integer("servers", "Servers", "", 1, 4, 2),
        ParamSpec::integer("channels", "NCCL channels", "", 1, 16, 4, false,
                           "rings (up to 4 drawn); NCCL's kernel takes one SM per channel"),
        ParamSpec::real("message", "Message", "MB", 1, 4096, 256, true, "the all-reduce buffer"),
        ParamSpec::choice("nic", "NIC placement", {"same-switch", "other-socket"}, "same-switch",
                          "where the NIC each GPU sends through sits"),
        ParamSpec::integer("slowdown", "Slow rank's extra compute", "ms", 0, 2000, 250),
        ParamSpec::integer("compute", "Compute per iteration", "ms", 20, 1000, 120),
        ParamSpec::integer("sample", "NVML sample period", "ms", 167, 1000, 167, false,
                           "between 1/6 s and 1 s, by product (NVML API reference)"),
    };
}

Story NcclTopologyScenario::build(const Params& p, const ScenarioInputs& in) const {
    const std::shared_ptr<const NcclTopologyModel> m = buildModel(p);
    Story story;
    story.provenance = fill("modeled on CPU: %1 DGX-style server(s) of %2 (bandwidths from the "
                            "catalogue), NCCL rings/trees as modeled, kernels laid out by the "
                            "model",
                            {std::to_string(m->hosts), m->gpu->name});
    constexpr double kPlayS = 6.0;
    story.steps.push_back(
        {"Inside one server",
         "Eight GPUs share an NVSwitch; each pair of GPUs shares a PCIe switch with two NICs, and "
         "the PCIe switches hang off two CPU sockets. Packets move in proportion to bandwidth: "
         "NVLink against PCIe.",
         kPlayS, [m](double t) {
             return Frames{{serverFrame(*m, t * kPlayS), linkFacts(*m)}};
         }});
    story.steps.push_back(
        {"NCCL's rings",
         "NCCL splits a collective over channels, each a ring through every GPU. Inside a server "
         "any order is equally fast over NVSwitch; between servers each channel leaves through "
         "a different NIC, so channels are how NCCL fills all the NICs.",
         kPlayS, [m](double t) {
             return Frames{{ringsFrame(*m, t * kPlayS), ringFacts(*m)}};
         }});
    story.steps.push_back(
        {"NCCL's trees",
         "For small messages NCCL uses a double binary tree: a chain inside each server and two "
         "mirrored binary trees between servers, so latency grows with log₂ of the servers, not "
         "with every GPU.",
         kPlayS, [m](double t) {
             return Frames{{treesFrame(*m, t * kPlayS), treeFacts(*m)}};
         }});
    story.steps.push_back(
        {"GPUDirect RDMA",
         "With GPUDirect RDMA the NIC reads the payload straight from GPU memory through the PCIe "
         "switch they share. No copy, no host memory, and each GPU–NIC pair keeps to its own "
         "switch.",
         kPlayS, [m](double t) {
             return Frames{{pathFrame(*m, true, t * kPlayS), pathFacts(*m, true)}};
         }});
    story.steps.push_back(
        {"Without it: the bounce",
         "Without GPUDirect the GPU first writes the payload into a pinned buffer in host memory "
         "(1) and the NIC reads it back (2). That adds a copy and DRAM traffic, and the PCIe "
         "switch's one uplink now carries both of its GPUs' traffic.",
         kPlayS, [m](double t) {
             return Frames{{pathFrame(*m, false, t * kPlayS), pathFacts(*m, false)}};
         }});
    story.steps.push_back(
        {"100 % GPU-Util, idle SMs",
         "Rank 1 computes slower. Rank 0 finishes, calls the all-reduce, and NCCL's kernel sits on "
         "its GPU spinning until rank 1 arrives. NVML counts any running kernel as busy, so rank "
         "0 reads about 100 % while a handful of SMs wait on a flag.",
         8.0, [m](double t) {
             return Frames{{waitSchedule(*m, t), samplesChart(*m)}};
         }});
    story.steps.push_back(
        {"What to watch instead",
         "The slower the other rank, the longer rank 0 spins: its GPU-Util stays near 100 % while "
         "its SM activity falls. Look at SM activity and MFU, and find the slow rank.",
         4.0, [m](double) {
             return Frames{{sweepChart(*m), utilFacts(*m)}};
         }});

    const ImportedSet& imported = in.imported;
    std::vector<std::string> paths;
    // The user's logs go right after the modeled rings and trees, in the order opened.
    std::ptrdiff_t at = 3;
    for (const auto& log : imported.ncclLogs) {
        if (!log.data)
            continue;
        paths.push_back(log.path);
        auto drawn = std::make_shared<const std::pair<NodeTopologyFrame, FactsFrame>>(
            ncclLogTopology(*log.data, log.path, *m->gpu), commGraphFacts(*log.data, log.path));
        const std::string title =
            imported.ncclLogs.size() > 1
                ? fill("Your NCCL log on the servers · %1", {fileNameOf(log.path)})
                : std::string("Your NCCL log on the servers");
        story.steps.insert(
            story.steps.begin() + at++,
            {title,
             "Your log's rings, one colour per channel, drawn through the path each hop's "
             "transport takes: P2P over the NVSwitch, SHM through host memory, the network with "
             "or without GPUDirect RDMA. The dashed route is channel 0's tree.",
             kPlayS, [drawn](double t) {
                 NodeTopologyFrame f = drawn->first;
                 f.phaseS = t * kPlayS;
                 return Frames{{f, drawn->second}};
             }});
    }
    story.provenance += importedNote(paths);
    return story;
}

} // namespace wb
