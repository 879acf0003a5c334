#include "planning/cluster_scheduler.h"

#include "engine/sentence.h"
#include "planning/gpu_placement.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <stdexcept>
#include <tuple>

namespace wb {

const std::vector<std::string>& schedulePolicyNames() {
    static const std::vector<std::string> names = {"fifo", "gang-backfill", "topology",
                                                   "preemptive"};
    return names;
}

std::string schedulePolicyName(SchedulePolicy p) {
    return schedulePolicyNames()[static_cast<std::size_t>(p)];
}

SchedulePolicy parseSchedulePolicy(const std::string& text) {
    const auto& names = schedulePolicyNames();
    const auto it = std::find(names.begin(), names.end(), text);
    if (it == names.end())
        throw std::invalid_argument(
            fill("policy '%1' must be fifo, gang-backfill, topology or preemptive", {text}));
    return static_cast<SchedulePolicy>(it - names.begin());
}

std::string scheduleEventName(ScheduleEventKind k) {
    static const char* names[] = {"arrive", "start", "preempt", "finish"};
    return names[static_cast<int>(k)];
}

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

struct Running {
    std::vector<int> gpus;
    double startH = 0.0;
    double endH = 0.0;
    double slowdown = 1.0;
};

class ClusterScheduler {
public:
    ClusterScheduler(const std::vector<Job>& trace, const SchedulerConfig& c)
        : m_trace(trace)
        , m_c(c)
        , m_free(c.cluster) {
        const std::size_t n = trace.size();
        m_run.resize(n);
        m_keptWork.assign(n, 0.0);
        m_generation.assign(n, 0);
        m_teamGpus.assign(c.teamQuota.size(), 0);
        m_r.policy = c.policy;
        m_r.gpus = m_free.gpus();
        m_r.jobs.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            m_r.jobs[i].id = static_cast<int>(i);
        // FGD's target workload: each size weighted by how often it arrives.
        std::map<int, int> bySize;
        for (const Job& j : trace)
            ++bySize[j.gpus];
        for (const auto& [gpus, count] : bySize)
            m_sizeMix.emplace_back(gpus, static_cast<double>(count) / static_cast<double>(n));
        m_teamArea.assign(c.teamQuota.size(), 0.0);
        m_overQuotaH.assign(c.teamQuota.size(), 0.0);
        m_r.teamShare.assign(c.teamQuota.size(), 0.0);
        m_r.overQuota.assign(c.teamQuota.size(), 0.0);
    }

    ScheduleResult run() {
        const double horizon = m_c.horizonH < 0 ? m_trace.back().arrivalH : m_c.horizonH;
        std::size_t next = 0;
        for (;;) {
            while (!m_finishes.empty() &&
                   std::get<2>(m_finishes.top()) !=
                       m_generation[static_cast<std::size_t>(std::get<1>(m_finishes.top()))])
                m_finishes.pop(); // the job was preempted after this finish was planned
            const double tArrive = next < m_trace.size() ? m_trace[next].arrivalH : kNever;
            const double tFinish = m_finishes.empty() ? kNever : std::get<0>(m_finishes.top());
            const double t = std::min(tArrive, tFinish);
            if (t > horizon || t == kNever)
                break;
            advanceTo(t);
            if (tFinish <= tArrive) {
                const int id = std::get<1>(m_finishes.top());
                m_finishes.pop();
                finish(id);
            } else {
                arrive(m_trace[next++].id);
            }
            schedulePass();
            m_stranded = strandedNow();
            m_fragmented = m_free.fragmentedGpus(m_sizeMix);
            m_r.samples.push_back({m_now, m_free.gpus() - m_free.freeGpus(), m_stranded,
                                   static_cast<int>(m_queue.size()), m_fragmented, m_teamGpus});
        }
        advanceTo(std::max(horizon, m_now));
        summarise(next);
        return std::move(m_r);
    }

private:
    const Job& job(int id) const { return m_trace[static_cast<std::size_t>(id)]; }
    double workLeft(int id) const {
        return job(id).durationH - m_keptWork[static_cast<std::size_t>(id)];
    }

