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

const char* kDcgmSmActive = "DCGM profiling metric DCGM_FI_PROF_SM_ACTIVE (DCGM User Guide, "
                            "Profiling Metrics): share of time SMs have a warp resident";
const char* kLayout = "server layout assumed DGX/HGX-style: 2 GPUs + 2 NICs per PCIe switch, "
                      "2 sockets";
const char* kTreeBlog = "Jeaugey, NCCL 2.4 blog (2019): chains inside nodes, double binary "
                        "trees across nodes";
const char* kNcclTuner = "NCCL environment variables, NCCL_ALGO: NCCL picks the algorithm and "
                         "protocol per call from its own latency and bandwidth estimates";
const char* kPxnSource = "NCCL environment variables, NCCL_PXN_DISABLE (NCCL 2.12): send "
                         "through a non-local NIC by way of NVLink and an intermediate GPU";
// Packets per second of animation on the fastest link class; slower classes scale down.
constexpr double kPacketsAtFastest = 14.0;
constexpr double kPacketsPerRing = 5.0;
constexpr int kIterations = 6;
constexpr double kKernelS = 4e-3;
constexpr double kLaunchGapS = 40e-6;
constexpr int kSweepPoints = 25;
// Per-step latency for the ring-vs-tree comparison: an assumption, not a published figure,
// and labelled so on the slide.
constexpr double kAssumedAlphaS = 5e-6;
// An all-reduce on a tree reduces up its deepest path and broadcasts back down it.
constexpr int kTreePasses = 2;
// Up to this many servers every GPU of the drawn ring carries its position.
constexpr int kNumberEveryGpuUpTo = 2;

struct NcclSweepPoint {
    double slowdownS = 0;
    UtilisationSample fast; // over the whole run
};

struct NcclTopologyModel {
    const GpuSpec* gpu = nullptr;
    int hosts = 2;
    int gpus = 16;
    int channels = 4;
    double messageBytes = 256e6;
    NicPlacement placement = NicPlacement::SameSwitch;
    NodeDiagram server{1, *HardwareCatalogue::builtin().find("h100-sxm")};
    NodeDiagram cluster{1, *HardwareCatalogue::builtin().find("h100-sxm")};
    std::vector<ModeledRing> rings;
    int drawnChannels = 1;
    int nicsUsed = 0;
    std::vector<RdmaPath> gdr, bounce, pxn;
    SustainedRate gdrRate, bounceRate, pxnRate;
    double ringBusGBs = 0;
    AllReduceCost ring;                 // bandwidth term only (α = 0), as the ring step shows it
    AllReduceCost ringAlpha, treeAlpha; // with the assumed α
    TreeDepth treeDepth;
    std::optional<double> crossover;
    CollectiveWaitTimeline wait;
    UtilisationSample fastRun, slowRun;
    std::vector<UtilisationSample> fastSamples, slowSamples;
    double sampleS = 1.0 / 6.0;
    std::vector<NcclSweepPoint> sweep;
    double sweepMaxS = 0;
    bool pxnHelps() const { return pxn.front().relayGpu >= 0; }
};

const HardwareCatalogue& cat() {
    return HardwareCatalogue::builtin();
}

std::string gbs(double gigabytesPerS) {
    return formatSi(gigabytesPerS * 1e9, "B/s");
}

std::string idx(int i) {
    return std::to_string(i);
}

// Every value the slides quote, for the sweep to hold them to.
std::vector<ResultValue> ncclResults(const NcclTopologyModel& m) {
    const NodeBandwidths& bw = m.server.bandwidths();
    std::vector<ResultValue> out{
        {"GPUs per server", NodeDiagram::kGpusPerHost},
        {"PCIe switches per server", NodeDiagram::kSwitchesPerHost},
        {"GPUs and NICs per PCIe switch", NodeDiagram::kGpusPerSwitch},
        {"CPU sockets", NodeDiagram::kSockets},
        {"GPU memory", m.gpu->value("memory_gb") * 1e9},
        {"servers", m.hosts},
        {"GPUs in all", m.gpus},
        {"channels", m.channels},
        {"channels drawn", m.drawnChannels},
        {"NICs used per server", m.nicsUsed},
        {"NVLink per direction", bw.nvlinkGBs * 1e9},
        {"PCIe x16 per direction", bw.pcieGBs * 1e9},
        {"NIC per direction", bw.nicGBs * 1e9},
        {"NVLink ÷ PCIe", bw.nvlinkGBs / bw.pcieGBs},
        {"NVLink ÷ NIC", bw.nvlinkGBs / bw.nicGBs},
        {"ring bus bandwidth", m.ringBusGBs * 1e9},
        {"message", m.messageBytes},
        {"ring bandwidth term", m.ring.bandwidthS},
        {"bytes sent per GPU", m.ring.bytesSentPerRank},
        {"ring latency steps", m.ringAlpha.steps},
        {"tree latency steps", m.treeAlpha.steps},
        {"tree passes", kTreePasses},
        {"tree depth", m.treeDepth.hops()},
        {"tree hops inside servers", m.treeDepth.intraHops},
        {"tree hops between servers", m.treeDepth.interHops},
        {"assumed α", kAssumedAlphaS},
        {"ring time, assumed α", m.ringAlpha.timeS},
        {"tree time, assumed α", m.treeAlpha.timeS},
        {"slow rank's extra compute", m.wait.config.slowdownS},
        {"compute per iteration", m.wait.config.computeS},
        {"NCCL SMs", m.wait.config.ncclSms},
        {"SMs", m.wait.config.smCount},
        {"waiting", m.wait.waitingS},
        {"run", m.wait.endS},
        {"waiting share", m.wait.waitingS / m.wait.endS},
        {"sample period", m.sampleS},
        {"rank 0 GPU-Util", m.fastRun.gpuUtilPercent},
        {"rank 0 SM activity", m.fastRun.smActivityPercent},
        {"rank 1 GPU-Util", m.slowRun.gpuUtilPercent},
        {"rank 1 SM activity", m.slowRun.smActivityPercent},
        {"sweep's largest slowdown", m.sweepMaxS},
        {"no extra compute", 0},
    };
    if (m.crossover)
        out.push_back({"α-β crossover", *m.crossover});
    // GPUs, NICs, channels and servers are named by their index.
    for (int i = 0; i < std::max(m.gpus, m.channels); ++i)
        out.push_back({"index", i});
    const auto path = [&](const std::string& name, const RdmaPath& p, const SustainedRate& r) {
        out.push_back({fill("%1 copies", {name}), p.copies});
        out.push_back({fill("%1 PCIe hops", {name}), p.pcieHops});
        out.push_back({fill("%1 DRAM bytes per byte", {name}), p.hostMemoryBytesPerByte});
        out.push_back({fill("%1 per GPU", {name}), r.perGpuGBs * 1e9});
        out.push_back({fill("%1 paths on the busiest x16 direction", {name}), r.sharedBy});
        out.push_back(
            {fill("%1 time for the message", {name}), m.messageBytes / (r.perGpuGBs * 1e9)});
    };
    path("GPUDirect", m.gdr.front(), m.gdrRate);
    path("bounce", m.bounce.front(), m.bounceRate);
    path("PXN", m.pxn.front(), m.pxnRate);
    double utilLo = 100, utilHi = 0;
    for (const NcclSweepPoint& p : m.sweep) {
        utilLo = std::min(utilLo, p.fast.gpuUtilPercent);
        utilHi = std::max(utilHi, p.fast.gpuUtilPercent);
    }
    out.push_back({"sweep: lowest GPU-Util", utilLo});
    out.push_back({"sweep: highest GPU-Util", utilHi});
    out.push_back({"sweep: first SM activity", m.sweep.front().fast.smActivityPercent});
    out.push_back({"sweep: last SM activity", m.sweep.back().fast.smActivityPercent});
    return out;
}

