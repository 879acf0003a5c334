#include "parallel/topology_frame_builder.h"

#include "engine/number_format.h"
#include "engine/sentence.h"

#include <algorithm>
#include <map>
#include <set>

namespace wb {

int coordinateOf(const ParallelLayout& l, int rank, Strategy s) {
    return (rank / l.stride(s)) % l.size(s);
}

int ringNext(const ParallelLayout& l, int rank, Strategy s) {
    const int c = coordinateOf(l, rank, s);
    return c + 1 < l.size(s) ? rank + l.stride(s) : rank - (l.size(s) - 1) * l.stride(s);
}

namespace {

constexpr Strategy kStrategies[3] = {Strategy::TP, Strategy::PP, Strategy::DP};

std::string percent(double f) {
    return fill("%1 %", {formatSignificant(std::clamp(f, 0.0, 9.99) * 100.0, 3)});
}

} // namespace

TopologyFrame topologyFrame(const std::string& title, const ClusterTopology& t,
                            const ParallelLayout& l, const StepEstimate& e, double phaseS,
                            const TopologyDrawing& view) {
    const int G = t.gpusPerNode;
    // Nodes to draw: rank 0's, then the nodes of its ring neighbours in every strategy (next,
    // then previous), then its other partners' in TP, PP and DP order. Neighbours first, so the
    // outermost dimension's traffic (DP, whose partners are the farthest ranks) is on the
    // picture even when the nearer dimensions alone would fill it.
    std::vector<int> chosen;
    auto want = [&](int node) {
        if (static_cast<int>(chosen.size()) < view.maxNodes &&
            std::find(chosen.begin(), chosen.end(), node) == chosen.end())
            chosen.push_back(node);
    };
    want(0);
    for (Strategy s : kStrategies)
        if (l.size(s) > 1)
            want(ringNext(l, 0, s) / G);
    for (Strategy s : kStrategies)
        if (l.size(s) > 2)
            want((l.size(s) - 1) * l.stride(s) / G);
    for (Strategy s : kStrategies)
        for (int i = 1; i < l.size(s); ++i)
            want(i * l.stride(s) / G);
    std::sort(chosen.begin(), chosen.end());

    // Per strategy: time on each link class per step, bytes per second for the packet rate.
    double nvlinkS = 0, networkS = 0, spineS = 0;
    double rate[3] = {0, 0, 0};
    std::string what[3];
    for (const Traffic& tr : e.traffic) {
        const int si = static_cast<int>(tr.strategy);
        (tr.cost.span.bottleneck == LinkClass::NvLink ? nvlinkS : networkS) += tr.timePerStep();
        if (tr.cost.span.leaves > 1)
            spineS += tr.timePerStep();
        rate[si] += tr.bytesPerStep() / e.stepS;
        // A strategy may carry more than one transfer per step; the tip lists each with its
        // link.
        what[si]
            .append(what[si].empty() ? "" : "; ")
            .append(fill("%1 on %2", {tr.what, linkName(tr.cost.span.bottleneck)}));
    }
    const double maxRate = std::max({rate[0], rate[1], rate[2], 1e-30});

    TopologyFrame f;
    f.title = title;
    f.flowClasses = {"TP", "PP", "DP"};
    f.phaseS = phaseS;
    f.hiddenNodes = t.nodes - static_cast<int>(chosen.size());
    f.spines = 1;
    const double stepS = e.stepS > 0 ? e.stepS : 1.0;
    std::map<int, int> leafIndex; // cluster leaf → frame leaf
    for (int node : chosen) {
        const int leaf = node / std::max(1, t.nodesPerLeaf);
        if (!leafIndex.count(leaf)) {
            leafIndex[leaf] = static_cast<int>(f.leaves.size());
            f.leaves.push_back(
                {.label = fill("leaf %1", {std::to_string(leaf)}),
                 .uplinkUtil = spineS / stepS,
                 .tip = fill("leaf switch %1: %2 nodes below; uplinks busy %3 of the step "
                             "(oversubscription %4:1)",
                             {std::to_string(leaf), std::to_string(t.nodesPerLeaf),
                              percent(spineS / stepS), formatSignificant(t.oversubscription, 3)})});
        }
    }
    std::map<int, std::pair<int, int>> where; // rank → (frame node, gpu)
    for (int node : chosen) {
        TopologyNode n;
        n.label = fill("node %1", {std::to_string(node)});
        n.leaf = leafIndex[node / std::max(1, t.nodesPerLeaf)];
        n.tip = fill("%1: GPUs %2–%3 on one NVSwitch, one NIC each",
                     {n.label, std::to_string(node * G), std::to_string(node * G + G - 1)});
        for (int g = 0; g < G; ++g) {
            const int r = node * G + g;
            TopologyGpu gpu;
            gpu.label = std::to_string(r);
            gpu.nvlinkUtil = nvlinkS / stepS;
            gpu.nicUtil = networkS / stepS;
            // Rank 0's groups: a rank shares rank 0's TP group if its PP and DP coordinates
            // are 0, and so on.
            auto inGroupOfZero = [&](Strategy s) {
                for (Strategy o : kStrategies)
                    if (o != s && coordinateOf(l, r, o) != 0)
                        return false;
                return true;
            };
            for (int si = 2; si >= 0; --si) // TP's colour wins where groups overlap
                if (l.size(kStrategies[si]) > 1 && inGroupOfZero(kStrategies[si]))
                    gpu.highlight = si;
            gpu.tip = fill("rank %1: TP %2/%3, PP stage %4/%5, DP replica %6/%7 · NVLink busy %8, "
                           "NIC busy %9 of the step",
                           {std::to_string(r), std::to_string(coordinateOf(l, r, Strategy::TP)),
                            std::to_string(l.tp), std::to_string(coordinateOf(l, r, Strategy::PP)),
                            std::to_string(l.pp), std::to_string(coordinateOf(l, r, Strategy::DP)),
                            std::to_string(l.dp), percent(gpu.nvlinkUtil), percent(gpu.nicUtil)});
            where[r] = {static_cast<int>(f.nodes.size()), g};
            n.gpus.push_back(gpu);
        }
        f.nodes.push_back(n);
    }
    for (const auto& [r, at] : where)
        for (int si = 0; si < 3; ++si) {
            const Strategy s = kStrategies[si];
            if (l.size(s) < 2 || rate[si] <= 0)
                continue;
            const int next = ringNext(l, r, s);
            const auto to = where.find(next);
            if (to == where.end() || next == r)
                continue;
            TopologyFlow flow;
            flow.fromNode = at.first;
            flow.fromGpu = at.second;
            flow.toNode = to->second.first;
            flow.toGpu = to->second.second;
            flow.colorIndex = si;
            flow.packetsPerS = std::max(0.4, view.maxPacketsPerS * rate[si] / maxRate);
            flow.tip = fill("%1 rank %2 → %3: %4, %5 averaged over the step",
                            {f.flowClasses[static_cast<std::size_t>(si)], std::to_string(r),
                             std::to_string(next), what[si], formatSi(rate[si], "B/s")});
            f.flows.push_back(flow);
        }
    f.caption = fill("NVLink busy %1, NICs %2 of the %3 step · packets ∝ bytes per second",
                     {percent(nvlinkS / stepS), percent(networkS / stepS), formatSi(e.stepS, "s")});
    return f;
}

} // namespace wb
