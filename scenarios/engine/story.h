#pragma once
// A Story is what a scenario builds from its parameters: an ordered list of steps, each a
// pure function of time t in [0,1]. Same parameters and t give the same frames, which makes
// tests, exports and presentations repeatable.
#include "frames/frame.h"

#include <concepts>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

// A number the model computed, by name, in the unit of its quantity (bytes, seconds, FLOP/s,
// a count, a fraction of one). A story lists the values its words may quote; the
// parameter-sweep test reads every number on its slides back and finds it here.
struct ResultValue {
    ResultValue() = default;
    ResultValue(std::string name_, double value_)
        : name(std::move(name_))
        , value(value_) {}
    // Counts are results too (blocks, waves, warps): taken as they are, without a cast at
    // every call.
    template <std::integral I>
    ResultValue(std::string name_, I count)
        : name(std::move(name_))
        , value(static_cast<double>(count)) {}

    std::string name;
    double value = 0.0;
};

struct Step {
    Step() = default;
    // {title, narration, seconds, frames} as every scenario writes a step; results optional.
    Step(std::string title_, std::string narration_, double durationS_,
         std::function<Frames(double t)> frames_, std::vector<ResultValue> results_ = {})
        : title(std::move(title_))
        , narration(std::move(narration_))
        , durationS(durationS_)
        , frames(std::move(frames_))
        , results(std::move(results_)) {}

    std::string title;
    std::string narration;  // 1-3 sentences
    double durationS = 4.0; // playback length at 1x
    std::function<Frames(double t)> frames;
    std::vector<ResultValue> results; // values only this step quotes (beside the story's)
};

// The answer a strong candidate gives at a whiteboard: a few points with this run's numbers,
// each with its primary source. The last step draws it; the answer card shows the same.
struct WhiteboardPoint {
    std::string text;
    std::string source; // paper with section or table, vendor document; empty: derived here
};

struct Whiteboard {
    std::string question;
    std::vector<WhiteboardPoint> points;
};

// A question the answer card asks before Reveal, answered by the model for this run's
// parameters: the user types a number and is right when it lies within `tolerance` (relative,
// 0.05 = ±5 %) of `answer`; `working` then shows how the model got there.
struct CheckQuestion {
    std::string question; // "How many 32-byte sectors does one warp's load touch?"
    double answer = 0.0;  // in `unit`, as the question asks for it
    std::string unit;     // "sectors", "GB/s", "%"; empty for a bare count
    double tolerance = 0.0;
    std::string working; // the arithmetic, with this run's numbers
};

// True when `typed` answers `q` within its tolerance (a zero answer needs an exact zero).
bool checkAnswer(const CheckQuestion& q, double typed);

struct Story {
    std::vector<Step> steps;
    // Where the frames' data comes from; shown in the status line and on exports. A story
    // that replays a measured trace says the device and date; models say so.
    std::string provenance = "modeled on CPU";
    std::vector<ResultValue> results;  // the model's values that every step may quote
    Whiteboard whiteboard;             // empty points: the scenario has none yet
    std::vector<CheckQuestion> checks; // 1-3 questions the answer card asks before Reveal
};

// The title every closing step has.
inline constexpr const char* kWhiteboardTitle = "Whiteboard answer";

// Appends the "Whiteboard answer" step, drawn from story.whiteboard (one row per point, its
// source beneath), and returns it for the scenario to add a picture beside the points.
Step& addWhiteboardStep(Story& story, std::string narration);

} // namespace wb