// ---- Step 1: what is in a server ----------------------------------------------------------

NodeTopologyFrame serverFrame(const NcclTopologyModel& m, double phaseS) {
    const NodeDiagram& d = m.server;
    NodeTopologyFrame f = d.frame();
    const NodeBandwidths& bw = d.bandwidths();
    f.title = fill("One server: %1 × %2, NVSwitch, %3 PCIe switches, %4 NICs",
                   {idx(NodeDiagram::kGpusPerHost), m.gpu->name, idx(NodeDiagram::kSwitchesPerHost),
                    idx(NodeDiagram::kGpusPerHost)});
    NodeRoute nvlink;
    nvlink.parts = hopParts(d, 0, 1, HopTransport::NvLink);
    nvlink.colorIndex = 0;
    nvlink.packetsPerS = kPacketsAtFastest;
    nvlink.tip = fill("GPU 0 → GPU 1 over NVLink through the NVSwitch: %1 per direction",
                      {gbs(bw.nvlinkGBs)});
    // GPU 0 → GPU 2 without NVLink: up through PCIe switch 0, across CPU 0's root complex, down
    // switch 1 (NCCL calls this distance PHB).
    NodeRoute pcie;
    pcie.parts = {d.gpuPart(0, 0), d.switchPart(0, 0), d.cpuPart(0, 0), d.switchPart(0, 1),
                  d.gpuPart(0, 2)};
    pcie.colorIndex = 1;
    pcie.packetsPerS = kPacketsAtFastest * bw.pcieGBs / bw.nvlinkGBs;
    pcie.tip = fill("GPU 0 → GPU 2 over PCIe through CPU 0: at most %1 per direction, sharing "
                    "the switches' uplinks",
                    {gbs(bw.pcieGBs)});
    f.routes = {nvlink, pcie};
    f.routeClasses = {"NVLink: GPU 0 → GPU 1", "PCIe: GPU 0 → GPU 2"};
    f.phaseS = phaseS;
    f.caption = fill("Packets per second ∝ bandwidth: NVLink %1 vs PCIe %2 per direction; %3",
                     {gbs(bw.nvlinkGBs), gbs(bw.pcieGBs), kLayout});
    return f;
}

FactsFrame linkFacts(const NcclTopologyModel& m) {
    const NodeBandwidths& bw = m.server.bandwidths();
    const GpuSpec& g = *m.gpu;
    FactsFrame f;
    f.title = fill("Link classes, per direction (%1)", {g.name});
    f.rows.push_back({.label = "NVLink per GPU",
                      .value = gbs(bw.nvlinkGBs),
                      .source = fill("half of %1 GB/s bidirectional · %2",
                                     {formatSignificant(g.value("nvlink_bidirectional_gbs"), 4),
                                      cat().citation(g, "nvlink_bidirectional_gbs")}),
                      .emphasis = true});
    f.rows.push_back({"PCIe x16", gbs(bw.pcieGBs), cat().citation(g, "pcie_per_direction_gbs")});
    f.rows.push_back({"NIC", gbs(bw.nicGBs),
                      fill("%1 Gb/s ÷ 8 · %2", {formatSignificant(g.value("nic_gbps"), 3),
                                                cat().citation(g, "nic_gbps")})});
    f.rows.push_back({"NVLink ÷ PCIe",
                      fill("%1×", {formatSignificant(bw.nvlinkGBs / bw.pcieGBs, 3)}),
                      "why NCCL keeps intra-server traffic on NVLink"});
    f.rows.push_back({"NVLink ÷ NIC", fill("%1×", {formatSignificant(bw.nvlinkGBs / bw.nicGBs, 3)}),
                      "why tensor parallelism stays inside a server"});
    f.rows.push_back({"Per PCIe switch",
                      fill("%1 GPUs + %1 NICs", {idx(NodeDiagram::kGpusPerSwitch)}), kLayout});
    return f;
}

// ---- Steps 2–3: rings and trees ------------------------------------------------------------

// Numbers each GPU of `order` where the route first reaches it, 1, 2, 3, … in order; or, not
// `everyGpu`, only the first and last GPU of each server's run of the order.
std::vector<NodeRouteMark> ringPositionMarks(const NodeDiagram& d, const std::vector<int>& parts,
                                             const std::vector<int>& order, bool everyGpu = true) {
    constexpr int firstNumber = 1;
    const std::size_t perHost = NodeDiagram::kGpusPerHost;
    std::vector<NodeRouteMark> marks;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (!everyGpu && i % perHost != 0 && i % perHost != perHost - 1)
            continue;
        const int g = order[i];
        const int part = d.gpuPart(g / NodeDiagram::kGpusPerHost, g % NodeDiagram::kGpusPerHost);
        const auto at = std::find(parts.begin(), parts.end(), part);
        if (at == parts.end())
            continue;
        const int n = firstNumber + static_cast<int>(i);
        marks.push_back({.hop = static_cast<int>(at - parts.begin()),
                         .label = std::to_string(n),
                         .tip = fill("position %1: server %2, GPU %3",
                                     {std::to_string(n), idx(g / NodeDiagram::kGpusPerHost),
                                      idx(g % NodeDiagram::kGpusPerHost)})});
    }
    return marks;
}

