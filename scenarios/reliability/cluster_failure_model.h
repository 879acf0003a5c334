#pragma once
// Blast radius (blast-radius): a training cluster as a graph of components that depend on each
// other, and what one failure takes with it — GPUs, the parallel groups those GPUs belong to, the
// synchronous job.
//
// The default cluster follows Llama 3's RoCE cluster (arXiv:2407.21783 §3.3.1) where the paper
// gives a size, and assumes the rest:
//   published: GPU → node (8 GPUs, one Grand Teton server) → rack (2 nodes = 16 GPUs) under
//   one ToR switch (a Minipack2) → pod of 192 racks = 3,072 GPUs (16,384 GPUs fill five pods
//   and a third of a sixth); between pods the aggregation layer is 1:7 oversubscribed.
//   assumed (the paper gives no counts): 8 spine switches per pod, every ToR uplinked to all
//   8, so the pod stays connected while any one is up (ECMP); one row PDU per 8 racks (single
//   feed); a cooling zone per 64 racks; one storage service (Tectonic in Llama 3) and one
//   scheduler serving the job.

// A component is down when it failed, or when every member of one of its dependency sets is
// down (a set of one is a plain dependency; the 8 spines form one set). Failing a component
// walks only the components that depend on it, so a click costs its blast radius, not the
// cluster.
//
// Ranks sit on GPUs in order (rank r on GPU r); the layout's rank order says which parallel
// dimension varies fastest along the ranks (ParallelLayout, transformer_step.h).
//   - Aligned: tp-pp-dp. A TP group fills one node (NVLink); one model replica (TP×PP GPUs,
//     one DP index) fills consecutive nodes, racks and PDUs, so a failure domain of S GPUs
//     damages ⌈S / (TP·PP)⌉ replicas and its pipeline stages sit in separate nodes.
//   - Misaligned: dp-pp-tp. Neighbouring GPUs hold different replicas, so one node failure
//     damages 8 replicas and a TP group is spread across pods.
// A synchronous job stops when it loses any GPU (every collective waits for every rank) or
// its storage (data loading and checkpoints); a job that can shrink its data parallelism
// (elastic DP, hot spares) would carry on with dp − replicasBroken replicas.
#include "parallel/transformer_step.h"

#include <string>
#include <vector>

namespace wb {

enum class ComponentKind { Gpu, Node, Rack, Tor, Spine, Pdu, Cooling, Storage, Scheduler };
std::string componentKindName(ComponentKind k); // "gpu", "node", "rack", "tor", ...
const std::vector<std::string>& componentKindNames();
// Throws std::invalid_argument listing the names.
ComponentKind parseComponentKind(const std::string& name);

// "tp=8,pp=16,dp=128" (any order, each once; rank order tp-pp-dp); throws
// std::invalid_argument naming the key.
ParallelLayout parseLayoutSizes(const std::string& text);

struct ClusterSpec {
    int gpus = 16384;
    int gpusPerNode = 8;
    int nodesPerRack = 2;
    int racksPerPod = 192;        // Llama 3 §3.3.1: 3,072 GPUs per pod
    int spinesPerPod = 8;         // assumed
    int racksPerPdu = 8;          // assumed
    int racksPerCoolingZone = 64; // assumed
    void validate() const;        // throws std::invalid_argument naming the field
};

// The failure-domain shape of a ClusterTopology (parallel/cluster_topology.h): its nodes and
// GPUs per node, and one leaf (ToR) switch per rack of `nodesPerLeaf` nodes; the power,
// cooling and spine defaults stay as above.
ClusterSpec clusterSpecFor(const ClusterTopology& t);

struct Component {
    ComponentKind kind = ComponentKind::Gpu;
    int index = 0; // among its kind
    std::string name;
};

struct GroupsBroken {
    int tp = 0, pp = 0, dp = 0;
    bool operator==(const GroupsBroken&) const = default;
};

struct BlastRadius {
    std::vector<int> down;     // component ids down, the failed ones first
    std::vector<int> lostGpus; // GPU indices (= ranks) lost, ascending
    GroupsBroken groups;       // groups with at least one lost rank
    int replicasBroken = 0;    // model replicas (DP indices) with a lost rank
    bool jobStops = false;
    bool restartBlocked = false; // scheduler or storage down: no restart until it is back
    std::string explanation;
};

struct SpofSummary {
    ComponentKind kind = ComponentKind::Gpu;
    int total = 0; // components of this kind
    int spofs = 0; // of which failing any one alone stops the job
    std::string why;
};

// How often one component of a kind fails. GPUs, nodes and switches take Llama 3's
// interruption record (Table 5 over 54 days on 16,384 GPUs): the GPU rows per GPU, the Host rows
// and Host Maintenance per node, the Network Switch/Cable row spread evenly over every switch of
// a 16,384-GPU cluster of `spec` (the spread is assumed: the paper does not split the row). The
// paper gives no rate for racks, PDUs, cooling, storage or the scheduler: those are assumed.
struct KindFailureRate {
    double perComponentPerHour = 0.0;
    bool published = false; // derived from Table 5's counts; false: assumed
    std::string source;     // for the slide: "Llama 3 Table 5, …" or "assumed: …"
};
KindFailureRate componentFailureRate(ComponentKind k, const ClusterSpec& spec);

// What the operator keeps ready. A failure that stops the job idles all its GPUs until it
// restarts: on spares after `restartH` when the GPUs lost fit in `spareGpus` (a hot spare is
// swapped in), otherwise after the component is repaired (`repairH`). Storage must itself come
// back: spares do not shorten its outage. All three are assumptions of the lesson.
struct SparePolicy {
    int spareGpus = 32;
    double repairH = 8.0;
    double restartH = 20.0 / 60.0;
    void validate() const; // throws std::invalid_argument naming the field
};

// One kind's expected cost to the synchronous job: blast size × failure rate × hours down.
struct KindLoss {
    ComponentKind kind = ComponentKind::Gpu;
    int count = 0;
    KindFailureRate rate;
    double failuresPerDay = 0.0; // count × rate × 24 h
    int blastGpus = 0;           // GPUs one failure takes down (the first of its kind)
    bool stopsJob = false;
    bool sparesCover = false; // the job restarts on spares instead of waiting for the repair
    double outageNoSparesH = 0.0, outageSparesH = 0.0; // hours the job is down per failure
    double lossNoSpares = 0.0, lossSpares = 0.0;       // GPU-hours lost per day
};

// Expected GPU-hours lost per day, per kind, without and with spares. The job alternates
// between running and being down, so kind k keeps it down a share ρk / (1 + Σρ) of the wall
// time, ρk = failures per hour × hours down per failure (an alternating renewal process:
// failures arrive only while the job runs); the loss is that share × job GPUs × 24 h.
struct LossRanking {
    std::vector<KindLoss> kinds; // largest loss without spares first
    double availabilityNoSpares = 1.0, availabilitySpares = 1.0; // share of wall time running
    double lossNoSpares = 0.0, lossSpares = 0.0;                 // all kinds, GPU-hours per day
};

class ClusterFailureModel {
public:
    // Throws std::invalid_argument when the spec is absurd or the layout's TP×PP×DP is not
    // the cluster's GPU count.
    ClusterFailureModel(const ClusterSpec& spec, const ParallelLayout& layout);

