#include "reliability/cluster_failure_model.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "reliability/argument_checks.h"
#include "reliability/llama3_interruptions.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

namespace {

constexpr int kindCount = 9;

int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
}

} // namespace

const std::vector<std::string>& componentKindNames() {
    static const std::vector<std::string> names = {"gpu", "node",    "rack",    "tor",      "spine",
                                                   "pdu", "cooling", "storage", "scheduler"};
    return names;
}

std::string componentKindName(ComponentKind k) {
    return componentKindNames()[static_cast<std::size_t>(k)];
}

ComponentKind parseComponentKind(const std::string& name) {
    return parseNamed<ComponentKind>(componentKindNames(), name, "component");
}

ParallelLayout parseLayoutSizes(const std::string& text) {
    ParallelLayout l;
    bool seen[3] = {false, false, false};
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        start = comma + 1;
        const auto eq = item.find('=');
        const std::string key = item.substr(0, eq);
        const int which = key == "tp" ? 0 : key == "pp" ? 1 : key == "dp" ? 2 : -1;
        if (eq == std::string::npos || which < 0)
            throw std::invalid_argument(fill(
                "layout item '%1' must be tp=N, pp=N or dp=N (e.g. tp=8,pp=16,dp=128)", {item}));
        if (seen[which])
            throw std::invalid_argument(fill("layout names %1 twice", {key}));
        seen[which] = true;
        const auto v = parseNumber(item.substr(eq + 1));
        if (!v || *v != std::floor(*v) || *v < 1 || *v > 1e7)
            throw std::invalid_argument(fill("layout %1 = '%2' must be a whole number 1…10000000",
                                             {key, item.substr(eq + 1)}));
        (which == 0 ? l.tp : which == 1 ? l.pp : l.dp) = static_cast<int>(*v);
    }
    if (!seen[0] || !seen[1] || !seen[2])
        throw std::invalid_argument(fill("layout '%1' must give tp, pp and dp", {text}));
    return l;
}

ClusterSpec clusterSpecFor(const ClusterTopology& t) {
    t.validate();
    ClusterSpec c;
    c.gpus = t.gpus();
    c.gpusPerNode = t.gpusPerNode;
    c.nodesPerRack = t.nodesPerLeaf;
    return c;
}

void ClusterSpec::validate() const {
    auto atLeastOne = [](int v, const char* what) {
        if (v < 1)
            throw std::invalid_argument(fill("%1 must be at least 1", {what}));
    };
    atLeastOne(gpus, "gpus");
    atLeastOne(gpusPerNode, "gpus per node");
    atLeastOne(nodesPerRack, "nodes per rack");
    atLeastOne(racksPerPod, "racks per pod");
    atLeastOne(spinesPerPod, "spines per pod");
    atLeastOne(racksPerPdu, "racks per PDU");
    atLeastOne(racksPerCoolingZone, "racks per cooling zone");
    if (gpus > (1 << 22))
        throw std::invalid_argument("gpus must be at most 4194304");
    if (gpus % gpusPerNode != 0)
        throw std::invalid_argument(fill("%1 GPUs do not fill whole nodes of %2",
                                         {std::to_string(gpus), std::to_string(gpusPerNode)}));
    if (spinesPerPod > 4096)
        throw std::invalid_argument("spines per pod must be at most 4096");
}