NodeTopologyFrame ringsFrame(const NcclTopologyModel& m, double phaseS) {
    NodeTopologyFrame f = m.cluster.frame();
    const int perHost = NodeDiagram::kGpusPerHost;
    // Channel 0 in full, numbered in ring order: the order reads off the marks. Beyond two
    // servers the boxes are too small for every number, so each server's entry and exit GPU
    // carry theirs.
    const ModeledRing& first = m.rings.front();
    NodeRoute whole;
    whole.parts = chainParts(m.cluster, first.order, true);
    whole.colorIndex = 0;
    whole.packetsPerS = kPacketsPerRing;
    whole.marks =
        ringPositionMarks(m.cluster, whole.parts, first.order, m.hosts <= kNumberEveryGpuUpTo);
    whole.tip = "channel 0's ring, numbered in the order the data travels";
    f.routes.push_back(whole);
    f.routeClasses.push_back("channel 0 in ring order");
    // The other channels only where they differ: the hop out of one server into the next.
    for (int c = 1; c < m.drawnChannels && m.hosts > 1; ++c) {
        const ModeledRing& ring = m.rings[static_cast<std::size_t>(c)];
        for (int h = 0; h < m.hosts; ++h) {
            const int from = ring.order[static_cast<std::size_t>(h * perHost + perHost - 1)];
            const int to = ring.order[static_cast<std::size_t>(((h + 1) % m.hosts) * perHost)];
            NodeRoute r;
            r.parts = hopParts(m.cluster, from, to, HopTransport::NetworkGpuDirect);
            r.colorIndex = c;
            r.packetsPerS = kPacketsPerRing;
            r.tip =
                fill("channel %1 leaves server %2 from GPU %3 through NIC %3 and enters "
                     "server %4 at GPU %5 through NIC %5",
                     {idx(c), idx(h), idx(from % perHost), idx(to / perHost), idx(to % perHost)});
            f.routes.push_back(r);
        }
        f.routeClasses.push_back(fill("channel %1 crossings", {idx(c)}));
    }
    f.title = fill("NCCL rings: %1 over %2 GPUs",
                   {formatCount(m.channels, "channel", "channels"), idx(m.gpus)});
    f.phaseS = phaseS;
    f.caption =
        m.hosts > 1
            ? fill("Channel 0 drawn whole; %1 only between servers, where each leaves through a "
                   "different NIC",
                   {m.drawnChannels > 2 ? fill("channels 1–%1", {idx(m.drawnChannels - 1)})
                                        : std::string("channel 1")})
            : std::string("One server: every channel is a ring over NVLink; channel 0 drawn");
    if (m.hosts > 1 && m.drawnChannels < 2)
        f.caption = "Channel 0 drawn whole, numbered in ring order";
    return f;
}

