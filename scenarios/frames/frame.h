#pragma once
// The frames one step shows at one moment. Widgets render these structs and nothing else.
#include "frames/bar_chart_frame.h"
#include "frames/chart_frame.h"
#include "frames/cluster_map_frame.h"
#include "frames/comm_graph_frame.h"
#include "frames/fabric_frame.h"
#include "frames/facts_frame.h"
#include "frames/issue_timeline_frame.h"
#include "frames/ladder_frame.h"
#include "frames/memory_access_frame.h"
#include "frames/node_topology_frame.h"
#include "frames/ring_frame.h"
#include "frames/schedule_frame.h"
#include "frames/sm_grid_frame.h"
#include "frames/thread_map_frame.h"
#include "frames/timeline_frame.h"
#include "frames/topology_frame.h"
#include "frames/warp_frame.h"

#include <variant>
#include <vector>

namespace wb {

using Frame = std::variant<RingFrame, ChartFrame, FactsFrame, WarpFrame, SmGridFrame,
                           MemoryAccessFrame, LadderFrame, IssueTimelineFrame, TimelineFrame,
                           CommGraphFrame, ScheduleFrame, TopologyFrame, BarChartFrame,
                           ClusterMapFrame, FabricFrame, NodeTopologyFrame, ThreadMapFrame>;

// How a stage places a step's items. Lead: the first one large, the rest stacked beside it
// (a picture and what explains it). Grid: equal cells in rows, for small multiples that
// compare one quantity and must be read at one size.
enum class Arrangement { Lead, Grid };

struct Frames {
    std::vector<Frame> items; // laid out left to right
    Arrangement arrangement = Arrangement::Lead;
    bool operator==(const Frames&) const = default;
};

} // namespace wb
