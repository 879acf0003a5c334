#include "import/nccl_ring_rebuild.h"

#include <map>
#include <set>

namespace wb {

namespace {

std::string imlRingLabel(int channel) {
    std::string n = std::to_string(channel);
    if (n.size() < 2)
        n.insert(0, 2 - n.size(), '0');
    return std::string("ring ").append(n).append(": ");
}

std::string imlChainText(const std::vector<int>& ranks) {
    std::string s;
    for (const int r : ranks)
        s.append(s.empty() ? "" : " -> ").append(std::to_string(r));
    return s;
}

} // namespace

std::variant<NcclRing, std::string> rebuildNcclRing(int channel,
                                                    const std::vector<std::pair<int, int>>& links) {
    const std::string label = imlRingLabel(channel);
    std::map<int, int> next;
    for (const auto& [from, to] : links) {
        const auto [it, added] = next.emplace(from, to);
        if (!added && it->second != to)
            return std::string(label)
                .append("rank ")
                .append(std::to_string(from))
                .append(" has two next ranks, ")
                .append(std::to_string(it->second))
                .append(" and ")
                .append(std::to_string(to))
                .append(" (two communicators share the channel?)");
    }
    if (next.empty())
        return std::string(label).append("no links");
    NcclRing ring;
    ring.channel = channel;
    const int start = next.begin()->first;
    std::set<int> seen{start};
    ring.ranks.push_back(start);
    for (int at = start;;) {
        const auto it = next.find(at);
        if (it == next.end())
            return std::string(label)
                .append("the chain ")
                .append(imlChainText(ring.ranks))
                .append(" stops at rank ")
                .append(std::to_string(at))
                .append(": the log shows no next rank for it");
        if (it->second == start)
            break;
        if (!seen.insert(it->second).second)
            return std::string(label)
                .append("the chain ")
                .append(imlChainText(ring.ranks))
                .append(" returns to rank ")
                .append(std::to_string(it->second))
                .append(" without closing at ")
                .append(std::to_string(start));
        ring.ranks.push_back(it->second);
        at = it->second;
    }
    if (ring.ranks.size() < next.size())
        return std::string(label)
            .append("the links form more than one cycle (")
            .append(imlChainText(ring.ranks))
            .append(" closes, ")
            .append(std::to_string(next.size() - ring.ranks.size()))
            .append(" more ranks link elsewhere)");
    return ring;
}

} // namespace wb
