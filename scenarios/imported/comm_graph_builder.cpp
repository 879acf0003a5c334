#include "imported/comm_graph_builder.h"

#include "engine/sentence.h"
#include "imported/ncu_kernels.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace wb {

namespace {

// A ring as the log writes it, as a cycle: "0 1" and "0 -> 1 -> 0" both mean 0→1→0.
std::vector<int> ringCycle(const NcclRing& ring) {
    std::vector<int> r = ring.ranks;
    if (r.size() > 1 && r.front() == r.back())
        r.pop_back();
    return r;
}

std::string channelText(int channel) {
    return fill("channel %1", {std::to_string(channel)});
}

int rankCount(const NcclLogData& log) {
    int highest = -1;
    for (const auto& r : log.rings)
        for (int k : r.ranks)
            highest = std::max(highest, k);
    for (const auto& e : log.edges)
        highest = std::max({highest, e.from, e.to});
    for (const auto& t : log.trees) {
        highest = std::max({highest, t.rank, t.parent});
        for (int c : t.children)
            highest = std::max(highest, c);
    }
    return std::max(log.nranks.value_or(0), highest + 1);
}

// Transports in order of first use; the edge colour is the index.
struct TransportIndex {
    std::vector<std::string> names;
    int of(const std::string& t) {
        const auto it = std::find(names.begin(), names.end(), t);
        if (it != names.end())
            return static_cast<int>(it - names.begin());
        names.push_back(t);
        return static_cast<int>(names.size()) - 1;
    }
};

} // namespace

CommGraphFrame commGraphFrame(const NcclLogData& log, const std::string& path) {
    CommGraphFrame f;
    const std::string file = fileNameOf(path);
    const int n = rankCount(log);
    f.title = fill("NCCL rings and trees · %1 ranks · %2", {std::to_string(n), file});
    f.channels = log.channels;
    for (int r = 0; r < n; ++r) {
        CommGraphNode node;
        node.rank = r;
        node.label = fill("rank %1", {std::to_string(r)});
        // Only what the log says goes in, so a field it lacks leaves no empty " · " part.
        std::vector<std::string> parts = {node.label};
        for (const auto& c : log.comms) {
            if (c.rank != r)
                continue;
            if (!c.host.empty())
                parts.push_back(fill("host %1", {c.host}));
            if (c.cudaDev >= 0)
                parts.push_back(fill("cudaDev %1", {std::to_string(c.cudaDev)}));
            if (!c.busId.empty())
                parts.push_back(fill("busId %1", {c.busId}));
            break;
        }
        std::string said;
        for (std::size_t i = 0; i < parts.size(); ++i)
            said.append(i ? " · " : "").append(parts[i]);
        node.tip = fill("%1 (%2)", {said, file});
        f.nodes.push_back(std::move(node));
    }

    // Edge transports by (channel, from, to); the log writes one line per connection.
    std::map<std::tuple<int, int, int>, const NcclEdge*> via;
    for (const auto& e : log.edges)
        via.emplace(std::tuple{e.channel, e.from, e.to}, &e);
    TransportIndex transports;
    std::set<std::tuple<int, int, int>> ringEdges;
    auto addRing = [&](int channel, int from, int to) {
        if (!ringEdges.emplace(channel, from, to).second)
            return;
        CommGraphEdge e;
        e.kind = CommGraphEdge::Kind::Ring;
        e.channel = channel;
        e.from = from;
        e.to = to;
        const auto it = via.find({channel, from, to});
        e.transport = it != via.end() ? it->second->transport : std::string{};
        e.colorIndex = transports.of(e.transport.empty() ? "not in the log" : e.transport);
        e.tip = fill("ring, %1: rank %2 → rank %3 via %4 (%5)",
                     {channelText(channel), std::to_string(from), std::to_string(to),
                      it != via.end() ? it->second->via : std::string("(transport not in the log)"),
                      file});
        f.edges.push_back(std::move(e));
    };
    for (const auto& ring : log.rings) {
        const auto cycle = ringCycle(ring);
        if (cycle.size() < 2)
            continue;
        for (std::size_t i = 0; i < cycle.size(); ++i)
            addRing(ring.channel, cycle[i], cycle[(i + 1) % cycle.size()]);
    }
    // Logs without ring-order lines still name each connection.
    if (log.rings.empty())
        for (const auto& e : log.edges)
            addRing(e.channel, e.from, e.to);

    std::set<std::tuple<int, int, int>> treeEdges;
    auto addTree = [&](int channel, int parent, int child) {
        if (parent < 0 || child < 0 || !treeEdges.emplace(channel, parent, child).second)
            return;
        CommGraphEdge e;
        e.kind = CommGraphEdge::Kind::Tree;
        e.channel = channel;
        e.from = parent;
        e.to = child;
        e.colorIndex = transports.of("tree");
        e.transport = "tree";
        e.tip = fill("tree, %1: parent rank %2 → child rank %3 (%4)",
                     {channelText(channel), std::to_string(parent), std::to_string(child), file});
        f.edges.push_back(std::move(e));
    };
    for (const auto& t : log.trees) {
        addTree(t.channel, t.parent, t.rank);
        for (int c : t.children)
            addTree(t.channel, t.rank, c);
    }
    f.transports = transports.names;
    const auto ringCount = ringEdges.size();
    f.caption = fill("%1 ring edges, %2 tree edges over %3 channels · %4 · %5",
                     {std::to_string(ringCount), std::to_string(treeEdges.size()),
                      std::to_string(log.channels),
                      log.version.empty() ? std::string("NCCL version not in the log")
                                          : fill("NCCL %1", {log.version}),
                      file});
    return f;
}

