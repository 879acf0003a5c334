#include "planning/gang_allocation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

GangAllocation allocateTwoJobs(int gpus, int need, double durationH, bool gang, double windowH) {
    if (need < 1 || need > gpus || !(durationH > 0) || !(windowH > 0) ||
        !std::isfinite(durationH) || !std::isfinite(windowH))
        throw std::invalid_argument("two jobs need 1…gpus GPUs each and a positive duration");
    GangAllocation a;
    a.gpus = gpus;
    a.need = need;
    a.durationH = durationH;
    a.gang = gang;
    constexpr int kJobs = 2;
    std::vector<int> holder(static_cast<std::size_t>(gpus), -1);
    std::vector<double> since(static_cast<std::size_t>(gpus), 0.0);
    std::vector<bool> running(static_cast<std::size_t>(gpus), false);
    int held[kJobs] = {0, 0};
    double endsAt[kJobs] = {-1.0, -1.0}; // < 0: not started
    bool done[kJobs] = {false, false};
    auto closeSegment = [&](int g, double t) {
        const auto i = static_cast<std::size_t>(g);
        if (holder[i] >= 0 && t > since[i])
            a.segments.push_back({g, holder[i], since[i], t, running[i]});
        since[i] = t;
    };
    auto freeGpus = [&] { return static_cast<int>(std::count(holder.begin(), holder.end(), -1)); };
    auto grant = [&](int job, double t) {
        for (int g = 0; g < gpus; ++g)
            if (holder[static_cast<std::size_t>(g)] < 0) {
                holder[static_cast<std::size_t>(g)] = job;
                since[static_cast<std::size_t>(g)] = t;
                running[static_cast<std::size_t>(g)] = false;
                ++held[job];
                return;
            }
    };
    double t = 0.0;
    for (;;) {
        // Grant: all or nothing in job order, or one GPU at a time, taking turns.
        if (gang) {
            for (int j = 0; j < kJobs; ++j)
                if (!done[j] && endsAt[j] < 0 && held[j] == 0 && freeGpus() >= need)
                    for (int k = 0; k < need; ++k)
                        grant(j, t);
        } else {
            // Rounds of one GPU to each job still short of its need, until none is or none
            // is left.
            for (bool granted = true; granted && freeGpus() > 0;) {
                granted = false;
                for (int j = 0; j < kJobs && freeGpus() > 0; ++j)
                    if (!done[j] && endsAt[j] < 0 && held[j] < need) {
                        grant(j, t);
                        granted = true;
                    }
            }
        }
        // A job that holds all it needs runs.
        for (int j = 0; j < kJobs; ++j)
            if (!done[j] && endsAt[j] < 0 && held[j] == need) {
                endsAt[j] = t + durationH;
                for (int g = 0; g < gpus; ++g)
                    if (holder[static_cast<std::size_t>(g)] == j) {
                        closeSegment(g, t);
                        running[static_cast<std::size_t>(g)] = true;
                    }
            }
        int next = -1;
        for (int j = 0; j < kJobs; ++j)
            if (!done[j] && endsAt[j] >= 0 && (next < 0 || endsAt[j] < endsAt[next]))
                next = j;
        if (next < 0) {
            if (done[0] && done[1]) {
                a.endH = t;
                break;
            }
            // Nothing runs and nothing can be granted: each waiting job holds part of its need.
            a.deadlocked = true;
            a.endH = windowH;
            a.heldAtDeadlock = {held[0], held[1]};
            a.idleHeld = held[0] + held[1];
            for (int g = 0; g < gpus; ++g)
                closeSegment(g, std::max(windowH, t));
            break;
        }
        t = endsAt[next];
        for (int g = 0; g < gpus; ++g)
            if (holder[static_cast<std::size_t>(g)] == next) {
                closeSegment(g, t);
                holder[static_cast<std::size_t>(g)] = -1;
            }
        held[next] = 0;
        done[next] = true;
        if (t <= windowH)
            a.jobHoursDone += durationH;
    }
    std::sort(a.segments.begin(), a.segments.end(), [](const GangSegment& x, const GangSegment& y) {
        return x.gpu != y.gpu ? x.gpu < y.gpu : x.fromH < y.fromH;
    });
    return a;
}

} // namespace wb