ClusterFailureModel::ClusterFailureModel(const ClusterSpec& spec, const ParallelLayout& layout)
    : m_spec(spec)
    , m_layout(layout) {
    m_spec.validate();
    if (m_layout.tp < 1 || m_layout.pp < 1 || m_layout.dp < 1)
        throw std::invalid_argument("tp, pp and dp must each be at least 1");
    // In double: three factors up to 10⁷ each would overflow 64-bit integers.
    const double ranks = static_cast<double>(m_layout.tp) * m_layout.pp * m_layout.dp;
    if (ranks != m_spec.gpus)
        throw std::invalid_argument(
            fill("layout tp×pp×dp = %1 does not match the cluster's %2 GPUs",
                 {formatNumber(ranks), std::to_string(m_spec.gpus)}));
    auto has = [&](Strategy s) {
        return std::count(m_layout.order.begin(), m_layout.order.end(), s) == 1;
    };
    if (m_layout.order.size() != 3 || !has(Strategy::TP) || !has(Strategy::PP) ||
        !has(Strategy::DP))
        throw std::invalid_argument("the rank order must name tp, pp and dp once each");

    const int nodes = m_spec.gpus / m_spec.gpusPerNode;
    const int racks = ceilDiv(nodes, m_spec.nodesPerRack);
    const int pods = ceilDiv(racks, m_spec.racksPerPod);
    const int counts[kindCount] = {m_spec.gpus,
                                   nodes,
                                   racks,
                                   racks,
                                   pods * m_spec.spinesPerPod,
                                   ceilDiv(racks, m_spec.racksPerPdu),
                                   ceilDiv(racks, m_spec.racksPerCoolingZone),
                                   1,
                                   1};
    m_firstOfKind.push_back(0);
    for (int k = 0; k < kindCount; ++k)
        m_firstOfKind.push_back(m_firstOfKind.back() + counts[k]);
    m_components.reserve(static_cast<std::size_t>(m_firstOfKind.back()));
    for (int k = 0; k < kindCount; ++k) {
        const auto kind = static_cast<ComponentKind>(k);
        for (int i = 0; i < counts[k]; ++i) {
            std::string name = fill("%1 %2", {componentKindName(kind), std::to_string(i)});
            if (kind == ComponentKind::Spine)
                // Not "spine 0.3": a slide would read that as the number 0.3.
                name = fill("spine %1 of pod %2", {std::to_string(i % m_spec.spinesPerPod),
                                                   std::to_string(i / m_spec.spinesPerPod)});
            else if (kind == ComponentKind::Storage || kind == ComponentKind::Scheduler)
                name = componentKindName(kind);
            m_components.push_back({kind, i, std::move(name)});
        }
    }

    // The dependency sets, then their inverse (member → sets) in CSR form.
    std::vector<std::pair<int, int>> memberOf; // (member, set)
    auto needs = [&](int owner, std::vector<int> members) {
        const int set = static_cast<int>(m_setOwner.size());
        m_setOwner.push_back(owner);
        m_setSize.push_back(static_cast<int>(members.size()));
        for (int m : members)
            memberOf.emplace_back(m, set);
    };
    for (int g = 0; g < m_spec.gpus; ++g)
        needs(id(ComponentKind::Gpu, g), {id(ComponentKind::Node, g / m_spec.gpusPerNode)});
    for (int n = 0; n < nodes; ++n) {
        const int rack = n / m_spec.nodesPerRack;
        needs(id(ComponentKind::Node, n), {id(ComponentKind::Rack, rack)});
        // A node cut off from the fabric is lost to the job just as surely as a dead one.
        needs(id(ComponentKind::Node, n), {id(ComponentKind::Tor, rack)});
    }
    // Sets are made owner by owner in id order (racks before ToRs), so one owner's sets
    // form a contiguous run that dependenciesOf finds by binary search.
    for (int r = 0; r < racks; ++r) {
        needs(id(ComponentKind::Rack, r), {id(ComponentKind::Pdu, r / m_spec.racksPerPdu)});
        needs(id(ComponentKind::Rack, r),
              {id(ComponentKind::Cooling, r / m_spec.racksPerCoolingZone)});
    }
    for (int r = 0; r < racks; ++r) {
        // The ToR sits in its rack (power, cooling) and uplinks to every spine of its pod.
        needs(id(ComponentKind::Tor, r), {id(ComponentKind::Rack, r)});
        std::vector<int> spines;
        const int pod = r / m_spec.racksPerPod;
        for (int s = 0; s < m_spec.spinesPerPod; ++s)
            spines.push_back(id(ComponentKind::Spine, pod * m_spec.spinesPerPod + s));
        needs(id(ComponentKind::Tor, r), spines);
    }
    m_setStart.assign(m_setOwner.size() + 1, 0);
    for (const auto& entry : memberOf)
        ++m_setStart[static_cast<std::size_t>(entry.second) + 1];
    for (std::size_t i = 1; i < m_setStart.size(); ++i)
        m_setStart[i] += m_setStart[i - 1];
    m_setMembers.assign(memberOf.size(), 0);
    std::vector<int> next(m_setStart.begin(), m_setStart.end() - 1);
    for (const auto& [member, set] : memberOf)
        m_setMembers[static_cast<std::size_t>(next[static_cast<std::size_t>(set)]++)] = member;
    std::sort(memberOf.begin(), memberOf.end());
    m_memberStart.assign(m_components.size() + 1, 0);
    for (const auto& [member, set] : memberOf)
        ++m_memberStart[static_cast<std::size_t>(member) + 1];
    for (std::size_t i = 1; i < m_memberStart.size(); ++i)
        m_memberStart[i] += m_memberStart[i - 1];
    m_memberSets.reserve(memberOf.size());
    for (const auto& entry : memberOf)
        m_memberSets.push_back(entry.second);
}

