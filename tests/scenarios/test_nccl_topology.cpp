// nccl-topology nccl-topology: the server diagram, modeled NCCL rings and trees, GPUDirect RDMA vs
// the host bounce, NVML's GPU-Util against SM activity, an imported NCCL log drawn on servers, and
// the scenario's frames against those models.
#include "catalogue/hardware_catalogue.h"
#include "collectives/collective_cost.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "import/byte_source.h"
#include "import/nccl_log_importer.h"
#include "node/collective_wait_timeline.h"
#include "node/gpu_util_sampler.h"
#include "node/nccl_channels.h"
#include "node/nccl_log_topology.h"
#include "node/node_diagram.h"
#include "node/node_routes.h"
#include "node/rdma_path.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

using namespace wb;
using namespace wb::test;

namespace {

const GpuSpec& h100() {
    return *HardwareCatalogue::builtin().find("h100-sxm");
}

int countKind(const NodeTopologyFrame& f, NodePartKind k) {
    return static_cast<int>(std::count_if(f.parts.begin(), f.parts.end(),
                                          [k](const NodePart& p) { return p.kind == k; }));
}

bool linked(const NodeTopologyFrame& f, int a, int b, NodeLinkKind kind) {
    return std::any_of(f.links.begin(), f.links.end(), [&](const NodeLink& l) {
        return l.kind == kind && ((l.a == a && l.b == b) || (l.a == b && l.b == a));
    });
}

bool visits(const std::vector<int>& parts, int part) {
    return std::find(parts.begin(), parts.end(), part) != parts.end();
}

NcclLogData parseLog(const std::string& text) {
    NcclLogParser parser;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        parser.feed(line);
    parser.finish();
    return parser.data();
}

// Four ranks on two hosts: P2P inside hA, SHM inside hB, GPUDirect out of hA on NIC 1 and a
// host-memory network hop back.
const char* kTwoHostLog =
    "hA:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE\n"
    "hA:1:2 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 busId 2000 - Init COMPLETE\n"
    "hB:2:1 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE\n"
    "hB:2:2 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 5 busId 2000 - Init COMPLETE\n"
    "hA:1:1 [0] NCCL INFO Channel 00/02 : 0 1 2 3\n"
    "hA:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
    "hA:1:2 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/1/GDRDMA\n"
    "hB:2:1 [0] NCCL INFO Channel 00/0 : 2[0] -> 3[5] via SHM/direct/direct\n"
    "hB:2:2 [5] NCCL INFO Channel 00/0 : 3[5] -> 0[0] [send] via NET/IB/3\n";

} // namespace

class TestNcclTopology : public QObject {
    Q_OBJECT
private slots:
    void bandwidthsComeFromTheCatalogue() {
        for (const GpuSpec& g : HardwareCatalogue::builtin().gpus()) {
            const NodeBandwidths b = nodeBandwidths(g);
            QCOMPARE(b.nvlinkGBs, g.value("nvlink_bidirectional_gbs") / 2.0);
            QCOMPARE(b.pcieGBs, g.value("pcie_per_direction_gbs"));
            QCOMPARE(b.nicGBs, g.value("nic_gbps") / 8.0);
        }
        // FACTS §1: H100 NVLink 450 GB/s per direction, NIC 400 Gb/s = 50 GB/s.
        QCOMPARE(nodeBandwidths(h100()).nvlinkGBs, 450.0);
        QCOMPARE(nodeBandwidths(h100()).nicGBs, 50.0);
    }