    void advanceTo(double t) {
        const double dt = t - m_now;
        m_allocated += (m_free.gpus() - m_free.freeGpus()) * dt;
        m_useful += m_usefulRate * dt;
        m_strandedArea += m_stranded * dt;
        m_fragmentedArea += m_fragmented * dt;
        if (!m_queue.empty()) {
            m_fragmentedWaitingArea += m_fragmented * dt;
            m_waitingH += dt;
        }
        m_freeArea += m_free.freeGpus() * dt;
        for (std::size_t k = 0; k < m_teamGpus.size(); ++k) {
            m_teamArea[k] += m_teamGpus[k] * dt;
            if (overQuota(static_cast<int>(k)))
                m_overQuotaH[k] += dt;
        }
        m_now = t;
    }

    void log(ScheduleEventKind kind, int id, std::vector<int> gpus, double lost = 0.0) {
        m_r.events.push_back(
            {m_now, kind, id, std::move(gpus), m_free.gpus() - m_free.freeGpus(), lost});
    }

    // Queue order: arrival for fifo; priority, then arrival, for the others. A preempted job
    // goes back in at its original arrival, ahead of jobs that came later.
    bool before(int a, int b) const {
        if (m_c.policy == SchedulePolicy::Fifo)
            return a < b;
        return std::make_tuple(-job(a).priority, job(a).arrivalH, a) <
               std::make_tuple(-job(b).priority, job(b).arrivalH, b);
    }

    void enqueue(int id) {
        const auto at = std::upper_bound(m_queue.begin(), m_queue.end(), id,
                                         [&](int a, int b) { return before(a, b); });
        m_queue.insert(at, id);
        ++m_waitingSizes[job(id).gpus];
    }

    void dequeue(std::size_t index) {
        const int gpus = job(m_queue[index]).gpus;
        if (--m_waitingSizes[gpus] == 0)
            m_waitingSizes.erase(gpus);
        m_queue.erase(m_queue.begin() + static_cast<std::ptrdiff_t>(index));
    }

    void arrive(int id) {
        log(ScheduleEventKind::Arrive, id, {});
        enqueue(id);
    }

    bool topologyAware() const { return m_c.policy >= SchedulePolicy::Topology; }

    std::vector<int> place(int n) const {
        return topologyAware() ? m_free.packed(n) : m_free.firstFit(n);
    }

    double slowdownOf(const std::vector<int>& gpus) const {
        const int n = static_cast<int>(gpus.size());
        double s = 1.0;
        if (m_free.nodesSpanned(gpus) > m_free.nodesNeeded(n))
            s *= m_c.spreadSlowdown;
        if (m_free.leavesSpanned(gpus) > m_free.leavesNeeded(n))
            s *= m_c.crossLeafSlowdown;
        return s;
    }

    void start(int id, std::vector<int> gpus) {
        const auto i = static_cast<std::size_t>(id);
        Running& r = m_run[i];
        m_free.take(gpus);
        r.slowdown = slowdownOf(gpus);
        if (r.slowdown > 1.0)
            ++m_r.spreadStarts;
        r.startH = m_now;
        r.endH = m_now + workLeft(id) * r.slowdown;
        r.gpus = std::move(gpus);
        m_running.push_back(id);
        m_finishes.emplace(r.endH, id, m_generation[i]);
        m_teamGpus[static_cast<std::size_t>(job(id).team)] += job(id).gpus;
        m_usefulRate += job(id).gpus / r.slowdown;
        JobOutcome& o = m_r.jobs[i];
        if (o.firstStartH < 0)
            o.firstStartH = m_now;
        o.slowdown = r.slowdown;
        log(ScheduleEventKind::Start, id, r.gpus);
    }

    // Frees the job's GPUs; returns them for the event log.
    std::vector<int> stop(int id) {
        const auto i = static_cast<std::size_t>(id);
        Running& r = m_run[i];
        m_free.release(r.gpus);
        m_running.erase(std::find(m_running.begin(), m_running.end(), id));
        ++m_generation[i];
        m_teamGpus[static_cast<std::size_t>(job(id).team)] -= job(id).gpus;
        m_usefulRate -= job(id).gpus / r.slowdown;
        return std::move(r.gpus);
    }