int ClusterFailureModel::count(ComponentKind k) const {
    const auto i = static_cast<std::size_t>(k);
    return m_firstOfKind[i + 1] - m_firstOfKind[i];
}

int ClusterFailureModel::id(ComponentKind k, int index) const {
    if (index < 0 || index >= count(k))
        throw std::invalid_argument(
            fill("%1 %2 does not exist; there are %3",
                 {componentKindName(k), std::to_string(index), std::to_string(count(k))}));
    return m_firstOfKind[static_cast<std::size_t>(k)] + index;
}

bool ClusterFailureModel::jobNeeds(int componentId) const {
    const ComponentKind k = m_components[static_cast<std::size_t>(componentId)].kind;
    return k == ComponentKind::Gpu || k == ComponentKind::Storage;
}

ClusterFailureModel::Spread ClusterFailureModel::freshSpread() const {
    Spread s;
    s.isDown.assign(m_components.size(), 0);
    s.setDown.assign(m_setOwner.size(), 0);
    return s;
}

void ClusterFailureModel::spread(Spread& s) const {
    for (std::size_t head = 0; head < s.order.size(); ++head) {
        const auto c = static_cast<std::size_t>(s.order[head]);
        for (int i = m_memberStart[c]; i < m_memberStart[c + 1]; ++i) {
            const auto set = static_cast<std::size_t>(m_memberSets[static_cast<std::size_t>(i)]);
            if (s.setDown[set] == 0)
                s.touchedSets.push_back(static_cast<int>(set));
            if (++s.setDown[set] == m_setSize[set]) {
                const auto owner = static_cast<std::size_t>(m_setOwner[set]);
                if (!s.isDown[owner]) {
                    s.isDown[owner] = 1;
                    s.order.push_back(static_cast<int>(owner));
                }
            }
        }
    }
}

void ClusterFailureModel::reset(Spread& s) {
    for (int d : s.order)
        s.isDown[static_cast<std::size_t>(d)] = 0;
    for (int set : s.touchedSets)
        s.setDown[static_cast<std::size_t>(set)] = 0;
    s.touchedSets.clear();
    s.order.clear();
}