FactsFrame ringFacts(const NcclTopologyModel& m) {
    const NodeBandwidths& bw = m.cluster.bandwidths();
    FactsFrame f;
    f.title =
        fill("Ring all-reduce of %1 over %2 GPUs", {formatBytes(m.messageBytes), idx(m.gpus)});
    f.rows.push_back({"Channels", idx(m.channels),
                      "each a ring over every GPU; the buffer is split across channels"});
    f.rows.push_back(
        {"NICs used per server", idx(m.nicsUsed),
         m.hosts > 1 ? "one per channel, up to one per GPU" : "one server: no network"});
    f.rows.push_back({.label = "Ring bus bandwidth",
                      .value = gbs(m.ringBusGBs),
                      .source = m.hosts > 1
                                    ? fill("min(NVLink %1, %2 × NIC %3)",
                                           {gbs(bw.nvlinkGBs), idx(m.nicsUsed), gbs(bw.nicGBs)})
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
    const int trees = m.hosts > 1 ? 2 : 1;
    for (int tree = trees - 1; tree >= 0; --tree) {
        // Each server's chain as one route, each server-to-server edge as another.
        for (int h = 0; h < m.hosts; ++h) {
            std::vector<int> chain;
            for (int k = 0; k < NodeDiagram::kGpusPerHost; ++k)
                chain.push_back(h * NodeDiagram::kGpusPerHost + k);
            f.routes.push_back(
                treeRoute(chainParts(m.cluster, chain, false), tree,
                          fill("tree %1: the chain inside server %2", {idx(tree), idx(h)})));
        }
        for (const ModeledTreeEdge& e : modeledTree(m.hosts, NodeDiagram::kGpusPerHost, tree))
            if (e.crossesHosts)
                f.routes.push_back(treeRoute(
                    hopParts(m.cluster, e.parent, e.child, HopTransport::NetworkGpuDirect), tree,
                    fill("tree %1: server %2 → server %3",
                         {idx(tree), idx(e.parent / NodeDiagram::kGpusPerHost),
                          idx(e.child / NodeDiagram::kGpusPerHost)})));
    }
    // Tree 0's deepest path on top, each hop numbered: the depth the latency steps come from.
    const std::vector<int>& path = m.treeDepth.path;
    NodeRoute deepest =
        treeRoute(chainParts(m.cluster, path, false), 0,
                  fill("tree 0's deepest path: %1 hops, root to leaf", {idx(m.treeDepth.hops())}));
    deepest.marks = ringPositionMarks(m.cluster, deepest.parts,
                                      std::vector<int>(path.begin() + 1, path.end()), 1);
    for (NodeRouteMark& mk : deepest.marks)
        mk.tip = fill("hop %1 from the root", {mk.label});
    f.routes.push_back(deepest);
    f.routeClasses = {"tree 0 (deepest path numbered)", "tree 1 (mirrored)"};
    if (trees == 1)
        f.routeClasses.pop_back();
    f.title =
        fill("NCCL's tree over %1: %2 deep", {formatCount(m.hosts, "server", "servers"),
                                              formatCount(m.treeDepth.hops(), "hop", "hops")});
    f.phaseS = phaseS;
    f.caption = m.hosts > 1 ? fill("Numbered: tree 0's deepest path, %1 along the chain, %2 "
                                   "between servers. Tree 1 mirrors it (%3)",
                                   {formatCount(m.treeDepth.intraHops, "hop", "hops"),
                                    formatCount(m.treeDepth.interHops, "hop", "hops"),
                                    "Jeaugey, NCCL 2.4 blog, 2019"})
                            : fill("One server: the tree is only the chain, %1 (%2)",
                                   {formatCount(m.treeDepth.intraHops, "hop", "hops"), kTreeBlog});
    return f;
}

FactsFrame treeFacts(const NcclTopologyModel& m) {
    FactsFrame f;
    f.title = fill("Tree vs ring, %1 GPUs, %2", {idx(m.gpus), formatBytes(m.messageBytes)});
    f.rows.push_back({"Ring latency steps", idx(m.ringAlpha.steps), "2(N−1) (Thakur et al. 2005)"});
    f.rows.push_back({"Tree depth, drawn", formatCount(m.treeDepth.hops(), "hop", "hops"),
                      fill("%1 along the chain + %2 between servers",
                           {idx(m.treeDepth.intraHops), idx(m.treeDepth.interHops)})});
    f.rows.push_back({.label = "Tree latency steps",
                      .value = idx(m.treeAlpha.steps),
                      .source = "2 × depth: reduce up the tree, broadcast back down",
                      .emphasis = true});
    f.rows.push_back(
        {"Ring · tree time, α assumed",
         fill("%1 · %2", {formatSi(m.ringAlpha.timeS, "s"), formatSi(m.treeAlpha.timeS, "s")}),
         fill("α = %1 per step (assumed), B = ring bus bandwidth; tree bytes 2K/B",
              {formatSi(kAssumedAlphaS, "s")})});
    f.rows.push_back({"α-β crossover, α assumed",
                      m.crossover ? formatBytes(*m.crossover) : std::string("none"),
                      m.crossover ? std::string("below it the tree's fewer steps win in this model")
                                  : std::string("the tree has no fewer steps: the ring is never "
                                                "slower in this model")});
    f.rows.push_back({"Who picks ring or tree", "NCCL's tuner", kNcclTuner});
    return f;
}

// ---- Steps 4–6: GPUDirect RDMA, the bounce, PXN ---------------------------------------------

NodeTopologyFrame pathFrame(const NcclTopologyModel& m, const std::vector<RdmaPath>& paths,
                            const SustainedRate& rate, std::string title, std::string caption,
                            double phaseS) {
    NodeTopologyFrame f = m.server.frame();
    const double pps = kPacketsAtFastest * rate.perGpuGBs / m.server.bandwidths().nvlinkGBs * 2.0;
    for (std::size_t g = 0; g < paths.size(); ++g) {
        NodeRoute r;
        r.parts = paths[g].parts;
        r.colorIndex = g == 0 ? 0 : 1;
        r.packetsPerS = pps;
        if (g == 0)
            r.marks = paths[g].marks;
        r.tip = fill("GPU %1 → NIC %2: %3, %4 PCIe hops, %5 with all %6 sending",
                     {idx(paths[g].gpu), idx(paths[g].nic), paths[g].name, idx(paths[g].pcieHops),
                      gbs(rate.perGpuGBs), idx(NodeDiagram::kGpusPerHost)});
        f.routes.push_back(r);
    }
    // GPU 0's path on top of the others.
    std::rotate(f.routes.begin(), f.routes.begin() + 1, f.routes.end());
    f.parts[static_cast<std::size_t>(m.server.gpuPart(0, 0))].emphasis = true;
    f.routeClasses = {"GPU 0's path", "the other GPUs' paths"};
    f.title = std::move(title);
    f.phaseS = phaseS;
    f.caption = std::move(caption);
    return f;
}

// GPU 0's path of one kind against another, in the facts beside the diagram.
FactsFrame pathFacts(const NcclTopologyModel& m, const RdmaPath& a, const SustainedRate& ra,
                     const RdmaPath& b, const SustainedRate& rb, const std::string& names,
                     bool aboutFirst) {
    FactsFrame f;
    f.title = fill("GPU 0 → NIC %1: %2", {idx(a.nic), names});
    const auto both = [](const std::string& x, const std::string& y) {
        return fill("%1 · %2", {x, y});
    };
    const auto yes = [](bool v) { return std::string(v ? "yes" : "no"); };
    f.rows.push_back({"Copies on the way", both(idx(a.copies), idx(b.copies)),
                      m.pxnHelps()
                          ? "the bounce writes into a pinned host buffer; PXN into the NIC's GPU"
                          : "the bounce writes the payload into a pinned host buffer first"});
    f.rows.push_back(
        {"PCIe x16 hops", both(idx(a.pcieHops), idx(b.pcieHops)), "counted on the drawn path"});
    f.rows.push_back({"Host DRAM traffic per byte",
                      both(fill("%1 B", {formatSignificant(a.hostMemoryBytesPerByte, 2)}),
                           fill("%1 B", {formatSignificant(b.hostMemoryBytesPerByte, 2)})),
                      "the bounce: written once, read once by the NIC"});
    f.rows.push_back({"Crosses the CPU link", both(yes(a.crossesCpuLink), yes(b.crossesCpuLink)),
                      "NCCL_NET_GDR_LEVEL sets how far apart NIC and GPU may be for GPUDirect"});
    f.rows.push_back({.label = fill("Per GPU, all %1 sending", {idx(NodeDiagram::kGpusPerHost)}),
                      .value = both(gbs(ra.perGpuGBs), gbs(rb.perGpuGBs)),
                      .source = fill("min(NIC, PCIe x16 ÷ paths sharing it): %1",
                                     {aboutFirst ? ra.bottleneck : rb.bottleneck}),
                      .emphasis = true});
    f.rows.push_back({fill("Time to send %1", {formatBytes(m.messageBytes)}),
                      both(formatSi(m.messageBytes / (ra.perGpuGBs * 1e9), "s"),
                           formatSi(m.messageBytes / (rb.perGpuGBs * 1e9), "s")),
                      "bandwidth term only, per GPU"});
    return f;
}

std::string gpuDirectNarration(const NcclTopologyModel& m) {
    const RdmaPath& a = m.gdr.front();
    const std::string rate =
        fill("with all %1 sending each GPU gets %2, bounded by %3",
             {idx(NodeDiagram::kGpusPerHost), gbs(m.gdrRate.perGpuGBs), m.gdrRate.bottleneck});
    if (!a.crossesCpuLink)
        return fill("With GPUDirect RDMA, NIC %1 reads the payload straight out of GPU 0's memory "
                    "through the PCIe switch they share: %2 PCIe hops, no copy, no host memory. "
                    "Every GPU–NIC pair keeps to its own switch; %3.",
                    {idx(a.nic), idx(a.pcieHops), rate});
    return fill("With GPUDirect RDMA the NIC reads GPU memory directly, but GPU 0's NIC %1 sits "
                "under the other socket: the read climbs GPU 0's switch, crosses the CPU link and "
                "comes down NIC %1's switch, %2 PCIe hops; %3. NCCL_NET_GDR_LEVEL decides whether "
                "NCCL uses GPUDirect that far apart.",
                {idx(a.nic), idx(a.pcieHops), rate});
}

std::string bounceNarration(const NcclTopologyModel& m) {
    const RdmaPath& a = m.gdr.front();
    const RdmaPath& b = m.bounce.front();
    const std::string rate =
        m.bounceRate.perGpuGBs < m.gdrRate.perGpuGBs
            ? fill("each GPU gets %1 instead of GPUDirect's %2, bounded by %3",
                   {gbs(m.bounceRate.perGpuGBs), gbs(m.gdrRate.perGpuGBs), m.bounceRate.bottleneck})
            : fill("each GPU still gets %1, bounded by %2",
                   {gbs(m.bounceRate.perGpuGBs), m.bounceRate.bottleneck});
    return fill("Without GPUDirect, GPU 0 first writes the payload into a pinned buffer in host "
                "memory (%1) and NIC %2 reads it back (%3): %4, %5 of DRAM traffic per byte, %6 "
                "PCIe hops against %7. With all %8 sending, %9.",
                {idx(1), idx(b.nic), idx(2), formatCount(b.copies, "copy", "copies"),
                 fill("%1 B", {formatSignificant(b.hostMemoryBytesPerByte, 2)}), idx(b.pcieHops),
                 idx(a.pcieHops), idx(NodeDiagram::kGpusPerHost), rate});
}

std::string pxnNarration(const NcclTopologyModel& m) {
    const RdmaPath& a = m.gdr.front();
    const RdmaPath& p = m.pxn.front();
    return fill("NCCL avoids the CPU link with PXN: GPU 0 writes the payload over NVLink into GPU "
                "%1, which shares NIC %1's PCIe switch (%2), and the NIC reads it from there with "
                "GPUDirect (%3). %4 PCIe hops instead of %5, no CPU link, no host memory; with "
                "all %6 sending each GPU gets %7 against %8 across the sockets. Setting "
                "NCCL_PXN_DISABLE turns it off.",
                {idx(p.relayGpu), idx(1), idx(2), idx(p.pcieHops), idx(a.pcieHops),
                 idx(NodeDiagram::kGpusPerHost), gbs(m.pxnRate.perGpuGBs),
                 gbs(m.gdrRate.perGpuGBs)});
}

// ---- Steps 7–8: the GPU-Util trap ------------------------------------------------------------

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
            row.bars.push_back({.startS = s.startS,
                                .endS = s.endS,
                                .kind = ScheduleKind::Compute,
                                .label = "",
                                .shade = 0,
                                .tip = fill("%1, iteration %2: %3 on %4 of the SMs",
                                            {f.categories[static_cast<std::size_t>(category)],
                                             idx(s.iteration), formatSi(s.endS - s.startS, "s"),
                                             formatShare(r->smFraction(s.kind))}),
                                .category = category});
        }
        f.rows.push_back(row);
    }
    f.caption =
        m.wait.waitingS > 0
            ? fill("rank 0 spins in NCCL for %1 of %2; NCCL holds %3 of %4 SMs (one block per "
                   "channel)",
                   {formatSi(m.wait.waitingS, "s"), formatSi(m.wait.endS, "s"),
                    idx(m.wait.config.ncclSms), idx(m.wait.config.smCount)})
            : fill("neither rank waits in NCCL; its kernel holds %1 of %2 SMs (one block per "
                   "channel) while it moves the data",
                   {idx(m.wait.config.ncclSms), idx(m.wait.config.smCount)});
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
                {.name = fill(util ? "%1: GPU-Util" : "%1: SM active", {idx(rank)}),
                 .points = steps(rank == 0 ? m.fastSamples : m.slowSamples, util),
                 .style = util ? ChartSeries::Style::Line : ChartSeries::Style::Dashed,
                 .colorIndex = rank});
    c.footnote = "GPU-Util: NVML nvmlUtilization_t; SM active: mean share of SMs with work";
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
    ChartSeries sm{.name = "SM activity (DCGM_FI_PROF_SM_ACTIVE)",
                   .points = {},
                   .style = ChartSeries::Style::Dashed,
                   .colorIndex = 1};
    for (const NcclSweepPoint& p : m.sweep) {
        util.points.push_back({p.slowdownS * 1e3, p.fast.gpuUtilPercent});
        sm.points.push_back({p.slowdownS * 1e3, p.fast.smActivityPercent});
    }
    c.series = {util, sm};
    const double x = m.wait.config.slowdownS * 1e3;
    c.markers.push_back({.at = {x, m.fastRun.gpuUtilPercent},
                         .label = fill("GPU-Util %1", {formatPercent(m.fastRun.gpuUtilPercent)}),
                         .tooltip = kNvmlGpuUtilDefinition,
                         .colorIndex = 0,
                         .estimate = false,
                         .emphasis = true});
    c.markers.push_back(
        {.at = {x, m.fastRun.smActivityPercent},
         .label = fill("SM activity %1", {formatPercent(m.fastRun.smActivityPercent)}),
         .tooltip = kDcgmSmActive,
         .colorIndex = 1,
         .estimate = false,
         .emphasis = false});
    c.footnote = "Modeled: compute kernels fill the GPU; NCCL's kernel holds one SM per channel";
    return c;
}

