#pragma once
// A discrete-event simulation of a GPU cluster scheduler (scheduler): nodes of 8 GPUs under leaf
// switches (ClusterTopology), a job queue replayed from a seeded trace, and four policies:
//  - fifo: arrival order, stop at the first job that does not fit (head-of-line blocking),
//    naive first-fit placement (the first node with room; a job larger than a node on the
//    lowest-numbered free GPUs, across partly used nodes if need be);
//  - gang-backfill: all-or-nothing starts in priority order; when the head cannot start, it
//    gets a reservation at the earliest time enough GPUs free up, and later jobs may start now
//    only if they end before it or use GPUs it will not need (EASY backfilling); first-fit;
//  - topology: gang-backfill with topology-aware placement (a job of ≤ 8 GPUs inside one
//    NVLink domain, best fit; a larger job on whole nodes under as few leaf switches as
//    possible);
//  - preemptive: topology, and a waiting job may preempt running jobs of lower priority, or of
//    a team over its quota when its own team is within quota. A preempted job resumes from its
//    last checkpoint, so it loses at most its contract's interval of work.
// A job spread over more nodes or leaves than it needs runs slower (an assumed factor, stated
// in the config), which is what the naive policies pay for using fragmented GPUs.
// Two gauges of idle capacity, both time-averaged shares of the cluster: stranded GPUs (free,
// but no job now waiting can use them at full speed: GpuPlacement::stranded) and fragmented
// GPUs as FGD (Weng et al., ATC'23) defines them: free GPUs the trace's size mix, weighted by
// how often each size arrives, cannot use (GpuPlacement::fragmentedGpus).
#include "parallel/cluster_topology.h"
#include "planning/job_trace.h"

#include <string>
#include <vector>

namespace wb {

enum class SchedulePolicy { Fifo, GangBackfill, Topology, Preemptive };
const std::vector<std::string>& schedulePolicyNames(); // "fifo", "gang-backfill", ...
std::string schedulePolicyName(SchedulePolicy p);
SchedulePolicy parseSchedulePolicy(const std::string& text); // throws std::invalid_argument

struct SchedulerConfig {
    ClusterTopology cluster;
    SchedulePolicy policy = SchedulePolicy::Fifo;
    std::vector<double> teamQuota = {0.4, 0.3, 0.2, 0.1}; // share of the cluster's GPUs
    // Assumptions (illustrative, not from a source): a job over more nodes than it needs runs
    // this much slower (its collectives leave NVLink), and more again across extra leaves.
    double spreadSlowdown = 1.25;
    double crossLeafSlowdown = 1.1;
    double horizonH = -1.0; // simulate up to here; < 0: up to the last arrival
};

enum class ScheduleEventKind { Arrive, Start, Preempt, Finish };
std::string scheduleEventName(ScheduleEventKind k); // "arrive", "start", "preempt", "finish"

// The event log, in time order: what a Gantt view draws and what the tests replay.
struct ScheduleEvent {
    double timeH = 0.0;
    ScheduleEventKind kind = ScheduleEventKind::Arrive;
    int job = 0;
    std::vector<int> gpus;  // Start: taken; Preempt and Finish: released
    int allocatedGpus = 0;  // after the event
    double lostWorkH = 0.0; // Preempt: work since the last checkpoint
};

// The cluster after each event: what a gauge over time draws.
struct ClusterSample {
    double timeH = 0.0;
    int allocatedGpus = 0;
    int strandedGpus = 0; // free but unusable at full speed by any waiting job
    int waitingJobs = 0;
    double fragmentedGpus = 0.0; // FGD's expected fragment for the trace's size mix
    std::vector<int> teamGpus;   // GPUs each team holds
};

struct JobOutcome {
    int id = 0;
    double firstStartH = -1.0; // -1: never started
    double finishH = -1.0;     // -1: not finished within the horizon
    int preemptions = 0;
    double lostWorkH = 0.0;
    double slowdown = 1.0; // of its last placement
};

struct ScheduleResult {
    SchedulePolicy policy = SchedulePolicy::Fifo;
    int gpus = 0;
    double horizonH = 0.0;
    std::vector<ScheduleEvent> events;
    std::vector<ClusterSample> samples; // one per event, after the scheduling pass
    std::vector<JobOutcome> jobs;       // indexed by job id
    double utilization = 0.0;           // allocated GPU-hours ÷ (GPUs × horizon)
    double usefulUtilization = 0.0;     // the same counting only full-speed-equivalent, kept work
    double fragmentation = 0.0;         // time-averaged stranded GPUs ÷ GPUs
    double fgdFragmentation = 0.0;      // time-averaged FGD-fragmented GPUs ÷ GPUs
    double fgdShareOfFree = 0.0;        // the same ÷ time-averaged free GPUs
    // FGD-fragmented GPUs ÷ GPUs averaged over the time some job waits: the cluster refusing
    // work, the state FGD's unallocated-GPU figure describes. 0 when no job ever waits.
    double fgdWhileWaiting = 0.0;
    // utilization = usefulUtilization + slowdownLoss + preemptionLoss: allocated GPU-hours
    // that a spread placement's slowdown or a preemption's lost work wasted, ÷ capacity.
    double slowdownLoss = 0.0;
    double preemptionLoss = 0.0;
    int spreadStarts = 0;          // starts on more nodes or leaves than the job needs
    std::vector<double> teamShare; // per team: time-averaged GPUs held ÷ GPUs
    std::vector<double> overQuota; // per team: share of the horizon spent over its quota
    double meanWaitH = 0.0;        // first start − arrival; a job still queued counts its wait
    int jobsDone = 0, jobsRunning = 0, jobsWaiting = 0;
    int preemptions = 0;
};

// `trace` must be sorted by arrival with ids 0…n−1 (generateJobTrace's output); throws
// std::invalid_argument on a bad trace or config (a job larger than the cluster, ...).
ScheduleResult simulateCluster(const std::vector<Job>& trace, const SchedulerConfig& c);

} // namespace wb