BlastRadius ClusterFailureModel::fail(const std::vector<int>& componentIds) const {
    Spread s = freshSpread();
    for (int c : componentIds) {
        checkId(c);
        if (!s.isDown[static_cast<std::size_t>(c)]) {
            s.isDown[static_cast<std::size_t>(c)] = 1;
            s.order.push_back(c);
        }
    }
    spread(s);

    BlastRadius b;
    b.down = s.order;
    const int firstGpu = m_firstOfKind[0], endGpu = m_firstOfKind[1];
    for (int c : s.order) {
        if (c >= firstGpu && c < endGpu)
            b.lostGpus.push_back(c - firstGpu);
        const ComponentKind k = m_components[static_cast<std::size_t>(c)].kind;
        b.jobStops = b.jobStops || jobNeeds(c);
        b.restartBlocked =
            b.restartBlocked || k == ComponentKind::Storage || k == ComponentKind::Scheduler;
    }
    std::sort(b.lostGpus.begin(), b.lostGpus.end());

    // Group membership from the rank order: coordinate of rank r along s is
    // (r / stride(s)) % size(s); a group of s is named by the other two coordinates.
    const ParallelLayout& l = m_layout;
    auto coord = [&](int r, Strategy st) { return (r / l.stride(st)) % l.size(st); };
    std::vector<char> tpHit(static_cast<std::size_t>(l.pp * l.dp), 0);
    std::vector<char> ppHit(static_cast<std::size_t>(l.tp * l.dp), 0);
    std::vector<char> dpHit(static_cast<std::size_t>(l.tp * l.pp), 0);
    std::vector<char> replicaHit(static_cast<std::size_t>(l.dp), 0);
    auto mark = [](std::vector<char>& hit, int key, int& counter) {
        if (!hit[static_cast<std::size_t>(key)]) {
            hit[static_cast<std::size_t>(key)] = 1;
            ++counter;
        }
    };
    for (int r : b.lostGpus) {
        const int t = coord(r, Strategy::TP), p = coord(r, Strategy::PP),
                  d = coord(r, Strategy::DP);
        mark(tpHit, p * l.dp + d, b.groups.tp);
        mark(ppHit, t * l.dp + d, b.groups.pp);
        mark(dpHit, t * l.pp + p, b.groups.dp);
        mark(replicaHit, d, b.replicasBroken);
    }

    std::string what;
    for (int c : componentIds)
        what += (what.empty() ? "" : ", ") + m_components[static_cast<std::size_t>(c)].name;
    const std::string groups = b.lostGpus.empty()
                                   ? std::string()
                                   : fill(": %1, %2, %3 broken; %4 of %5 model replicas damaged",
                                          {formatCount(b.groups.tp, "TP group", "TP groups"),
                                           formatCount(b.groups.pp, "PP group", "PP groups"),
                                           formatCount(b.groups.dp, "DP group", "DP groups"),
                                           std::to_string(b.replicasBroken), std::to_string(l.dp)});
    const char* fate =
        !b.lostGpus.empty() ? "The synchronous job stops: every collective waits for every rank."
        : b.jobStops
            ? "The job stops without losing a GPU: it cannot load data or write checkpoints."
        : b.restartBlocked
            ? "The running job carries on, but no restart is possible until it is back."
            : "Nothing depends on it alone: the redundant paths carry on.";
    const bool noRestart = b.restartBlocked && b.jobStops && b.lostGpus.empty();
    b.explanation =
        fill("Failing %1 takes down %2 and %3%4. %5%6",
             {what, formatCount(static_cast<int>(b.down.size()), "component", "components"),
              formatCount(static_cast<int>(b.lostGpus.size()), "GPU", "GPUs"), groups, fate,
              noRestart ? " No restart either until it is back." : ""});
    return b;
}

std::vector<int> ClusterFailureModel::gpusUnder(int componentId) const {
    return fail(componentId).lostGpus;
}

void ClusterFailureModel::checkId(int componentId) const {
    if (componentId < 0 || static_cast<std::size_t>(componentId) >= m_components.size())
        throw std::invalid_argument(
            fill("component id %1 does not exist", {std::to_string(componentId)}));
}