    void finish(int id) {
        m_keptWork[static_cast<std::size_t>(id)] = job(id).durationH;
        m_r.jobs[static_cast<std::size_t>(id)].finishH = m_now;
        std::vector<int> gpus = stop(id);
        log(ScheduleEventKind::Finish, id, std::move(gpus));
    }

    // The contract: work is kept at each multiple of the checkpoint interval, so what is lost
    // is the work since the last one — less than one interval.
    void preempt(int id) {
        const auto i = static_cast<std::size_t>(id);
        const Running& r = m_run[i];
        const double done = m_keptWork[i] + (m_now - r.startH) / r.slowdown;
        const double interval = job(id).checkpointIntervalH;
        const double kept = std::max(m_keptWork[i], std::floor(done / interval) * interval);
        const double lost = done - kept;
        m_keptWork[i] = kept;
        m_useful -= lost * job(id).gpus; // counted as useful while it ran, then thrown away
        m_lostGpuH += lost * job(id).gpus;
        JobOutcome& o = m_r.jobs[i];
        ++o.preemptions;
        o.lostWorkH += lost;
        ++m_r.preemptions;
        std::vector<int> gpus = stop(id);
        log(ScheduleEventKind::Preempt, id, std::move(gpus), lost);
        enqueue(id);
    }

    double quotaGpus(int team) const {
        const auto t = static_cast<std::size_t>(team);
        return t < m_c.teamQuota.size() ? m_c.teamQuota[t] * m_free.gpus() : 0.0;
    }
    bool overQuota(int team) const {
        return m_teamGpus[static_cast<std::size_t>(team)] > quotaGpus(team);
    }

    // Preemptive policy: free room for the blocked head `id` by preempting lower-priority
    // jobs, or same-priority jobs of a team over quota when the head's team stays within its
    // own. Cheapest victims first (lowest priority, least work since a checkpoint); only the
    // victims whose GPUs the new placement uses are preempted. Starts the head on success.
    bool preemptFor(int id) {
        const Job& h = job(id);
        const bool headInQuota =
            m_teamGpus[static_cast<std::size_t>(h.team)] + h.gpus <= quotaGpus(h.team);
        std::vector<std::pair<std::tuple<int, double, double>, int>> candidates;
        for (int r : m_running) {
            const Job& j = job(r);
            const bool lower = j.priority < h.priority;
            const bool quota = j.priority == h.priority && headInQuota && overQuota(j.team);
            if (!lower && !quota)
                continue;
            const Running& run = m_run[static_cast<std::size_t>(r)];
            const double done =
                m_keptWork[static_cast<std::size_t>(r)] + (m_now - run.startH) / run.slowdown;
            const double sinceCheckpoint = std::fmod(done, j.checkpointIntervalH);
            candidates.push_back({{j.priority, sinceCheckpoint, -run.startH}, r});
        }
        if (candidates.empty())
            return false;
        std::sort(candidates.begin(), candidates.end());
        GpuPlacement trial = m_free;
        std::vector<int> gpus;
        std::size_t used = 0;
        while (gpus.empty() && used < candidates.size()) {
            trial.release(m_run[static_cast<std::size_t>(candidates[used++].second)].gpus);
            gpus = trial.packed(h.gpus);
        }
        if (gpus.empty())
            return false;
        std::vector<char> inPlacement(static_cast<std::size_t>(m_free.gpus()), 0);
        for (int g : gpus)
            inPlacement[static_cast<std::size_t>(g)] = 1;
        for (std::size_t k = 0; k < used; ++k) {
            const int victim = candidates[k].second;
            const auto& vg = m_run[static_cast<std::size_t>(victim)].gpus;
            if (std::any_of(vg.begin(), vg.end(),
                            [&](int g) { return inPlacement[static_cast<std::size_t>(g)]; }))
                preempt(victim);
        }
        start(id, std::move(gpus));
        return true;
    }

