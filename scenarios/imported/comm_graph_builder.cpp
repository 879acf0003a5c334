#include "imported/comm_graph_builder.h"

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
    return "channel " + std::to_string(channel);
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
    f.title = "NCCL rings and trees · " + std::to_string(n) + " ranks · " + file;
    f.channels = log.channels;
    for (int r = 0; r < n; ++r) {
        CommGraphNode node;
        node.rank = r;
        node.label = "rank " + std::to_string(r);
        node.tip = node.label;
        for (const auto& c : log.comms) {
            if (c.rank != r)
                continue;
            if (!c.host.empty())
                node.tip += " · host " + c.host;
            if (c.cudaDev >= 0)
                node.tip += " · cudaDev " + std::to_string(c.cudaDev);
            if (!c.busId.empty())
                node.tip += " · busId " + c.busId;
            break;
        }
        node.tip += " (" + file + ")";
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
        e.tip = "ring, " + channelText(channel) + ": rank " + std::to_string(from) + " → rank " +
                std::to_string(to) + " via " +
                (it != via.end() ? it->second->via : std::string("(transport not in the log)")) +
                " (" + file + ")";
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
        e.tip = "tree, " + channelText(channel) + ": parent rank " + std::to_string(parent) +
                " → child rank " + std::to_string(child) + " (" + file + ")";
        f.edges.push_back(std::move(e));
    };
    for (const auto& t : log.trees) {
        addTree(t.channel, t.parent, t.rank);
        for (int c : t.children)
            addTree(t.channel, t.rank, c);
    }
    f.transports = transports.names;
    const auto ringCount = ringEdges.size();
    f.caption =
        std::to_string(ringCount) + " ring edges, " + std::to_string(treeEdges.size()) +
        " tree edges over " + std::to_string(log.channels) + " channels · " +
        (log.version.empty() ? std::string("NCCL version not in the log") : "NCCL " + log.version) +
        " · " + file;
    return f;
}

FactsFrame commGraphFacts(const NcclLogData& log, const std::string& path) {
    const std::string file = fileNameOf(path);
    FactsFrame f;
    f.title = "What the NCCL log says · " + file;
    const std::string src = "NCCL INFO lines";
    f.rows.push_back({"ranks",
                      log.nranks ? std::to_string(*log.nranks) + " (" + log.nranksSource + ")"
                                 : std::string("not in the log"),
                      src, true});
    f.rows.push_back({"channels", std::to_string(log.channels), "\"Channel 00/N\" lines", true});
    std::set<int> ringChannels, treeChannels;
    for (const auto& r : log.rings)
        ringChannels.insert(r.channel);
    for (const auto& t : log.trees)
        treeChannels.insert(t.channel);
    f.rows.push_back(
        {"ring channels / tree channels",
         std::to_string(ringChannels.size()) + " / " + std::to_string(treeChannels.size()),
         "\"Channel 00/N : …\", \"Trees\" lines", false});
    std::map<std::string, int> kinds;
    for (const auto& e : log.edges)
        ++kinds[e.transport];
    std::string transports;
    for (const auto& [kind, count] : kinds) {
        if (!transports.empty())
            transports.append(", ");
        transports.append(kind).append(" × ").append(std::to_string(count));
    }
    f.rows.push_back({"transports (connections)",
                      transports.empty() ? std::string("not in the log") : transports,
                      "\"via …\" lines", false});
    std::string nvls = !log.nvlsAvailable   ? std::string("not in the log")
                       : *log.nvlsAvailable ? std::string("available")
                                            : std::string("not available");
    if (log.nvlsChannels)
        nvls.append(", ").append(std::to_string(*log.nvlsChannels)).append(" NVLS channels");
    f.rows.push_back({"NVLS", nvls, src, false});
    f.rows.push_back(
        {"network",
         log.network.empty()
             ? std::string("not in the log")
             : log.network + (log.netDevices.empty() ? std::string{} : " · " + log.netDevices),
         "\"Using network\", NET/… lines", false});
    f.rows.push_back({"NCCL version",
                      log.version.empty() ? std::string("not in the log") : log.version,
                      "\"NCCL version\" line", false});
    return f;
}

} // namespace wb