FactsFrame commGraphFacts(const NcclLogData& log, const std::string& path) {
    const std::string file = fileNameOf(path);
    FactsFrame f;
    f.title = fill("What the NCCL log says · %1", {file});
    const std::string src = "NCCL INFO lines";
    f.rows.push_back(
        {.label = "ranks",
         .value = log.nranks ? fill("%1 (%2)", {std::to_string(*log.nranks), log.nranksSource})
                             : std::string("not in the log"),
         .source = src,
         .emphasis = true});
    f.rows.push_back({.label = "channels",
                      .value = std::to_string(log.channels),
                      .source = "\"Channel 00/N\" lines",
                      .emphasis = true});
    std::set<int> ringChannels, treeChannels;
    for (const auto& r : log.rings)
        ringChannels.insert(r.channel);
    for (const auto& t : log.trees)
        treeChannels.insert(t.channel);
    f.rows.push_back({.label = "ring channels / tree channels",
                      .value = fill("%1 / %2", {std::to_string(ringChannels.size()),
                                                std::to_string(treeChannels.size())}),
                      .source = "\"Channel 00/N : …\", \"Trees\" lines",
                      .emphasis = false});
    std::map<std::string, int> kinds;
    for (const auto& e : log.edges)
        ++kinds[e.transport];
    std::string transports;
    for (const auto& [kind, count] : kinds) {
        if (!transports.empty())
            transports.append(", ");
        transports.append(fill("%1 × %2", {kind, std::to_string(count)}));
    }
    f.rows.push_back({.label = "transports (connections)",
                      .value = transports.empty() ? std::string("not in the log") : transports,
                      .source = "\"via …\" lines",
                      .emphasis = false});
    const char* nvls = !log.nvlsAvailable   ? "not in the log"
                       : *log.nvlsAvailable ? "available"
                                            : "not available";
    f.rows.push_back({.label = "NVLS",
                      .value = log.nvlsChannels ? fill("%1, %2 NVLS channels",
                                                       {nvls, std::to_string(*log.nvlsChannels)})
                                                : std::string(nvls),
                      .source = src,
                      .emphasis = false});
    f.rows.push_back({.label = "network",
                      .value = log.network.empty() ? std::string("not in the log")
                               : log.netDevices.empty()
                                   ? log.network
                                   : fill("%1 · %2", {log.network, log.netDevices}),
                      .source = "\"Using network\", NET/… lines",
                      .emphasis = false});
    f.rows.push_back({.label = "NCCL version",
                      .value = log.version.empty() ? std::string("not in the log") : log.version,
                      .source = "\"NCCL version\" line",
                      .emphasis = false});
    return f;
}

} // namespace wb
