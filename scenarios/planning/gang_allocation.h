#pragma once
// Why gang scheduling (scheduler): two jobs that each need most of the free GPUs. Granted GPUs
// one at a time, taking turns (a scheduler that places a job's workers independently), each
// ends up holding part of what it needs; neither can start and neither lets go, so the GPUs
// sit held and idle for good: a deadlock. Granted all or nothing, one job starts at once and
// the other starts when it finishes.
#include <vector>

namespace wb {

// One GPU's time under one job: waiting (held, not yet running) or running.
struct GangSegment {
    int gpu = 0;
    int job = 0; // 0 or 1
    double fromH = 0.0, toH = 0.0;
    bool running = false;
};

struct GangAllocation {
    int gpus = 0, need = 0;
    double durationH = 0.0;
    bool gang = false;
    std::vector<GangSegment> segments;
    bool deadlocked = false;
    std::vector<int> heldAtDeadlock; // per job; empty unless deadlocked
    int idleHeld = 0;                // GPUs held by jobs that cannot run, at the deadlock
    double endH = 0.0;               // both jobs done; `windowH` when deadlocked
    double jobHoursDone = 0.0;       // work finished within the window, in job-hours
};

// Two jobs of `need` GPUs each and `durationH` of work, both arriving at 0 on `gpus` free
// GPUs; drawn up to `windowH`. Throws std::invalid_argument unless 1 ≤ need ≤ gpus and the
// times are positive.
GangAllocation allocateTwoJobs(int gpus, int need, double durationH, bool gang, double windowH);

} // namespace wb