std::vector<int> ClusterFailureModel::dependentsOf(int componentId) const {
    checkId(componentId);
    const auto c = static_cast<std::size_t>(componentId);
    std::vector<int> out;
    for (int i = m_memberStart[c]; i < m_memberStart[c + 1]; ++i) {
        const int set = m_memberSets[static_cast<std::size_t>(i)];
        const int owner = m_setOwner[static_cast<std::size_t>(set)];
        if (std::find(out.begin(), out.end(), owner) == out.end())
            out.push_back(owner);
    }
    return out;
}

std::vector<std::vector<int>> ClusterFailureModel::dependenciesOf(int componentId) const {
    checkId(componentId);
    std::vector<std::vector<int>> out;
    const auto first = std::lower_bound(m_setOwner.begin(), m_setOwner.end(), componentId);
    for (auto it = first; it != m_setOwner.end() && *it == componentId; ++it) {
        const auto set = static_cast<std::size_t>(it - m_setOwner.begin());
        out.emplace_back(m_setMembers.begin() + m_setStart[set],
                         m_setMembers.begin() + m_setStart[set + 1]);
    }
    return out;
}

std::vector<SpofSummary> ClusterFailureModel::singlePointsOfFailure() const {
    // One spread per component with shared scratch, reset entry by entry: the scan costs the
    // sum of the blast radii (about 200k steps for the default cluster), not components².
    Spread s = freshSpread();
    std::vector<SpofSummary> out;
    for (int k = 0; k < kindCount; ++k) {
        SpofSummary sum;
        sum.kind = static_cast<ComponentKind>(k);
        sum.total = count(sum.kind);
        int gpusExample = -1;
        bool blocksRestart = false;
        for (int c = m_firstOfKind[static_cast<std::size_t>(k)];
             c < m_firstOfKind[static_cast<std::size_t>(k) + 1]; ++c) {
            s.order.assign(1, c);
            s.isDown[static_cast<std::size_t>(c)] = 1;
            spread(s);
            bool stops = false;
            int gpus = 0;
            for (int d : s.order) {
                stops = stops || jobNeeds(d);
                gpus += m_components[static_cast<std::size_t>(d)].kind == ComponentKind::Gpu;
            }
            reset(s);
            if (stops)
                ++sum.spofs;
            if (gpusExample < 0)
                gpusExample = gpus;
            blocksRestart = blocksRestart || sum.kind == ComponentKind::Scheduler ||
                            sum.kind == ComponentKind::Storage;
        }
        const std::string one = componentKindName(sum.kind);
        if (sum.spofs > 0 && sum.kind == ComponentKind::Gpu)
            sum.why = "every rank of a synchronous job takes part in every collective";
        else if (sum.spofs > 0 && gpusExample > 0)
            sum.why = fill("each %1 takes %2 with it, and a synchronous job needs every rank",
                           {one, formatCount(gpusExample, "GPU", "GPUs")});
        else if (sum.spofs > 0)
            sum.why = fill("the job needs the %1 itself (data loading, checkpoints)", {one});
        else if (blocksRestart)
            sum.why =
                fill("a running job carries on without the %1; only restarts wait for it", {one});
        else
            sum.why = fill("redundant: what depends on one %1 has another path", {one});
        out.push_back(sum);
    }
    return out;
}