    void theServerHasItsPartsAndWires() {
        for (int hosts : {1, 3}) {
            const NodeDiagram d(hosts, h100());
            const NodeTopologyFrame& f = d.frame();
            QCOMPARE(static_cast<int>(f.hosts.size()), hosts);
            QCOMPARE(countKind(f, NodePartKind::Gpu), 8 * hosts);
            QCOMPARE(countKind(f, NodePartKind::Nic), 8 * hosts);
            QCOMPARE(countKind(f, NodePartKind::PcieSwitch), 4 * hosts);
            QCOMPARE(countKind(f, NodePartKind::Cpu), 2 * hosts);
            QCOMPARE(countKind(f, NodePartKind::HostMemory), 2 * hosts);
            QCOMPARE(countKind(f, NodePartKind::NvSwitch), hosts);
            QCOMPARE(countKind(f, NodePartKind::Network), 1);
            for (int h = 0; h < hosts; ++h)
                for (int g = 0; g < 8; ++g) {
                    const int sw = d.switchPart(h, g / 2);
                    QVERIFY(linked(f, d.gpuPart(h, g), sw, NodeLinkKind::Pcie));
                    QVERIFY(linked(f, d.nicPart(h, g), sw, NodeLinkKind::Pcie));
                    QVERIFY(linked(f, d.gpuPart(h, g), d.nvSwitchPart(h), NodeLinkKind::NvLink));
                    QVERIFY(linked(f, d.nicPart(h, g), d.networkPart(), NodeLinkKind::Network));
                    QVERIFY(linked(f, sw, d.cpuPart(h, g / 4), NodeLinkKind::Pcie));
                }
            // Parts of one server stay inside its outline; servers do not overlap.
            for (std::size_t h = 1; h < f.hosts.size(); ++h)
                QVERIFY(f.hosts[h].x >= f.hosts[h - 1].x + f.hosts[h - 1].w);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NodeDiagram(0, h100()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NodeDiagram(9, h100()));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, NodeDiagram(1, h100()).gpuPart(1, 0));
    }

    void ringsVisitEveryGpuAndSpreadOverNics() {
        for (int hosts : {1, 2, 4})
            for (int channels : {1, 4, 8, 12}) {
                const auto rings = modeledRings(hosts, 8, channels);
                QCOMPARE(static_cast<int>(rings.size()), channels);
                std::set<int> exits;
                for (const ModeledRing& r : rings) {
                    std::vector<int> sorted = r.order;
                    std::sort(sorted.begin(), sorted.end());
                    for (int i = 0; i < hosts * 8; ++i)
                        QCOMPARE(sorted[static_cast<std::size_t>(i)], i); // a permutation
                    // Enters every server at GPU c mod 8, leaves from the GPU before it.
                    for (int h = 0; h < hosts; ++h)
                        QCOMPARE(r.order[static_cast<std::size_t>(h * 8)], h * 8 + r.channel % 8);
                    exits.insert(r.order[7] % 8);
                }
                QCOMPARE(static_cast<int>(exits.size()), std::min(channels, 8));
            }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modeledRings(2, 8, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modeledRings(0, 8, 2));
    }

    void theTwoTreesShareNoInnerServer() {
        // NCCL 2.4 (FACTS §3.3): no rank is an inner node in both trees.
        for (int hosts = 2; hosts <= 8; hosts += 2) {
            std::set<int> inner[2];
            for (int t = 0; t < 2; ++t) {
                std::map<int, int> parents;
                for (const ModeledTreeEdge& e : modeledTree(hosts, 8, t)) {
                    if (!e.crossesHosts) {
                        QCOMPARE(e.child, e.parent + 1); // the chain inside a server
                        continue;
                    }
                    inner[t].insert(e.parent / 8);
                    ++parents[e.child / 8];
                }
                // Every server but the root has exactly one parent server.
                QCOMPARE(static_cast<int>(parents.size()), hosts - 1);
                for (const auto& [server, n] : parents)
                    QCOMPARE(n, 1);
            }
            for (int s : inner[0])
                QVERIFY2(inner[1].count(s) == 0, "a server inner in both trees");
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modeledTree(2, 8, 2));
    }

    void ringBandwidthIsTheSlowestClass() {
        QCOMPARE(ringBusBandwidthGBs(450, 50, 8, 1, 1), 450.0);  // one server: NVLink
        QCOMPARE(ringBusBandwidthGBs(450, 50, 8, 2, 4), 200.0);  // 4 NICs
        QCOMPARE(ringBusBandwidthGBs(450, 50, 8, 2, 16), 400.0); // all 8 NICs
        QCOMPARE(ringBusBandwidthGBs(300, 50, 8, 4, 8), 300.0);  // NVLink caps it
    }

