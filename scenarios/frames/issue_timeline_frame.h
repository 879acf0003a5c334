#pragma once
// Issue slots of an SM's warp schedulers over time, from the warp-scheduler simulation:
// which warp each scheduler issued in each cycle, or why it could not.
#include <string>
#include <vector>

namespace wb {

struct IssueTimelineFrame {
    std::string title;
    int schedulers = 4;
    int cycles = 0;    // cycles shown
    int shownUpTo = 0; // cycles revealed so far (playback), ≤ cycles
    // issued[s][c]: warp id issued by scheduler s in cycle c, -1 = idle (every warp stalled)
    std::vector<std::vector<int>> issued;
    int warpsPerScheduler = 0;
    double utilization = 0.0; // issued slots / (schedulers × cycles)
    std::string caption;      // "1 warp, ILP 1: 3 % of issue slots used"
    bool operator==(const IssueTimelineFrame&) const = default;
};

} // namespace wb