    // The head's reservation (EASY backfilling): the earliest time enough GPUs are free if the
    // running jobs end as estimated, and how many GPUs beyond the head's need are free then.
    // Counted in GPUs, not placements: an approximation for the topology-aware policies.
    std::pair<double, int> reservation(int gpus) const {
        std::vector<std::pair<double, int>> ends;
        for (int r : m_running)
            ends.emplace_back(m_run[static_cast<std::size_t>(r)].endH, job(r).gpus);
        std::sort(ends.begin(), ends.end());
        int avail = m_free.freeGpus();
        for (const auto& [end, n] : ends) {
            avail += n;
            if (avail >= gpus)
                return {end, avail - gpus};
        }
        return {kNever, 0};
    }

    void schedulePass() {
        const bool fifo = m_c.policy == SchedulePolicy::Fifo;
        bool blocked = false;
        double shadow = kNever;
        int extra = 0;
        int mostFree = m_free.mostFreeOnOneNode(), whole = m_free.wholeFreeNodes();
        for (std::size_t idx = 0; idx < m_queue.size();) {
            // Nothing left that could start (the preemptive head has had its chance): an
            // overloaded queue is not rescanned job by job.
            if ((blocked || m_c.policy != SchedulePolicy::Preemptive) &&
                m_waitingSizes.begin()->first > m_free.freeGpus())
                return;
            const int id = m_queue[idx];
            const Job& j = job(id);
            const bool fits = topologyAware() ? m_free.canPack(j.gpus, mostFree, whole)
                                              : m_free.canFirstFit(j.gpus, mostFree);
            if (!fits) {
                if (fifo)
                    return; // head-of-line blocking
                if (!blocked && m_c.policy == SchedulePolicy::Preemptive && preemptFor(id)) {
                    // The victims went back into the queue, perhaps ahead of idx: look the
                    // started head up again and rescan from the front.
                    dequeue(static_cast<std::size_t>(std::find(m_queue.begin(), m_queue.end(), id) -
                                                     m_queue.begin()));
                    idx = 0;
                    mostFree = m_free.mostFreeOnOneNode();
                    whole = m_free.wholeFreeNodes();
                    continue;
                }
                if (!blocked) {
                    blocked = true;
                    std::tie(shadow, extra) = reservation(j.gpus);
                }
                ++idx;
                continue;
            }
            if (blocked) {
                // Backfill: it must end before the reservation or use only the spare GPUs.
                if (m_now + workLeft(id) > shadow && j.gpus > extra) {
                    ++idx;
                    continue;
                }
                std::vector<int> gpus = place(j.gpus);
                if (m_now + workLeft(id) * slowdownOf(gpus) > shadow) {
                    if (j.gpus > extra) {
                        ++idx;
                        continue;
                    }
                    extra -= j.gpus;
                }
                start(id, std::move(gpus));
            } else {
                start(id, place(j.gpus));
            }
            dequeue(idx);
            mostFree = m_free.mostFreeOnOneNode();
            whole = m_free.wholeFreeNodes();
        }
    }

    int strandedNow() const {
        if (m_waitingSizes.empty())
            return 0;
        const int perNode = m_free.gpusPerNode();
        const int smallest = m_waitingSizes.begin()->first;
        const auto big = m_waitingSizes.upper_bound(perNode);
        return m_free.stranded(smallest <= perNode ? smallest : 0,
                               big == m_waitingSizes.end() ? 0 : m_free.nodesNeeded(big->first));
    }

    void summarise(std::size_t arrived) {
        m_r.horizonH = m_now;
        const double capacity = m_free.gpus() * m_now;
        m_r.utilization = capacity > 0 ? m_allocated / capacity : 0.0;
        m_r.usefulUtilization = capacity > 0 ? m_useful / capacity : 0.0;
        m_r.fragmentation = capacity > 0 ? m_strandedArea / capacity : 0.0;
        m_r.fgdFragmentation = capacity > 0 ? m_fragmentedArea / capacity : 0.0;
        m_r.fgdShareOfFree = m_freeArea > 0 ? m_fragmentedArea / m_freeArea : 0.0;
        m_r.fgdWhileWaiting =
            m_waitingH > 0 ? m_fragmentedWaitingArea / (m_free.gpus() * m_waitingH) : 0.0;
        m_r.preemptionLoss = capacity > 0 ? m_lostGpuH / capacity : 0.0;
        // Allocated = useful + slowed down + thrown away: the slowdown's share is what is left.
        m_r.slowdownLoss =
            std::max(0.0, m_r.utilization - m_r.usefulUtilization - m_r.preemptionLoss);
        for (std::size_t k = 0; k < m_teamArea.size(); ++k) {
            m_r.teamShare[k] = capacity > 0 ? m_teamArea[k] / capacity : 0.0;
            m_r.overQuota[k] = m_now > 0 ? m_overQuotaH[k] / m_now : 0.0;
        }
        double wait = 0.0;
        for (std::size_t i = 0; i < arrived; ++i) {
            const JobOutcome& o = m_r.jobs[i];
            wait += (o.firstStartH >= 0 ? o.firstStartH : m_now) - m_trace[i].arrivalH;
            if (o.finishH >= 0)
                ++m_r.jobsDone;
        }
        m_r.meanWaitH = arrived > 0 ? wait / static_cast<double>(arrived) : 0.0;
        m_r.jobsRunning = static_cast<int>(m_running.size());
        m_r.jobsWaiting = static_cast<int>(m_queue.size());
    }

