#pragma once
// The frames one step shows at one moment. Widgets render these structs and nothing else.
#include "frames/chart_frame.h"
#include "frames/facts_frame.h"
#include "frames/ring_frame.h"

#include <variant>
#include <vector>

namespace wb {

using Frame = std::variant<RingFrame, ChartFrame, FactsFrame>;

struct Frames {
    std::vector<Frame> items; // laid out left to right, the first one largest
    bool operator==(const Frames&) const = default;
};

} // namespace wb
