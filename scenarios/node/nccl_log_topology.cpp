#include "node/nccl_log_topology.h"

#include "engine/sentence.h"
#include "imported/ncu_kernels.h"
#include "node/node_diagram.h"
#include "node/node_routes.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

namespace wb {

namespace {

// The NIC index in "NET/IB/3/GDRDMA" (NCCL's net device number), or −1.
int netDevice(const std::string& via) {
    const auto first = via.find('/');
    const auto second = first == std::string::npos ? first : via.find('/', first + 1);
    if (second == std::string::npos || second + 1 >= via.size() ||
        !std::isdigit(static_cast<unsigned char>(via[second + 1])))
        return -1;
    return std::atoi(via.c_str() + second + 1);
}

} // namespace

NcclLogPlacement placeNcclRanks(const NcclLogData& log) {
    NcclLogPlacement p;
    const int ranks = log.nranks.value_or(0);
    p.gpuOfRank.assign(static_cast<std::size_t>(std::max(0, ranks)), -1);
    std::set<int> taken;
    for (const NcclComm& c : log.comms) {
        if (c.rank < 0 || c.rank >= ranks || p.gpuOfRank[static_cast<std::size_t>(c.rank)] >= 0)
            continue;
        const std::string host = c.host.empty() ? std::string("host") : c.host;
        auto it = std::find(p.hosts.begin(), p.hosts.end(), host);
        if (it == p.hosts.end()) {
            if (static_cast<int>(p.hosts.size()) >= NcclLogPlacement::kMaxHosts)
                continue;
            p.hosts.push_back(host);
            it = std::prev(p.hosts.end());
        }
        const int h = static_cast<int>(it - p.hosts.begin());
        // The CUDA device is the GPU's place in its server; a second rank on a device that is
        // taken (or a device past 7) takes the next free slot.
        int g = c.cudaDev >= 0 ? c.cudaDev % NodeDiagram::kGpusPerHost
                               : c.rank % NodeDiagram::kGpusPerHost;
        for (int k = 0;
             k < NodeDiagram::kGpusPerHost && taken.count(h * NodeDiagram::kGpusPerHost + g) != 0;
             ++k)
            g = (g + 1) % NodeDiagram::kGpusPerHost;
        if (taken.count(h * NodeDiagram::kGpusPerHost + g) != 0)
            continue;
        taken.insert(h * NodeDiagram::kGpusPerHost + g);
        p.gpuOfRank[static_cast<std::size_t>(c.rank)] = h * NodeDiagram::kGpusPerHost + g;
    }
    // Ranks the log never introduced: when it names no hosts at all (only ring lines survived)
    // they fill one server in rank order; otherwise they are counted as not drawn.
    if (p.hosts.empty() && ranks > 0)
        p.hosts.push_back("host");
    for (int r = 0; r < ranks; ++r) {
        int& slot = p.gpuOfRank[static_cast<std::size_t>(r)];
        for (int g = 0; slot < 0 && log.comms.empty() && g < NodeDiagram::kGpusPerHost; ++g)
            if (taken.insert(g).second)
                slot = g;
        if (slot < 0)
            ++p.ranksNotDrawn;
    }
    return p;
}

NodeTopologyFrame ncclLogTopology(const NcclLogData& log, const std::string& path,
                                  const GpuSpec& gpu) {
    const NcclLogPlacement place = placeNcclRanks(log);
    std::vector<std::string> labels;
    for (const std::string& h : place.hosts)
        labels.push_back(h);
    const NodeDiagram d(std::max<int>(1, static_cast<int>(place.hosts.size())), gpu, labels);
    NodeTopologyFrame f = d.frame();
    const auto gpuOf = [&](int rank) {
        return rank >= 0 && static_cast<std::size_t>(rank) < place.gpuOfRank.size()
                   ? place.gpuOfRank[static_cast<std::size_t>(rank)]
                   : -1;
    };
    // Which transport (and NIC) each drawn ring edge used, from the "Channel 03/0 : 1[1] -> 2[2]
    // via ..." lines.
    std::map<std::tuple<int, int, int>, const NcclEdge*> edges;
    for (const NcclEdge& e : log.edges)
        edges.emplace(std::make_tuple(e.channel, e.from, e.to), &e);

    std::set<int> drawnChannels;
    for (const NcclRing& ring : log.rings) {
        if (static_cast<int>(drawnChannels.size()) >= kMaxDrawnChannels ||
            !drawnChannels.insert(ring.channel).second || ring.ranks.size() < 2)
            continue;
        NodeRoute route;
        route.colorIndex = static_cast<int>(drawnChannels.size()) - 1;
        route.packetsPerS = 4;
        std::map<std::string, int> transports;
        for (std::size_t i = 0; i < ring.ranks.size(); ++i) {
            const int from = ring.ranks[i], to = ring.ranks[(i + 1) % ring.ranks.size()];
            const int a = gpuOf(from), b = gpuOf(to);
            if (a < 0 || b < 0 || a == b)
                continue;
            const auto it = edges.find({ring.channel, from, to});
            const std::string transport = it != edges.end() ? it->second->transport : "";
            const HopTransport hop = hopTransportOf(transport, a / NodeDiagram::kGpusPerHost ==
                                                                   b / NodeDiagram::kGpusPerHost);
            const int nic = it != edges.end() ? netDevice(it->second->via) : -1;
            ++transports[transport.empty() ? hopTransportName(hop) : transport];
            for (int part : hopParts(d, a, b, hop, nic, nic))
                if (route.parts.empty() || route.parts.back() != part)
                    route.parts.push_back(part);
        }
        // The ring, then one " n × transport" per transport it uses, then the file.
        route.tip = fill("channel %1 ring: %2 ranks;",
                         {std::to_string(ring.channel), std::to_string(ring.ranks.size())});
        for (const auto& [name, n] : transports)
            route.tip.append(fill(" %1 × %2", {std::to_string(n), name}));
        route.tip.append(fill(" (from %1)", {fileNameOf(path)}));
        f.routes.push_back(std::move(route));
        f.routeClasses.push_back(fill("ring, channel %1", {std::to_string(ring.channel)}));
    }
    // Channel 0's tree: parent → child hops, dashed.
    const int treeClass = static_cast<int>(f.routeClasses.size());
    bool anyTree = false;
    for (const NcclTree& t : log.trees) {
        if (t.channel != 0)
            continue;
        for (int child : t.children) {
            const int a = gpuOf(t.rank), b = gpuOf(child);
            if (a < 0 || b < 0 || a == b)
                continue;
            NodeRoute route;
            route.parts = hopParts(
                d, a, b,
                hopTransportOf("", a / NodeDiagram::kGpusPerHost == b / NodeDiagram::kGpusPerHost));
            route.colorIndex = treeClass;
            route.dashed = true;
            route.packetsPerS = 2;
            route.tip = fill("tree, channel 0: rank %1 → rank %2",
                             {std::to_string(t.rank), std::to_string(child)});
            f.routes.push_back(std::move(route));
            anyTree = true;
        }
    }
    if (anyTree)
        f.routeClasses.push_back("tree, channel 0");
    f.title = fill("Your NCCL log on the servers: %1", {fileNameOf(path)});
    const std::string drawnText =
        fill("%1 ranks on %2 host(s); %3 of %4 channels drawn",
             {std::to_string(log.nranks.value_or(0)), std::to_string(place.hosts.size()),
              std::to_string(drawnChannels.size()), std::to_string(log.channels)});
    f.caption =
        place.ranksNotDrawn > 0
            ? fill("%1; %2 ranks not drawn. Server layout assumed DGX-style; GPU = the "
                   "log's cudaDev.",
                   {drawnText, std::to_string(place.ranksNotDrawn)})
            : fill("%1. Server layout assumed DGX-style; GPU = the log's cudaDev.", {drawnText});
    return f;
}

} // namespace wb