    void gpuDirectSkipsTheHostAndTheUplink() {
        const NodeDiagram d(1, h100());
        const NodeBandwidths& bw = d.bandwidths();
        const RdmaPath gdr = gpuDirectPath(d, 0, NicPlacement::SameSwitch);
        QCOMPARE(gdr.copies, 0);
        QCOMPARE(gdr.pcieHops, 2);
        QCOMPARE(gdr.hostMemoryBytesPerByte, 0.0);
        QVERIFY(!gdr.crossesCpuLink);
        QCOMPARE(gdr.marks.size(), std::size_t(1));
        QVERIFY(!visits(gdr.parts, d.memoryPart(0, 0)));
        QVERIFY(!visits(gdr.parts, d.cpuPart(0, 0)));
        const RdmaPath bounce = hostBouncePath(d, 0, NicPlacement::SameSwitch);
        QCOMPARE(bounce.copies, 1);
        QCOMPARE(bounce.pcieHops, 4);
        QCOMPARE(bounce.hostMemoryBytesPerByte, 2.0);
        QCOMPARE(bounce.marks.size(), std::size_t(2));
        QVERIFY(visits(bounce.parts, d.memoryPart(0, 0)));
        // Marks point at DRAM (the copy) and the NIC (the DMA).
        QCOMPARE(bounce.parts[static_cast<std::size_t>(bounce.marks[0].hop)], d.memoryPart(0, 0));
        QCOMPARE(bounce.parts[static_cast<std::size_t>(bounce.marks[1].hop)], d.nicPart(0, 0));
        // All 8 sending: GPUDirect pairs stay under their switch, so the NIC is the limit; the
        // bounce puts 2 GPUs' traffic on each switch's uplink in each direction.
        const SustainedRate g = sustainedRate(d, serverPaths(d, true, NicPlacement::SameSwitch));
        QCOMPARE(g.perGpuGBs, std::min(bw.nicGBs, bw.pcieGBs));
        QCOMPARE(g.bottleneck, std::string("the NIC"));
        const SustainedRate b = sustainedRate(d, serverPaths(d, false, NicPlacement::SameSwitch));
        QCOMPARE(b.sharedBy, 2);
        QCOMPARE(b.perGpuGBs, std::min(bw.nicGBs, bw.pcieGBs / 2.0));
        QVERIFY(b.perGpuGBs < g.perGpuGBs);
    }

