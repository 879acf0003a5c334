#pragma once
// One training step as a Gantt chart: a row per GPU (or per GPU stream: compute, NCCL), a bar
// per forward/backward pass or collective with the times the model gave it. Rows marked
// `idleIsBubble` are pipeline stages: their idle time is the bubble, drawn hatched. The
// playback cursor reveals the step as it runs; bars not started yet are drawn faint.
#include <string>
#include <vector>

namespace wb {

enum class ScheduleKind {
    Forward,
    Backward,
    Optimizer,
    AllReduce,
    ReduceScatter,
    AllGather,
    SendRecv,
    AllToAll,
    Compute, // forward and backward together, when a step is summarised
};
inline constexpr int kScheduleKinds = 9;
// "forward", "backward", "optimizer", "all-reduce", "reduce-scatter", "all-gather",
// "send/recv", "all-to-all", "compute"
inline const char* scheduleKindName(ScheduleKind k) {
    constexpr const char* names[kScheduleKinds] = {"forward",    "backward",       "optimizer",
                                                   "all-reduce", "reduce-scatter", "all-gather",
                                                   "send/recv",  "all-to-all",     "compute"};
    return names[static_cast<int>(k)];
}

struct ScheduleBar {
    double startS = 0.0;
    double endS = 0.0;
    ScheduleKind kind = ScheduleKind::Forward;
    std::string label; // drawn inside the bar when it fits: "3" (micro-batch), "L2"
    int shade = 0;     // 0 = full colour; 1, 2, ... lighter (interleaved model chunks)
    std::string tip;
    // ≥ 0: the frame's categories[category] names it and the theme's series palette colours
    // it (jobs, failure timelines); < 0: `kind` does.
    int category = -1;
    bool operator==(const ScheduleBar&) const = default;
};

struct ScheduleRow {
    std::string label; // "GPU 0 compute", "stage 2"
    std::vector<ScheduleBar> bars;
    bool idleIsBubble = false; // hatch the gaps between 0 and the frame's end
    // ≥ 0: this row's work ends here (a shorter step beside a longer one), so nothing after
    // it is hatched as bubble.
    double idleEndS = -1.0;
    bool operator==(const ScheduleRow&) const = default;
};

struct ScheduleFrame {
    std::string title;
    std::vector<ScheduleRow> rows;
    double startS = 0.0;   // the time axis runs startS…endS: later than 0 when nothing
    double endS = 0.0;     // happens before (the axis shows the part that has bars)
    double cursorS = -1.0; // playback position; < 0 draws the whole step with no cursor
    std::string caption;   // one line under the title: the numbers the step is about
    // Legend names for bars with a category (a Gantt that is not a training step: "run",
    // "checkpoint", "lost work", a job's team, ...).
    std::vector<std::string> categories;
    // The time axis is labelled in `axisUnit`, `axisUnitS` seconds each ("h", 3600); times in
    // the frame stay in seconds.
    std::string axisUnit = "s";
    double axisUnitS = 1.0;
    bool operator==(const ScheduleFrame&) const = default;
};

} // namespace wb