FactsFrame utilFacts(const NcclTopologyModel& m) {
    FactsFrame f;
    f.title = "Rank 0 and rank 1 over the whole run";
    f.rows.push_back({.label = "rank 0 GPU-Util",
                      .value = formatPercent(m.fastRun.gpuUtilPercent),
                      .source = "NVML: any kernel running, as a share of each sample period",
                      .emphasis = true});
    f.rows.push_back({"rank 0 SM activity", formatPercent(m.fastRun.smActivityPercent),
                      "time-average share of SMs with work"});
    f.rows.push_back(
        {"rank 1 GPU-Util", formatPercent(m.slowRun.gpuUtilPercent), "NVML, the same definition"});
    f.rows.push_back({"rank 1 SM activity", formatPercent(m.slowRun.smActivityPercent),
                      m.wait.waitingS > 0 ? "the slow rank computes: its SMs really are busy"
                                          : "both ranks compute alike"});
    f.rows.push_back({"rank 0 waiting", formatShare(m.wait.waitingS / m.wait.endS),
                      m.wait.waitingS > 0 ? "spinning in the all-reduce for the slow rank"
                                          : "neither rank waits for the other"});
    f.rows.push_back({"The counter to read", "SM active", kDcgmSmActive});
    f.rows.push_back({"And per job", "MFU", "PaLM §4.1: useful FLOP/s ÷ peak FLOP/s"});
    return f;
}