    const std::vector<Job>& m_trace;
    SchedulerConfig m_c;
    GpuPlacement m_free;
    ScheduleResult m_r;
    std::vector<Running> m_run;     // by job id
    std::vector<double> m_keptWork; // work safe in a checkpoint (or done)
    std::vector<int> m_generation;  // bumped when a job stops: stale finish events are skipped
    std::vector<int> m_running;
    std::vector<int> m_queue;
    std::map<int, int> m_waitingSizes; // size → waiting jobs of that size
    std::vector<int> m_teamGpus;
    using Finish = std::tuple<double, int, int>; // end, job, generation
    std::priority_queue<Finish, std::vector<Finish>, std::greater<>> m_finishes;
    double m_now = 0.0;
    double m_allocated = 0.0, m_useful = 0.0, m_usefulRate = 0.0, m_strandedArea = 0.0;
    double m_fragmentedArea = 0.0, m_freeArea = 0.0, m_lostGpuH = 0.0, m_fragmented = 0.0;
    double m_fragmentedWaitingArea = 0.0, m_waitingH = 0.0;
    int m_stranded = 0;
    std::vector<std::pair<int, double>> m_sizeMix; // (GPUs, share of the trace's jobs)
    std::vector<double> m_teamArea, m_overQuotaH;
};

} // namespace

ScheduleResult simulateCluster(const std::vector<Job>& trace, const SchedulerConfig& c) {
    c.cluster.validate();
    if (trace.empty())
        throw std::invalid_argument("the trace has no jobs");
    if (!(c.spreadSlowdown >= 1.0) || !(c.crossLeafSlowdown >= 1.0) ||
        !std::isfinite(c.spreadSlowdown) || !std::isfinite(c.crossLeafSlowdown))
        throw std::invalid_argument("slowdown factors must be finite and at least 1");
    if (!std::isfinite(c.horizonH))
        throw std::invalid_argument("the horizon must be a finite number of hours");
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const Job& j = trace[i];
        if (j.id != static_cast<int>(i))
            throw std::invalid_argument("job ids must be 0…n−1 in trace order");
        if (i > 0 && j.arrivalH < trace[i - 1].arrivalH)
            throw std::invalid_argument("the trace must be sorted by arrival");
        if (j.gpus < 1 || j.gpus > c.cluster.gpus())
            throw std::invalid_argument(fill(
                "job %1 needs %2 GPUs; the cluster has %3",
                {std::to_string(j.id), std::to_string(j.gpus), std::to_string(c.cluster.gpus())}));
        if (!(j.durationH > 0) || !(j.checkpointIntervalH > 0) || !std::isfinite(j.durationH) ||
            !std::isfinite(j.checkpointIntervalH) || !std::isfinite(j.arrivalH))
            throw std::invalid_argument(
                fill("job %1: duration and checkpoint interval must be positive",
                     {std::to_string(j.id)}));
        if (j.team < 0 || j.team >= static_cast<int>(c.teamQuota.size()))
            throw std::invalid_argument(fill("job %1 belongs to team %2, which has no quota",
                                             {std::to_string(j.id), std::to_string(j.team)}));
    }
    return ClusterScheduler(trace, c).run();
}

} // namespace wb
