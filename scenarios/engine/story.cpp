#include "engine/story.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace wb {

bool checkAnswer(const CheckQuestion& q, double typed) {
    if (!std::isfinite(typed))
        return false;
    const double slack = std::abs(q.answer) * std::max(0.0, q.tolerance);
    return std::abs(typed - q.answer) <= slack;
}

Step& addWhiteboardStep(Story& story, std::string narration) {
    FactsFrame points;
    points.title = story.whiteboard.question;
    points.layout = FactsLayout::Slide;
    for (const WhiteboardPoint& p : story.whiteboard.points)
        points.rows.push_back({.label = p.text, .value = "", .source = p.source});
    Step step;
    step.title = kWhiteboardTitle;
    step.narration = std::move(narration);
    step.durationS = 2.0;
    // The points are the whole slide: a still frame a presenter ends on.
    step.frames = [points](double) { return Frames{{points}}; };
    story.steps.push_back(std::move(step));
    return story.steps.back();
}

} // namespace wb
