#pragma once
// A Story is what a scenario builds from its parameters: an ordered list of steps, each a
// pure function of time t in [0,1]. Same parameters and t give the same frames, which makes
// tests, exports and presentations repeatable.
#include "frames/frame.h"

#include <functional>
#include <string>
#include <vector>

namespace wb {

struct Step {
    std::string title;
    std::string narration;  // 1-3 sentences
    double durationS = 4.0; // playback length at 1x
    std::function<Frames(double t)> frames;
};

struct Story {
    std::vector<Step> steps;
    // Where the frames' data comes from; shown in the status line and on exports. A story
    // that replays a measured trace says the device and date; models say so.
    std::string provenance = "modeled on CPU";
};

} // namespace wb