    void aNicAcrossTheSocketsCrossesTheCpuLink() {
        const NodeDiagram d(1, h100());
        const RdmaPath gdr = gpuDirectPath(d, 1, NicPlacement::OtherSocket);
        QCOMPARE(gdr.nic, 5);
        QVERIFY(gdr.crossesCpuLink);
        QVERIFY(visits(gdr.parts, d.cpuPart(0, 0)) && visits(gdr.parts, d.cpuPart(0, 1)));
        const RdmaPath bounce = hostBouncePath(d, 1, NicPlacement::OtherSocket);
        QVERIFY(bounce.crossesCpuLink);
        QVERIFY(visits(bounce.parts, d.memoryPart(0, 1))); // the buffer sits by the NIC
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseNicPlacement("nearby"));
    }

    void gpuUtilCountsAnyKernelSmActivityCountsSms() {
        // One kernel on a tenth of the SMs for a tenth of the window.
        const auto one = utilisationOver({{0.1, 0.2, 0.1}}, 0.0, 1.0);
        QVERIFY(std::abs(one.gpuUtilPercent - 10.0) < 1e-9);
        QVERIFY(std::abs(one.smActivityPercent - 1.0) < 1e-9);
        // Two overlapping kernels: busy 0…0.75; SMs 0.6, then 1.2 capped at 1, then 0.6.
        const auto two = utilisationOver({{0.0, 0.5, 0.6}, {0.25, 0.75, 0.6}}, 0.0, 1.0);
        QVERIFY(std::abs(two.gpuUtilPercent - 75.0) < 1e-9);
        QVERIFY(std::abs(two.smActivityPercent - 55.0) < 1e-9);
        // A single-SM kernel that never ends reads 100 % (FACTS §11).
        const auto spin = sampleUtilisation({{0.0, 10.0, 1.0 / 132}}, 1.0 / 6.0, 2.0);
        QCOMPARE(spin.size(), std::size_t(12));
        for (const auto& s : spin) {
            QVERIFY(std::abs(s.gpuUtilPercent - 100.0) < 1e-9);
            QVERIFY(s.smActivityPercent < 1.0);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sampleUtilisation({}, 0.0, 1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sampleUtilisation({}, NAN, 1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, utilisationOver({{0.5, 0.1, 1.0}}, 0, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, utilisationOver({{0.0, 0.1, 2.0}}, 0, 1));
    }

    void aWaitingRankReadsBusyWhileItsSmsIdle() {
        CollectiveWaitConfig c;
        c.slowdownS = 0.3;
        const CollectiveWaitTimeline w = collectiveWaitTimeline(c);
        // The fast rank waits about the slowdown each iteration (plus the slow rank's extra
        // launch gaps).
        QVERIFY(std::abs(w.waitingS - c.iterations * c.slowdownS) < c.iterations * 0.01);
        const auto fast = utilisationOver(w.fast.kernels(), 0, w.endS);
        QVERIFY(fast.gpuUtilPercent > 98.0);
        // Analytically: compute on all SMs for I·compute, NCCL's share for the rest.
        const double share = static_cast<double>(c.ncclSms) / c.smCount;
        const double compute = c.iterations * c.computeS;
        const double expected = 100.0 * (compute + (w.endS - compute) * share) / w.endS;
        QVERIFY2(std::abs(fast.smActivityPercent - expected) < 1.0,
                 qPrintable(QString::number(fast.smActivityPercent) + " vs " +
                            QString::number(expected)));
        // No slowdown, no waiting.
        c.slowdownS = 0;
        QCOMPARE(collectiveWaitTimeline(c).waitingS, 0.0);
        c.ncclSms = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, collectiveWaitTimeline(c));
    }

    void anImportedLogIsDrawnThroughItsTransports() {
        const NcclLogData log = parseLog(kTwoHostLog);
        QCOMPARE(log.nranks.value_or(0), 4);
        const NcclLogPlacement place = placeNcclRanks(log);
        QCOMPARE(place.hosts, (std::vector<std::string>{"hA", "hB"}));
        QCOMPARE(place.gpuOfRank, (std::vector<int>{0, 1, 8, 13})); // cudaDev 5 on hB → 8 + 5
        const NodeTopologyFrame f = ncclLogTopology(log, "logs/run.log", h100());
        QCOMPARE(f.hosts.size(), std::size_t(2));
        QCOMPARE(f.hosts[1].label, std::string("hB"));
        QVERIFY(!f.routes.empty());
        const NodeRoute& ring = f.routes.front();
        const NodeDiagram d(2, h100());
        // P2P rank 0 → 1 over hA's NVSwitch, GPUDirect out through NIC 1 (no hA DRAM), SHM
        // through hB's DRAM, and the non-GDR return through hB's socket-1 DRAM and hA's DRAM 0.
        QVERIFY(visits(ring.parts, d.nvSwitchPart(0)));
        QVERIFY(visits(ring.parts, d.nicPart(0, 1)));
        QVERIFY(visits(ring.parts, d.networkPart()));
        QVERIFY(visits(ring.parts, d.memoryPart(1, 0)));
        QVERIFY(visits(ring.parts, d.nicPart(1, 3)));
        QVERIFY(visits(ring.parts, d.memoryPart(0, 0)));
        QVERIFY(f.title.find("run.log") != std::string::npos);
        QVERIFY(ring.tip.find("NET/IB/GDRDMA") != std::string::npos);
    }

    void theRealCorpusLogLandsOnOneServer() {
        // The real NCCL 2.27 log bundled in tests/data/import (gzip; ByteSource inflates it).
        auto opened =
            ByteSource::open(std::string(WB_TEST_DATA) +
                             "/import/nccl2.27.7_2xA100pcie_nvlink_roce_subsys_all.log.gz");
        QVERIFY(std::holds_alternative<std::unique_ptr<ByteSource>>(opened));
        auto text = std::get<std::unique_ptr<ByteSource>>(opened)->readAll();
        QVERIFY(std::holds_alternative<std::string>(text));
        const NcclLogData log = parseLog(std::get<std::string>(text));
        const NcclLogPlacement place = placeNcclRanks(log);
        QCOMPARE(place.hosts.size(), std::size_t(1));
        QCOMPARE(place.gpuOfRank, (std::vector<int>{0, 1}));
        const NodeTopologyFrame f = ncclLogTopology(log, "corpus.log", h100());
        const NodeDiagram d(1, h100());
        // Four channels drawn, each P2P between GPUs 0 and 1 over the NVSwitch, none via DRAM.
        QCOMPARE(static_cast<int>(f.routes.size()) - 1, kMaxDrawnChannels); // + channel 0's tree
        for (const NodeRoute& r : f.routes) {
            QVERIFY(visits(r.parts, d.nvSwitchPart(0)));
            QVERIFY(!visits(r.parts, d.memoryPart(0, 0)));
        }
    }

    void storyFollowsTheModels() {
        const Story s = build("nccl-topology");
        QCOMPARE(s.steps.size(), std::size_t(8)); // no PXN step with the NIC beside the GPU
        QVERIFY(s.provenance.find("modeled on CPU") == 0);
        const NodeDiagram d(2, h100());
        const auto ringFacts = first<FactsFrame>(s.steps[1].frames(0));
        const AllReduceCost cost = allReduceCost(AllReduceAlgorithm::Ring, 16, 256e6, {0.0, 200e9});
        QVERIFY(ringFacts->rows[2].value == "200 GB/s");
        QVERIFY(ringFacts->rows[3].value.find(formatSignificant(cost.bandwidthS * 1e3, 3)) == 0);
        // The packets move: a later t is a different frame.
        QVERIFY(!(s.steps[1].frames(0.1) == s.steps[1].frames(0.6)));
        // GPUDirect vs bounce: GPU 0's route carries the marks, one and two.
        const auto gdr = first<NodeTopologyFrame>(s.steps[3].frames(0.5));
        const auto bounce = first<NodeTopologyFrame>(s.steps[4].frames(0.5));
        QCOMPARE(gdr->routes.back().marks.size(), std::size_t(1));
        QCOMPARE(bounce->routes.back().marks.size(), std::size_t(2));
        QVERIFY(!visits(gdr->routes.back().parts, d.memoryPart(0, 0)));
        QVERIFY(visits(bounce->routes.back().parts, d.memoryPart(0, 0)));
        // GPU-Util: rank 0 reads near 100 % in every sample while some sample's SMs idle.
        const size_t util = stepIndex(s, "What GPU-Util counts");
        const auto chart = first<ChartFrame>(s.steps[util].frames(0.5));
        QVERIFY(chart.has_value());
        const auto& gpuUtil = chart->series[0].points;
        const auto& sm = chart->series[1].points;
        QVERIFY(
            std::all_of(gpuUtil.begin(), gpuUtil.end(), [](ChartPoint p) { return p.y > 95.0; }));
        QVERIFY(std::any_of(sm.begin(), sm.end(), [](ChartPoint p) { return p.y < 10.0; }));
        const auto schedule = first<ScheduleFrame>(s.steps[util].frames(0.25));
        QCOMPARE(schedule->rows.size(), std::size_t(2));
        QVERIFY(std::abs(schedule->cursorS - 0.25 * schedule->endS) < 1e-12);
        // The sweep: GPU-Util flat, SM activity falling as the other rank slows.
        const auto sweep = first<ChartFrame>(s.steps[util + 1].frames(0));
        const auto& u = sweep->series[0].points;
        const auto& a = sweep->series[1].points;
        QVERIFY(u.back().y > 99.0 && u.front().y > 99.0);
        QVERIFY(a.back().y < a.front().y - 40.0);
        // It closes on the whiteboard answer with check-yourself questions the model answers.
        QCOMPARE(s.steps.back().title, std::string(kWhiteboardTitle));
        QVERIFY(s.whiteboard.points.size() >= 3 && s.whiteboard.points.size() <= 6);
        for (const WhiteboardPoint& p : s.whiteboard.points)
            QVERIFY(!p.source.empty());
        QCOMPARE(s.checks.size(), std::size_t(3));
        QVERIFY(checkAnswer(s.checks[0], cost.bytesSentPerRank / 1e6)); // 2(N−1)/N · K
        QVERIFY(!checkAnswer(s.checks[0], 256.0));
        QVERIFY(checkAnswer(s.checks[1], 16));       // 2 × (7 + 1)
        QVERIFY(checkAnswer(s.checks[2], 63.0 / 2)); // x16 split by two GPUs
    }

    void theRingIsDrawnInRingOrder() {
        // Review: four whole rings over the NVSwitch were a tangle. Channel 0 is drawn whole,
        // its GPUs numbered in ring order; the others only where they cross servers.
        for (const char* servers : {"1", "2", "4"}) {
            const int hosts = std::stoi(servers);
            const Story s = build("nccl-topology", {{"servers", servers}});
            const auto f = first<NodeTopologyFrame>(s.steps[1].frames(1.0));
            const NodeDiagram d(hosts, h100());
            const auto rings = modeledRings(hosts, 8, 4);
            const NodeRoute& whole = f->routes.front();
            // Every GPU numbered up to two servers; beyond, each server's entry and exit.
            QCOMPARE(static_cast<int>(whole.marks.size()), hosts * (hosts > 2 ? 2 : 8));
            for (const NodeRouteMark& mark : whole.marks) {
                const int position = std::stoi(mark.label) - 1;
                const int g = rings[0].order[static_cast<std::size_t>(position)];
                QCOMPARE(whole.parts[static_cast<std::size_t>(mark.hop)], d.gpuPart(g / 8, g % 8));
            }
            for (std::size_t i = 1; i < whole.marks.size(); ++i) // in ring order along the route
                QVERIFY(std::stoi(whole.marks[i].label) > std::stoi(whole.marks[i - 1].label));
            // One crossing per server for channels 1–3, none of them through the NVSwitch.
            QCOMPARE(f->routes.size(), std::size_t(1 + (hosts > 1 ? 3 * hosts : 0)));
            for (std::size_t r = 1; r < f->routes.size(); ++r) {
                const NodeRoute& cross = f->routes[r];
                const int c = cross.colorIndex;
                QVERIFY(visits(cross.parts, d.networkPart()));
                for (int h = 0; h < hosts; ++h)
                    QVERIFY(!visits(cross.parts, d.nvSwitchPart(h)));
                // It leaves through the NIC of the GPU before its entry GPU.
                const auto out = std::find_if(cross.parts.begin(), cross.parts.end(), [&](int p) {
                    return d.frame().parts[static_cast<std::size_t>(p)].kind == NodePartKind::Nic;
                });
                QCOMPARE(d.frame().parts[static_cast<std::size_t>(*out)].label,
                         "NIC " + std::to_string((c + 7) % 8));
            }
        }
    }

    void treeStepsComeFromTheDrawnTree() {
        // Review: "8 = 2·log₂16" sat beside a 7-hop chain. The depth is read off the edges.
        for (int hosts = 1; hosts <= 8; ++hosts) {
            const TreeDepth d = modeledTreeDepth(modeledTree(hosts, 8, 0));
            QCOMPARE(d.intraHops, 7);                                              // the chain
            QCOMPARE(d.interHops, static_cast<int>(std::floor(std::log2(hosts)))); // heap depth
            QCOMPARE(static_cast<int>(d.path.size()), d.hops() + 1);
            const AllReduceCost t = chainTreeCost(hosts, 8, 1e6, {5e-6, 50e9});
            QCOMPARE(t.steps, 2 * d.hops());
            QVERIFY(std::abs(t.latencyS - t.steps * 5e-6) < 1e-15);
            QVERIFY(std::abs(t.bandwidthS - 2 * 1e6 / 50e9) < 1e-15); // 2K/B
        }
        // One server: the tree is the chain, as many steps as the ring: never better.
        QVERIFY(!chainTreeCrossoverBytes(1, 8, {5e-6, 450e9}).has_value());
        // Two servers: (2(N−1) − 2·depth)·α = K·(2 − 2(N−1)/N)/B.
        const double n = 16, alpha = 5e-6, bw = 200e9;
        const double expected = (2 * (n - 1) - 2 * 8) * alpha / ((2 - 2 * (n - 1) / n) / bw);
        QVERIFY(std::abs(*chainTreeCrossoverBytes(2, 8, {alpha, bw}) / expected - 1) < 1e-9);
        // On the slide: the numbered marks are the depth, the steps twice that, α assumed.
        const Story s = build("nccl-topology");
        const auto f = first<NodeTopologyFrame>(s.steps[2].frames(1.0));
        QCOMPARE(f->routes.back().marks.size(), std::size_t(8));
        QCOMPARE(f->routes.back().marks.back().label, std::string("8"));
        const auto facts = first<FactsFrame>(s.steps[2].frames(1.0));
        const auto row = [&](const std::string& label) {
            for (const FactRow& r : facts->rows)
                if (r.label == label)
                    return r;
            return FactRow{};
        };
        QCOMPARE(row("Tree latency steps").value, std::string("16"));
        QCOMPARE(row("Ring latency steps").value, std::string("30"));
        QVERIFY(row("α-β crossover, α assumed").value != "");
        QVERIFY(row("Who picks ring or tree").source.find("NCCL_ALGO") != std::string::npos);
        const Story one = build("nccl-topology", {{"servers", "1"}});
        QCOMPARE(first<FactsFrame>(one.steps[2].frames(1.0))->rows[4].value, std::string("none"));
        QVERIFY(one.steps[2].narration.find("NCCL uses rings here") != std::string::npos);
    }

    void wordsFollowTheParameters() {
        // Review: with nic=other-socket the GPUDirect step still said "the PCIe switch they
        // share", with slowdown=0 "rank 1 computes slower".
        for (const char* nic : {"same-switch", "other-socket"})
            for (const char* slowdown : {"0", "250"}) {
                const Story s = build("nccl-topology", {{"nic", nic}, {"slowdown", slowdown}});
                const bool across = std::string(nic) == "other-socket";
                const std::string& gdr = s.steps[3].narration;
                QCOMPARE(gdr.find("they share") != std::string::npos, !across);
                QCOMPARE(gdr.find("other socket") != std::string::npos, across);
                const bool waits = std::string(slowdown) != "0";
                const Step& util = s.steps[stepIndex(s, "What GPU-Util counts")];
                QCOMPARE(util.narration.find("longer each iteration") != std::string::npos, waits);
                QCOMPARE(util.narration.find("neither waits") != std::string::npos, !waits);
                const auto schedule = first<ScheduleFrame>(util.frames(1.0));
                QCOMPARE(schedule->rows[1].label.find("slow") != std::string::npos, waits);
            }
    }

    void theNvmlDefinitionIsSaidInFull() {
        // Review: the key sentence was cut off in a footnote; the narration says it whole.
        const Story s = build("nccl-topology");
        const Step& util = s.steps[stepIndex(s, "What GPU-Util counts")];
        QVERIFY(util.narration.find("GPU-Util is the share of each sample period in which at "
                                    "least one kernel was running") != std::string::npos);
    }

    void pxnGoesAroundTheCpuLinkOverNvlink() {
        const NodeDiagram d(1, h100());
        // NIC beside the GPU: PXN is plain GPUDirect.
        QCOMPARE(pxnPath(d, 1, NicPlacement::SameSwitch).parts,
                 gpuDirectPath(d, 1, NicPlacement::SameSwitch).parts);
        QCOMPARE(pxnPath(d, 1, NicPlacement::SameSwitch).relayGpu, -1);
        // NIC across the sockets: NVLink to the GPU on the NIC's switch, then its GPUDirect.
        const RdmaPath p = pxnPath(d, 1, NicPlacement::OtherSocket);
        QCOMPARE(p.nic, 5);
        QCOMPARE(p.relayGpu, 5);
        QVERIFY(!p.crossesCpuLink);
        QCOMPARE(p.pcieHops, 2);
        QCOMPARE(p.hostMemoryBytesPerByte, 0.0);
        QVERIFY(visits(p.parts, d.nvSwitchPart(0)) && visits(p.parts, d.gpuPart(0, 5)));
        QVERIFY(!visits(p.parts, d.cpuPart(0, 0)) && !visits(p.parts, d.cpuPart(0, 1)));
        QCOMPARE(p.parts[static_cast<std::size_t>(p.marks[0].hop)], d.gpuPart(0, 5));
        QCOMPARE(p.parts[static_cast<std::size_t>(p.marks[1].hop)], d.nicPart(0, 5));
        // All 8 sending, each NIC and its switch link carry one path: the NIC is the limit.
        const SustainedRate r = sustainedRate(d, serverPxnPaths(d, NicPlacement::OtherSocket));
        QCOMPARE(r.perGpuGBs, d.bandwidths().nicGBs);
        const SustainedRate across =
            sustainedRate(d, serverPaths(d, true, NicPlacement::OtherSocket));
        QVERIFY(across.perGpuGBs < r.perGpuGBs);
        // The lesson shows it only where it helps: tied to nic=other-socket.
        const Story same = build("nccl-topology");
        const Story other = build("nccl-topology", {{"nic", "other-socket"}});
        QCOMPARE(other.steps.size(), same.steps.size() + 1);
        const Step& pxn = other.steps[5];
        QVERIFY(pxn.title.find("PXN") == 0);
        QVERIFY(pxn.narration.find("NCCL_PXN_DISABLE") != std::string::npos);
        const auto f = first<NodeTopologyFrame>(pxn.frames(1.0));
        QVERIFY(visits(f->routes.back().parts, d.nvSwitchPart(0)));
    }

    void theTruthfulCounterIsNamed() {
        const Story s = build("nccl-topology");
        const Step& watch = s.steps[stepIndex(s, "What to watch instead")];
        QVERIFY(watch.narration.find("DCGM_FI_PROF_SM_ACTIVE") != std::string::npos);
        const auto facts = first<FactsFrame>(watch.frames(1.0));
        QVERIFY(std::any_of(facts->rows.begin(), facts->rows.end(), [](const FactRow& r) {
            return r.source.find("DCGM_FI_PROF_SM_ACTIVE") != std::string::npos;
        }));
    }

    void parametersChangeWhatIsDrawn() {
        const Story one = build("nccl-topology", {{"servers", "1"}});
        QCOMPARE(first<NodeTopologyFrame>(one.steps[1].frames(0))->hosts.size(), std::size_t(1));
        const Story four = build("nccl-topology", {{"servers", "4"}, {"channels", "2"}});
        const auto f = first<NodeTopologyFrame>(four.steps[1].frames(0));
        QCOMPARE(f->hosts.size(), std::size_t(4));
        QCOMPARE(f->routes.size(), std::size_t(1 + 4)); // channel 0 whole, channel 1's crossings
        const Story across = build("nccl-topology", {{"nic", "other-socket"}});
        const auto facts = first<FactsFrame>(across.steps[3].frames(0));
        QVERIFY(facts->rows[3].value == "yes · yes");
        // Refused values are named.
        const Scenario& sc = *findScenario("nccl-topology");
        Params p = sc.defaultParams();
        QVERIFY(p.set("servers", "9").has_value());
        QVERIFY(p.set("sample", "100").has_value());
        QVERIFY(p.set("nic", "far").has_value());
    }

    void calcCommandsRunTheSameModels() {
        const auto util = runCalc("gpu-util", {{"gpu", "h100-sxm"}, {"slowdown-ms", "250"}});
        QVERIFY(util["fast_rank"]["gpu_util_percent"].get<double>() > 98.0);
        QVERIFY(util["fast_rank"]["sm_activity_percent"].get<double>() < 50.0);
        QVERIFY(util["slow_rank"]["sm_activity_percent"].get<double>() > 95.0);
        QCOMPARE(util["waiting_s"].get<double>(), 6 * 0.25);
        QVERIFY_THROWS_EXCEPTION(CalcError,
                                 runCalc("gpu-util", {{"gpu", "h100-sxm"}, {"nccl-sms", "500"}}));
        const auto path = runCalc("rdma-path", {{"gpu", "h100-sxm"}});
        QCOMPARE(path["gpudirect"]["per_gpu_gbs_all_sending"].get<double>(), 50.0);
        QCOMPARE(path["bounce"]["per_gpu_gbs_all_sending"].get<double>(), 63.0 / 2);
        QCOMPARE(path["bounce"]["copies"].get<int>(), 1);
        QCOMPARE(path["gpudirect"]["path"].back().get<std::string>(), std::string("network"));
        const auto across = runCalc("rdma-path", {{"gpu", "h100-sxm"}, {"nic", "other-socket"}});
        QCOMPARE(across["pxn"]["crosses_cpu_link"].get<bool>(), false);
        QCOMPARE(across["pxn"]["per_gpu_gbs_all_sending"].get<double>(), 50.0);
        QVERIFY(across["gpudirect"]["crosses_cpu_link"].get<bool>());
    }

    void anOpenLogAddsAStepAfterTheTrees() {
        ScenarioInputs in;
        auto data = std::make_shared<NcclLogData>(parseLog(kTwoHostLog));
        in.imported.ncclLogs.push_back({data, "logs/two_hosts.log"});
        const Story s = build(in, "nccl-topology");
        QCOMPARE(s.steps.size(), std::size_t(9));
        QCOMPARE(s.steps[3].title, std::string("Your NCCL log on the servers"));
        QCOMPARE(firstImportedStep(s), 3);
        QVERIFY(s.provenance.find("two_hosts.log") != std::string::npos);
        const auto f = first<NodeTopologyFrame>(s.steps[3].frames(0.5));
        QCOMPARE(f->hosts.size(), std::size_t(2));
        QVERIFY(first<FactsFrame>(s.steps[3].frames(0)).has_value());
    }
};

QTEST_MAIN(TestNcclTopology)
#include "test_nccl_topology.moc"