KindFailureRate componentFailureRate(ComponentKind k, const ClusterSpec& spec) {
    spec.validate();
    const Llama3Record& rec = llama3Record();
    const double hours = rec.days * 24.0;
    auto rows = [&](auto&& pick) {
        int n = 0;
        for (const InterruptionCause& c : rec.causes)
            n += pick(c) ? c.count : 0;
        return n;
    };
    // Table 5's counts over the components of its 16,384-GPU job that could have caused them.
    const int llamaNodes = rec.gpus / spec.gpusPerNode;
    const int llamaRacks = ceilDiv(llamaNodes, spec.nodesPerRack);
    const int llamaSwitches =
        llamaRacks + ceilDiv(llamaRacks, spec.racksPerPod) * spec.spinesPerPod;
    auto assumed = [](double mtbfH, const char* what) {
        return KindFailureRate{1.0 / mtbfH, false,
                               fill("assumed: one failure per %1 h per %2 (no published rate)",
                                    {formatNumber(mtbfH), what})};
    };
    switch (k) {
    case ComponentKind::Gpu:
        return {1.0 / llama3GpuMtbfHours(), true,
                "Llama 3 (arXiv:2407.21783) Table 5: the GPU rows over 54 days"};
    case ComponentKind::Node: {
        const int n = rows([](const InterruptionCause& c) {
            return c.category == "Host" || c.component == "Host Maintenance";
        });
        return {n / (llamaNodes * hours), true,
                "Llama 3 (arXiv:2407.21783) Table 5: Host rows and Host Maintenance"};
    }
    case ComponentKind::Tor:
    case ComponentKind::Spine: {
        const int n = rows([](const InterruptionCause& c) { return c.category == "Network"; });
        return {n / (llamaSwitches * hours), false,
                "Llama 3 (arXiv:2407.21783) Table 5's switch/cable row, split evenly: assumed"};
    }
    case ComponentKind::Rack:
        return assumed(200000, "rack");
    case ComponentKind::Pdu:
        return assumed(100000, "PDU");
    case ComponentKind::Cooling:
        return assumed(50000, "cooling zone");
    case ComponentKind::Storage:
        return assumed(8760, "storage service");
    case ComponentKind::Scheduler:
        return assumed(4380, "scheduler");
    }
    return {};
}

void SparePolicy::validate() const {
    if (spareGpus < 0)
        throw std::invalid_argument("spare GPUs must be at least 0");
    if (!(repairH > 0) || !(restartH > 0) || !std::isfinite(repairH) || !std::isfinite(restartH))
        throw std::invalid_argument("repair and restart times must be positive");
}

LossRanking ClusterFailureModel::expectedLosses(const SparePolicy& spares) const {
    spares.validate();
    LossRanking out;
    double rhoNone = 0.0, rhoSpares = 0.0;
    for (int k = 0; k < kindCount; ++k) {
        KindLoss l;
        l.kind = static_cast<ComponentKind>(k);
        l.count = count(l.kind);
        l.rate = componentFailureRate(l.kind, m_spec);
        l.failuresPerDay = l.count * l.rate.perComponentPerHour * 24.0;
        const BlastRadius b = fail(id(l.kind, 0));
        l.blastGpus = static_cast<int>(b.lostGpus.size());
        l.stopsJob = b.jobStops;
        // Spares replace lost GPUs; a job stopped without losing one (storage) waits for it.
        l.sparesCover = l.stopsJob && l.blastGpus > 0 && l.blastGpus <= spares.spareGpus;
        l.outageNoSparesH = l.stopsJob ? spares.repairH : 0.0;
        l.outageSparesH = l.sparesCover ? spares.restartH : l.outageNoSparesH;
        rhoNone += l.failuresPerDay / 24.0 * l.outageNoSparesH;
        rhoSpares += l.failuresPerDay / 24.0 * l.outageSparesH;
        out.kinds.push_back(l);
    }
    out.availabilityNoSpares = 1.0 / (1.0 + rhoNone);
    out.availabilitySpares = 1.0 / (1.0 + rhoSpares);
    const double gpuHoursPerDay = m_spec.gpus * 24.0;
    for (KindLoss& l : out.kinds) {
        l.lossNoSpares = gpuHoursPerDay * (l.failuresPerDay / 24.0 * l.outageNoSparesH) *
                         out.availabilityNoSpares;
        l.lossSpares =
            gpuHoursPerDay * (l.failuresPerDay / 24.0 * l.outageSparesH) * out.availabilitySpares;
        out.lossNoSpares += l.lossNoSpares;
        out.lossSpares += l.lossSpares;
    }
    std::stable_sort(out.kinds.begin(), out.kinds.end(), [](const KindLoss& a, const KindLoss& b) {
        return a.lossNoSpares > b.lossNoSpares;
    });
    return out;
}

} // namespace wb