std::shared_ptr<const NcclTopologyModel> buildModel(const Params& p) {
    auto m = std::make_shared<NcclTopologyModel>();
    m->gpu = cat().find(p.text("gpu"));
    m->hosts = static_cast<int>(p.integer("servers"));
    m->gpus = m->hosts * NodeDiagram::kGpusPerHost;
    m->channels = static_cast<int>(p.integer("channels"));
    m->messageBytes = p.number("message") * 1e6;
    m->placement = parseNicPlacement(p.text("nic"));
    m->server = NodeDiagram(1, *m->gpu);
    m->cluster = NodeDiagram(m->hosts, *m->gpu);
    m->rings = modeledRings(m->hosts, NodeDiagram::kGpusPerHost, m->channels);
    m->drawnChannels = m->hosts > 1 ? std::min<int>(m->channels, kMaxDrawnChannels) : 1;
    m->nicsUsed = m->hosts > 1 ? std::min(m->channels, NodeDiagram::kGpusPerHost) : 0;
    m->gdr = serverPaths(m->server, true, m->placement);
    m->bounce = serverPaths(m->server, false, m->placement);
    m->pxn = serverPxnPaths(m->server, m->placement);
    m->gdrRate = sustainedRate(m->server, m->gdr);
    m->bounceRate = sustainedRate(m->server, m->bounce);
    m->pxnRate = sustainedRate(m->server, m->pxn);
    const NodeBandwidths& bw = m->cluster.bandwidths();
    m->ringBusGBs = ringBusBandwidthGBs(bw.nvlinkGBs, bw.nicGBs, NodeDiagram::kGpusPerHost,
                                        m->hosts, m->channels);
    m->ring = allReduceCost(AllReduceAlgorithm::Ring, m->gpus, m->messageBytes,
                            {0.0, m->ringBusGBs * 1e9});
    const AlphaBeta assumed{kAssumedAlphaS, m->ringBusGBs * 1e9};
    m->ringAlpha = allReduceCost(AllReduceAlgorithm::Ring, m->gpus, m->messageBytes, assumed);
    m->treeAlpha = chainTreeCost(m->hosts, NodeDiagram::kGpusPerHost, m->messageBytes, assumed);
    m->treeDepth = modeledTreeDepth(modeledTree(m->hosts, NodeDiagram::kGpusPerHost, 0));
    m->crossover = chainTreeCrossoverBytes(m->hosts, NodeDiagram::kGpusPerHost, assumed);

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
    m->fastRun = utilisationOver(m->wait.fast.kernels(), 0, m->wait.endS);
    m->slowRun = utilisationOver(m->wait.slow.kernels(), 0, m->wait.endS);
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

// "1 channel, a ring" or "4 channels, each a ring".
std::string channelRings(int channels) {
    return fill(channels == 1 ? "%1, a ring" : "%1, each a ring",
                {formatCount(channels, "channel", "channels")});
}

std::string ringsNarration(const NcclTopologyModel& m) {
    if (m.hosts == 1)
        return fill(
            "NCCL splits the buffer over %1 through all %2 GPUs; channel 0 is numbered in "
            "ring order. On one server every hop is NVLink through the NVSwitch, so any order "
            "is equally fast and no NIC is used: %3 of bus bandwidth.",
            {channelRings(m.channels), idx(m.gpus), gbs(m.ringBusGBs)});
    return fill("NCCL splits the buffer over %1 through all %2 GPUs; channel 0, "
                "numbered in ring order, enters each server at GPU 0 and leaves from GPU %3. "
                "Each further channel starts one GPU later, so it crosses servers through "
                "another NIC: %4 per server, %5 of bus bandwidth.",
                {channelRings(m.channels), idx(m.gpus), idx(NodeDiagram::kGpusPerHost - 1),
                 formatCount(m.nicsUsed, "NIC", "NICs"), gbs(m.ringBusGBs)});
}

std::string treesNarration(const NcclTopologyModel& m) {
    const std::string steps =
        fill("an all-reduce goes up it and back down: %1 × %2 = %3 latency steps, %4 the ring's %5",
             {idx(kTreePasses), idx(m.treeDepth.hops()), idx(m.treeAlpha.steps),
              m.treeAlpha.steps < m.ringAlpha.steps
                  ? "against"
                  : (m.treeAlpha.steps == m.ringAlpha.steps ? "as many as" : "more than"),
              idx(m.ringAlpha.steps)});
    if (m.hosts == 1)
        return fill("NCCL's tree is a chain inside each server and binary trees between servers. "
                    "On one server that is the chain alone, %1 deep: %2, so the tree gains "
                    "nothing. NCCL uses rings here, or NVLS where the NVSwitch reduces in the "
                    "switch.",
                    {formatCount(m.treeDepth.hops(), "hop", "hops"), steps});
    return fill("NCCL's tree is a chain inside each server and a double binary tree between "
                "servers. The drawn tree is %1 deep (%2 inside servers, %3 between): %4. Which "
                "one runs, NCCL decides per call.",
                {formatCount(m.treeDepth.hops(), "hop", "hops"), idx(m.treeDepth.intraHops),
                 idx(m.treeDepth.interHops), steps});
}

std::string utilNarration(const NcclTopologyModel& m) {
    if (m.wait.waitingS > 0)
        return fill("Rank 1 computes %1 longer each iteration, so rank 0's NCCL kernel spins for "
                    "%2 of the %3 run. NVML's GPU-Util is the share of each sample period in "
                    "which at least one kernel was running, so rank 0 reads %4 while NCCL keeps "
                    "only %5 of %6 SMs busy as it waits.",
                    {formatSi(m.wait.config.slowdownS, "s"), formatSi(m.wait.waitingS, "s"),
                     formatSi(m.wait.endS, "s"), formatPercent(m.fastRun.gpuUtilPercent),
                     idx(m.wait.config.ncclSms), idx(m.wait.config.smCount)});
    return fill(
        "Both ranks compute for the same time, so neither waits in the all-reduce. "
        "NVML's GPU-Util is the share of each sample period in which at least one kernel "
        "was running: rank 0 reads %1, and here its SMs are busy too (%2 SM activity).",
        {formatPercent(m.fastRun.gpuUtilPercent), formatPercent(m.fastRun.smActivityPercent)});
}

std::string watchNarration(const NcclTopologyModel& m) {
    double lo = 100, hi = 0;
    for (const NcclSweepPoint& p : m.sweep) {
        lo = std::min(lo, p.fast.gpuUtilPercent);
        hi = std::max(hi, p.fast.gpuUtilPercent);
    }
    const double first = m.sweep.front().fast.smActivityPercent;
    const double last = m.sweep.back().fast.smActivityPercent;
    return fill("As the other rank's extra compute grows to %1, rank 0's GPU-Util stays between "
                "%2 and %3 while its SM activity %4 from %5 to %6. Read DCGM's "
                "DCGM_FI_PROF_SM_ACTIVE (and MFU) instead, and look for the slow rank.",
                {formatSi(m.sweepMaxS, "s"), formatPercent(lo), formatPercent(hi),
                 last < first ? "falls" : "stays", formatPercent(first), formatPercent(last)});
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
- NCCL builds several **channels**, each a ring over all GPUs. Over NVSwitch every GPU order is equal, so what matters is where each ring leaves the server: different channels use different NICs, so 8 channels can fill 8 NICs. Ring all-reduce sends 2(N−1)/N·K per GPU (Thakur, Rabenseifner & Gropp 2005).
- NCCL's **tree** is a chain inside each server and a double binary tree between servers (Jeaugey, NCCL 2.4 blog, 2019): its latency steps are twice its depth: the chain's 7 hops plus ⌊log₂ servers⌋ hops between servers. NCCL picks ring, tree (or NVLS on NVSwitch) per call from its own latency/bandwidth model.
- **GPUDirect RDMA**: the NIC DMA-reads GPU memory through the PCIe switch they share; host memory is untouched. Without it the GPU first writes into a pinned host buffer and the NIC reads it back: an extra copy, 2 bytes of DRAM traffic per byte, and the switch's single uplink now carries both GPUs' traffic both ways. When the NIC sits under the other socket, **PXN** (NCCL 2.12) moves the data over NVLink to the GPU beside that NIC and sends from there.
- **GPU-Util** (NVML) is the "percent of time over the past sample period during which one or more kernels was executing" (NVML API reference, nvmlUtilization_t), sampled every 1/6 s to 1 s. A rank waiting in an all-reduce has NCCL's kernel resident, spinning on a flag on one SM per channel, so it reads **~100 %** while SM activity is a few percent. Read DCGM_FI_PROF_SM_ACTIVE and MFU instead, and find the slow rank.)";
}

std::vector<SourceRef> NcclTopologyScenario::sources() const {
    return {
        {"NVML API reference, nvmlUtilization_t", "https://docs.nvidia.com/deploy/nvml-api/"},
        {"DCGM User Guide, Profiling Metrics (DCGM_FI_PROF_SM_ACTIVE)",
         "https://docs.nvidia.com/datacenter/dcgm/latest/user-guide/feature-overview.html"},
        {"NCCL environment variables (NCCL_ALGO, NCCL_NET_GDR_LEVEL, NCCL_PXN_DISABLE)",
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
    const NodeBandwidths& bw = m->server.bandwidths();
    Story story;
    story.provenance =
        fill("modeled on CPU: %1 of %2 (bandwidths from the catalogue), NCCL "
             "rings and trees as modeled, kernels laid out by the model",
             {formatCount(m->hosts, "DGX-style server", "DGX-style servers"), m->gpu->name});
    story.results = ncclResults(*m);
    constexpr double kPlayS = 6.0;
    story.steps.push_back(
        {"Inside one server",
         fill("%1 GPUs share an NVSwitch; each PCIe switch holds %2 GPUs and %2 NICs, and the %3 "
              "PCIe switches hang off %4 CPU sockets. Packets move in proportion to bandwidth: "
              "NVLink's %5 per direction against PCIe's %6, %7× as fast.",
              {idx(NodeDiagram::kGpusPerHost), idx(NodeDiagram::kGpusPerSwitch),
               idx(NodeDiagram::kSwitchesPerHost), idx(NodeDiagram::kSockets), gbs(bw.nvlinkGBs),
               gbs(bw.pcieGBs), formatSignificant(bw.nvlinkGBs / bw.pcieGBs, 3)}),
         kPlayS, [m](double t) {
             return Frames{{serverFrame(*m, t * kPlayS), linkFacts(*m)}};
         }});
    story.steps.push_back({"NCCL's rings", ringsNarration(*m), kPlayS, [m](double t) {
                               return Frames{{ringsFrame(*m, t * kPlayS), ringFacts(*m)}};
                           }});
    story.steps.push_back({"NCCL's trees", treesNarration(*m), kPlayS, [m](double t) {
                               return Frames{{treesFrame(*m, t * kPlayS), treeFacts(*m)}};
                           }});
    const std::string gdrNic = nicPlacementName(m->placement);
    story.steps.push_back(
        {"GPUDirect RDMA", gpuDirectNarration(*m), kPlayS, [m, gdrNic](double t) {
             return Frames{
                 {pathFrame(*m, m->gdr, m->gdrRate, "GPUDirect RDMA: the NIC reads GPU memory",
                            fill("Marked: the one DMA. NIC %1; bottleneck %2",
                                 {gdrNic, m->gdrRate.bottleneck}),
                            t * kPlayS),
                  pathFacts(*m, m->gdr.front(), m->gdrRate, m->bounce.front(), m->bounceRate,
                            "GPUDirect · bounce", true)}};
         }});
    story.steps.push_back(
        {"Without it: the bounce", bounceNarration(*m), kPlayS, [m, gdrNic](double t) {
             return Frames{
                 {pathFrame(*m, m->bounce, m->bounceRate,
                            "Without GPUDirect: a bounce through host memory",
                            fill("Marked: the copy (1), the DMA (2). NIC %1; bottleneck %2",
                                 {gdrNic, m->bounceRate.bottleneck}),
                            t * kPlayS),
                  pathFacts(*m, m->gdr.front(), m->gdrRate, m->bounce.front(), m->bounceRate,
                            "GPUDirect · bounce", false)}};
         }});
    if (m->pxnHelps())
        story.steps.push_back(
            {"PXN: over NVLink, not the CPU link", pxnNarration(*m), kPlayS, [m](double t) {
                 return Frames{
                     {pathFrame(*m, m->pxn, m->pxnRate,
                                fill("PXN: GPU 0 → GPU %1 over NVLink, then NIC %1",
                                     {idx(m->pxn.front().relayGpu)}),
                                fill("Marked: the NVLink write (1), the DMA (2); %1", {kPxnSource}),
                                t * kPlayS),
                      pathFacts(*m, m->pxn.front(), m->pxnRate, m->gdr.front(), m->gdrRate,
                                "PXN · GPUDirect across sockets", true)}};
             }});
    story.steps.push_back({"What GPU-Util counts", utilNarration(*m), 8.0, [m](double t) {
                               return Frames{{waitSchedule(*m, t), samplesChart(*m)}};
                           }});
    story.steps.push_back({"What to watch instead", watchNarration(*m), 4.0, [m](double) {
                               return Frames{{sweepChart(*m), utilFacts(*m)}};
                           }});

    const RdmaPath& gdr = m->gdr.front();
    story.whiteboard.question = question();
    story.whiteboard.points = {
        {fill("A server: %1 GPUs on one NVSwitch at %2 per direction each, %3 PCIe x16 and "
              "%4 NICs at %5: NVLink is %6× a NIC, so traffic stays on NVLink inside the server.",
              {idx(NodeDiagram::kGpusPerHost), gbs(bw.nvlinkGBs), gbs(bw.pcieGBs),
               idx(NodeDiagram::kGpusPerHost), gbs(bw.nicGBs),
               formatSignificant(bw.nvlinkGBs / bw.nicGBs, 3)}),
         cat().citation(*m->gpu, "nvlink_bidirectional_gbs")},
        {fill("Rings: %1 over %2 GPUs, each leaving a server through its own NIC (%3 per "
              "server): %4 of bus bandwidth, %5 sent per GPU for %6.",
              {formatCount(m->channels, "channel", "channels"), idx(m->gpus), idx(m->nicsUsed),
               gbs(m->ringBusGBs), formatBytes(m->ring.bytesSentPerRank),
               formatBytes(m->messageBytes)}),
         "Thakur, Rabenseifner & Gropp 2005 (ring all-reduce); nccl-tests doc/PERFORMANCE.md"},
        {fill("Trees: a chain inside each server, a double binary tree between servers; %1 "
              "deep, so %2 latency steps against the ring's %3. NCCL's tuner picks per call.",
              {formatCount(m->treeDepth.hops(), "hop", "hops"), idx(m->treeAlpha.steps),
               idx(m->ringAlpha.steps)}),
         kTreeBlog},
        {fill("GPUDirect RDMA: the NIC reads GPU memory, %1 PCIe hops, no copy, %2 per GPU with "
              "all sending; the bounce adds %3 and %4 of DRAM traffic per byte, %5 per GPU.%6",
              {idx(gdr.pcieHops), gbs(m->gdrRate.perGpuGBs),
               formatCount(m->bounce.front().copies, "copy", "copies"),
               fill("%1 B", {formatSignificant(m->bounce.front().hostMemoryBytesPerByte, 2)}),
               gbs(m->bounceRate.perGpuGBs),
               m->pxnHelps()
                   ? fill(" With the NIC across the sockets, PXN goes over NVLink to GPU %1 "
                          "first: %2 per GPU, no CPU link.",
                          {idx(m->pxn.front().relayGpu), gbs(m->pxnRate.perGpuGBs)})
                   : std::string()}),
         m->pxnHelps() ? std::string("NVIDIA GPUDirect RDMA documentation; ") + kPxnSource
                       : std::string("NVIDIA GPUDirect RDMA documentation")},
        {fill("GPU-Util is the share of each sample period with any kernel running: rank 0 "
              "reads %1 with %2 SM activity. Read DCGM_FI_PROF_SM_ACTIVE and MFU instead.",
              {formatPercent(m->fastRun.gpuUtilPercent),
               formatPercent(m->fastRun.smActivityPercent)}),
         "NVML API reference, nvmlUtilization_t; DCGM User Guide, Profiling Metrics"},
    };
    story.checks = {
        {fill("How many MB does each GPU send in the ring all-reduce of %1 over %2 GPUs?",
              {formatBytes(m->messageBytes), idx(m->gpus)}),
         m->ring.bytesSentPerRank / 1e6, "MB", 0.02,
         fill("2(N−1)/N · K = 2 × %1 / %2 × %3 = %4.",
              {idx(m->gpus - 1), idx(m->gpus), formatBytes(m->messageBytes),
               formatBytes(m->ring.bytesSentPerRank)})},
        {"How many latency steps does one all-reduce take on the drawn tree?",
         static_cast<double>(m->treeAlpha.steps), "steps", 0.0,
         fill("Up and back down the deepest path: 2 × (%1 chain hops + %2 between servers) = %3.",
              {idx(m->treeDepth.intraHops), idx(m->treeDepth.interHops), idx(m->treeAlpha.steps)})},
        {fill("With all %1 GPUs bouncing through host memory, how many GB/s does each get?",
              {idx(NodeDiagram::kGpusPerHost)}),
         m->bounceRate.perGpuGBs, "GB/s", 0.02,
         fill("min(NIC %1, x16 %2 ÷ %3 paths on its busiest direction) = %4.",
              {gbs(bw.nicGBs), gbs(bw.pcieGBs), idx(m->bounceRate.sharedBy),
               gbs(m->bounceRate.perGpuGBs)})},
    };
    addWhiteboardStep(story,
                      fill("Rings at %1, a tree %2 deep, GPUDirect at %3 per GPU; GPU-Util %4 "
                           "against %5 SM activity.",
                           {gbs(m->ringBusGBs), formatCount(m->treeDepth.hops(), "hop", "hops"),
                            gbs(m->gdrRate.perGpuGBs), formatPercent(m->fastRun.gpuUtilPercent),
                            formatPercent(m->fastRun.smActivityPercent)}));

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