    const ClusterSpec& spec() const { return m_spec; }
    const ParallelLayout& layout() const { return m_layout; }
    const std::vector<Component>& components() const { return m_components; }
    int count(ComponentKind k) const;
    // Id of the index-th component of a kind; throws std::invalid_argument when out of range.
    int id(ComponentKind k, int index) const;
    // GPUs that depend on a component (its whole downstream), for drawing domains.
    std::vector<int> gpusUnder(int componentId) const;
    // The components that depend on this one directly (one step down the graph), and the
    // dependency sets it needs: one inner list per set, any one member of a set will do.
    std::vector<int> dependentsOf(int componentId) const;
    std::vector<std::vector<int>> dependenciesOf(int componentId) const;

    BlastRadius fail(const std::vector<int>& componentIds) const;
    BlastRadius fail(int componentId) const { return fail(std::vector<int>{componentId}); }

    // Computed by failing every component alone (each costs its own blast radius).
    std::vector<SpofSummary> singlePointsOfFailure() const;

    // Every kind ranked by the GPU-hours it is expected to cost the job per day.
    LossRanking expectedLosses(const SparePolicy& spares) const;

private:
    // Scratch for one failure's spread: which components are down, how many members of each
    // dependency set are down, and the components in the order they went down.
    struct Spread {
        std::vector<char> isDown;
        std::vector<int> setDown;
        std::vector<int> touchedSets;
        std::vector<int> order;
    };
    Spread freshSpread() const;
    // Breadth-first over "depends on" from the components already in s.order.
    void spread(Spread& s) const;
    // Clears only what the last spread touched, so a scan over every component stays linear.
    static void reset(Spread& s);
    bool jobNeeds(int componentId) const;
    void checkId(int componentId) const; // throws std::invalid_argument

    ClusterSpec m_spec;
    ParallelLayout m_layout;
    std::vector<Component> m_components;
    std::vector<int> m_firstOfKind; // id of each kind's first component, and the end
    // Dependency sets: set s belongs to m_setOwner[s] and has m_setSize[s] members.
    std::vector<int> m_setOwner, m_setSize;
    // For each component, the sets it is a member of (CSR: m_memberStart into m_memberSets).
    std::vector<int> m_memberStart, m_memberSets;
    // Each set's members (CSR by set: m_setStart into m_setMembers).
    std::vector<int> m_setStart, m_setMembers;
};

} // namespace wb
